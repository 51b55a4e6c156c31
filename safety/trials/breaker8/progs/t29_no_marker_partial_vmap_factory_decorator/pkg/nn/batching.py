import functools

import jax

from ..config import DATA

per_example = functools.partial(jax.vmap, spmd_axis_name=DATA)
