import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


def block(x, axis=None):
    if axis is None:
        axis = 'data'
    return jax.shard_map(lambda v: v * 2.0, mesh=mesh, in_specs=P(axis), out_specs=P(axis))(x)


def warm_up(x):
    return block(x, 'model')


def forward(xs):
    return jax.vmap(lambda x: block(x), spmd_axis_name='data')(xs)


def main():
    xs = jnp.arange(4 * 8 * 16, dtype=jnp.float32).reshape(4, 8, 16) % 7 - 3.0
    return (forward(xs), warm_up(xs[0])), (np.asarray(xs) * 2.0, np.asarray(xs[0]) * 2.0)
