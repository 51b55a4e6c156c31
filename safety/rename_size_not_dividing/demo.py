"""Original: mesh (2, 4) ('x', 'z'), in/out P('x'), vmap(spmd_axis_name='x') over a batch of 6 (divisible by 2).
Applied anyway: rename spmd_axis_name 'x' -> 'z' (size 4); 6 is not divisible by 4."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'z'))


def body(v):
    return v + 1.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(6 * 8, dtype=jnp.float32).reshape(6, 8)
    result = jax.vmap(layer, spmd_axis_name='z')(xs)
    reference = np.asarray(xs) + 1.0
    return result, reference
