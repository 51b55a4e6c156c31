import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

from pkg.model import block

ROWS = P("data")


def apply(x):
    return block(x, ROWS)


def main():
    xs = jnp.ones((4, 8))
    out = jax.vmap(apply, spmd_axis_name="data")(xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")
