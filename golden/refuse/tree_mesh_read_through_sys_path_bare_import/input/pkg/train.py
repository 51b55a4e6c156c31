import jax

from .config import DATA
from .model import forward

step = jax.vmap(forward, in_axes=(0, None), spmd_axis_name=DATA)
