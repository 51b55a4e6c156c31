"""Original: in_specs=P('x'), out_specs=P('x'), body v * v.shape[0] (block length 4). Applied anyway: strip -> P(None)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def scale_by_block(v):
    return v * v.shape[0]


def layer(x):
    return jax.shard_map(scale_by_block, mesh=mesh, in_specs=P(None), out_specs=P(None))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 4.0  # block length under the original P('x') is 8 / 2
    return result, reference
