import jax
import jax.numpy as jnp
import numpy as np

from pkg.data import shards_per_replica
from pkg.model import block


def main():
    cols = 2 * shards_per_replica()    # 8
    x = jnp.linspace(-1, 1, 4 * cols).reshape(4, cols)
    out = jax.vmap(block, spmd_axis_name="data")(x)
    ok = cols == 8 and np.allclose(out, np.asarray(x) + 3.0, atol=1e-5)
    print("RESULT:", "match" if ok else "mismatch")
