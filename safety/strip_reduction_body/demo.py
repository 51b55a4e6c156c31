"""Original: in_specs=P('x'), out_specs=P('x'), body v - v.mean(), vmap(spmd_axis_name='x') (raises).
Applied anyway: strip -> P(None). Each block now holds the whole row, so the mean is taken over 8 values, not 4."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def center(v):
    return v - v.mean()


def layer(x):
    return jax.shard_map(center, mesh=mesh, in_specs=P(None), out_specs=P(None))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    # the original program centers each half-row block (8 features split 2 ways over 'x')
    blocks = np.asarray(xs).reshape(4, 2, 4)
    reference = (blocks - blocks.mean(axis=-1, keepdims=True)).reshape(4, 8)
    return result, reference
