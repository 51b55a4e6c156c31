import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA
from pkg.model import block


def main():
    x = jnp.arange(4 * 8 * 2, dtype=jnp.float32).reshape(4, 8, 2)
    out = jax.vmap(block, spmd_axis_name=DATA)(x)
    xs = np.asarray(x).reshape(4, 2, 4, 2)  # two shards of 4 rows each along the data axis
    ref = (xs - xs.mean(axis=2, keepdims=True)).reshape(4, 8, 2)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
