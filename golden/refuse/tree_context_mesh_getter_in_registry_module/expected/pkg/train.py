import jax
import numpy as np

from pkg import registry
from pkg.config import MESH
from pkg.model import block


def step(xs):
    with jax.set_mesh(MESH):
        out = jax.vmap(block, spmd_axis_name="data")(xs)
        n = [hook() for hook in registry.HOOKS][0]
    return out / n
