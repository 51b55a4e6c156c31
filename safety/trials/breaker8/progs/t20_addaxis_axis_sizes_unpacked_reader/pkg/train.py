import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA
from pkg.data import per_replica
from pkg.model import block


def main():
    n = per_replica(16)
    x = jnp.linspace(-1, 1, n * 8).reshape(n, 8)
    out = jax.vmap(block, spmd_axis_name=DATA)(x)
    ok = n == 8 and np.allclose(out, np.asarray(x) - 1.0)
    print("RESULT:", "match" if ok else f"mismatch (n={n})")
