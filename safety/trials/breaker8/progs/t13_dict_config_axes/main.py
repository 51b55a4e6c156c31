import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import CFG
from pkg.model import block

x = jnp.arange(64.0).reshape(8, 8)
out = jax.vmap(block, spmd_axis_name=CFG["axes"]["data"])(x)
print("RESULT:", "match" if np.allclose(out, np.arange(64.0).reshape(8, 8) - 3) else "mismatch")
