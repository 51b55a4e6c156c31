import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA
from pkg.model import forward

x = jnp.arange(4 * 8 * 4, dtype=jnp.float32).reshape(4, 8, 4)
out = jax.jit(jax.vmap(forward, spmd_axis_name=DATA))(x)
print("RESULT:", "match" if np.allclose(out, np.asarray(x) * 3.0 - 1.0) else "mismatch")
