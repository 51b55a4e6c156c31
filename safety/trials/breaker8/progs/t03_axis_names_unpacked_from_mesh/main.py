import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import MESH
from pkg.model import block

axis = MESH.axis_names[0]
x = jnp.linspace(0, 1, 8 * 8).reshape(8, 8)
out = jax.vmap(block, spmd_axis_name=axis)(x)
print("RESULT:", "match" if np.allclose(out, np.asarray(x) ** 2, atol=1e-6) else "mismatch")
