import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


def block(x, axis):
    return jax.shard_map(lambda v: v * 2.0, mesh=mesh, in_specs=P(axis), out_specs=P(axis))(x)


def warm_up(x):
    return block(x, 'model')


def f1(xs):
    return jax.vmap(lambda x: jax.jit(block, static_argnums=1)(x, 'data'), spmd_axis_name='data')(xs)


def f2(xs):
    return jax.vmap(lambda x: jax.checkpoint(block, static_argnums=(1,))(x, 'data'), spmd_axis_name='data')(xs)


def ok(xs):
    return jax.vmap(lambda x: jax.jit(block, static_argnums=1)(x, 'model'), spmd_axis_name='data')(xs)


def main():
    xs = np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7 - 3.0
    result = (f1(xs), f2(xs), ok(xs), warm_up(xs[0]))
    return result, (xs * 2.0, xs * 2.0, xs * 2.0, xs[0] * 2.0)
