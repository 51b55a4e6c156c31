import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA
from pkg.layout import first_axis_size
from pkg.model import block


def main():
    k = first_axis_size()
    x = jnp.linspace(-1, 1, 4 * k * 8).reshape(4, 8 * k)
    out = jax.vmap(block, spmd_axis_name=DATA)(x)
    ok = k == 2 and np.allclose(out, np.asarray(x) / 2.0)
    print("RESULT:", "match" if ok else f"mismatch (k={k})")
