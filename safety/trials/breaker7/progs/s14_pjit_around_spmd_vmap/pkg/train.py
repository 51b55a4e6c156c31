import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.pjit import pjit
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import block


def main():
    x = jnp.linspace(-1, 1, 4 * 4 * 8).reshape(4, 4, 8)
    step = pjit(jax.vmap(block, spmd_axis_name="data"),
                in_shardings=NamedSharding(MESH, P()), out_shardings=NamedSharding(MESH, P()))
    out = step(x)
    ref = np.abs(np.asarray(x)) + 1.0
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
