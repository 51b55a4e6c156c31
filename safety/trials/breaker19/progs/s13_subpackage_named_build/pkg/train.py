import jax

from .config import DATA
from .model import forward

step = jax.vmap(forward, spmd_axis_name=DATA)
