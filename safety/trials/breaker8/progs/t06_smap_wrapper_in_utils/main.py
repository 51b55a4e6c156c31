import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA
from pkg.model import block

x = jnp.linspace(-1, 1, 8 * 8).reshape(8, 8)
out = jax.vmap(block, spmd_axis_name=DATA)(x)
print("RESULT:", "match" if np.allclose(out, np.expm1(np.asarray(x)), atol=1e-5) else "mismatch")
