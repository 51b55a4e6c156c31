import functools

import jax


class Batching:
    vec = functools.partial(jax.vmap, spmd_axis_name='data')


VMAPS = {'data': functools.partial(jax.vmap, spmd_axis_name='data')}


def per_example():
    return functools.partial(jax.vmap, spmd_axis_name='data')
