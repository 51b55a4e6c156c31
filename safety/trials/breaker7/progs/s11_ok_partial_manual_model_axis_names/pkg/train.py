import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA
from pkg.model import tp_matmul


def main():
    x = jnp.linspace(-1, 1, 4 * 2 * 8).reshape(4, 2, 8)
    w = jnp.linspace(0, 1, 8 * 3).reshape(8, 3)
    out = jax.jit(jax.vmap(tp_matmul, in_axes=(0, None), spmd_axis_name=DATA))(x, w)
    ref = np.einsum("bij,jk->bik", np.asarray(x), np.asarray(w))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-4) else "mismatch")
