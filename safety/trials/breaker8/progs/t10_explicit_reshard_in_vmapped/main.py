import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import MESH
from pkg.model import block

with jax.set_mesh(MESH):
    x = jnp.linspace(0, 1, 8 * 8).reshape(8, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x)
print("RESULT:", "match" if np.allclose(out, np.linspace(0, 1, 64).reshape(8, 8) - 0.5, atol=1e-6) else "mismatch")
