import jax

from pkg import layers


def step(xs):
    return jax.vmap(lambda x: jax.jit(layers.block)(x), spmd_axis_name='x')(xs)
