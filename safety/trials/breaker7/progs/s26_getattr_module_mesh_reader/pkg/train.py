import jax
import jax.numpy as jnp
import numpy as np

from pkg.metrics import replica_count
from pkg.model import block


def main():
    n = 2 * replica_count()   # 4
    x = jnp.linspace(-1, 1, n * 8).reshape(n, 8)
    out = jax.vmap(block, spmd_axis_name="data")(x)
    ok = n == 4 and np.allclose(out, -np.asarray(x), atol=1e-5)
    print("RESULT:", "match" if ok else "mismatch")
