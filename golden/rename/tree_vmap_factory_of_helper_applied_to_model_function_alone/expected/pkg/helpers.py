import jax


def make_batched(fn):
    return jax.vmap(fn, spmd_axis_name='model')
