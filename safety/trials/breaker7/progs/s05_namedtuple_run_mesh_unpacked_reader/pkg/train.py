import jax
import jax.numpy as jnp
import numpy as np

from pkg.data import local_batch
from pkg.model import block


def main():
    n = local_batch()
    x = jnp.linspace(-1, 1, n * 8).reshape(n, 8)
    out = jax.vmap(block, spmd_axis_name="data")(x)
    ref = np.exp(-np.asarray(x) ** 2)
    ok = n == 8 and np.allclose(out, ref, atol=1e-5)
    print("RESULT:", "match" if ok else "mismatch")
