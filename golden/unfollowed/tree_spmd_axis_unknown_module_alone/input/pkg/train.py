import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import mesh
from pkg.model import block


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        # the mesh in force where the vmap runs: not a construction spmdfix reads
        out = jax.vmap(block, spmd_axis_name=jax.sharding.get_abstract_mesh().axis_names[0])(x)
    return out, np.asarray(x) ** 2
