from functools import partial

import jax

from pkg.config import DATA

per_example = partial(jax.vmap, spmd_axis_name=DATA)


def compiled(fn):
    """jit with donate off; kept as one place to change compile options."""
    return jax.jit(fn)
