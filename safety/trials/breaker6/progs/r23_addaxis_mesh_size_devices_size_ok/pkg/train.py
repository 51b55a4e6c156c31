import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import mesh
from pkg.model import block

def main():
    assert mesh.devices.size == jax.device_count()
    n = mesh.size
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x) * (n / 8)
    ref = np.tanh(np.asarray(x)) * 2.0
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
