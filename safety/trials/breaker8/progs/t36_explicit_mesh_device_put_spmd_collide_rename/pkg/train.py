import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import DATA, MESH
from pkg.model import block


def main():
    x = jax.device_put(jnp.linspace(-1, 1, 8 * 8).reshape(8, 8), NamedSharding(MESH, P(DATA)))
    out = jax.jit(jax.vmap(block, spmd_axis_name=DATA))(x)
    print("RESULT:", "match" if np.allclose(out, np.linspace(-1, 1, 64).reshape(8, 8) + 3.0) else "mismatch")
