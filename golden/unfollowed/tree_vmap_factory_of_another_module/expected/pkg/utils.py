import functools

import jax

per_example = functools.partial(jax.vmap, spmd_axis_name='data')
