import jax
import jax.numpy as jnp
import numpy as np
from pkg.config import CFG

from pkg.model import block

CFG.__dict__["data_axis"] = "data"

def main():
    xs = jnp.arange(32.0).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name="data")(xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")
