import jax

from pkg import model


def step(xs):
    model.CFG.data_axis = 'data'
    return jax.vmap(model.block, spmd_axis_name='data')(xs)
