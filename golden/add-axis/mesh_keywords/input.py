import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(devices=np.array(jax.devices()).reshape(2, 4), axis_names=('x', 'y'))


def layer(x):
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(x)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8)
    return jax.vmap(layer, spmd_axis_name='x')(xs), np.asarray(xs) + 1.0
