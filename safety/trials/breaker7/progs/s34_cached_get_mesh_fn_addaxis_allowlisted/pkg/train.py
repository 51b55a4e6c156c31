import jax
import jax.numpy as jnp
import numpy as np

from pkg.eval import eval_rows
from pkg.model import block


def main():
    n = eval_rows()   # 8
    x = jnp.linspace(-1, 1, n * 8).reshape(n, 8)
    out = jax.vmap(block, spmd_axis_name="data")(x)
    ok = n == 8 and np.allclose(out, np.sqrt(np.asarray(x) ** 2 + 1.0), atol=1e-5)
    print("RESULT:", "match" if ok else "mismatch")
