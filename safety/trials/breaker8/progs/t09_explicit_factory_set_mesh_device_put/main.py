import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.mesh import build_mesh
from pkg.model import block

mesh = build_mesh()
with jax.set_mesh(mesh):
    x = jax.device_put(jnp.linspace(-1, 1, 8 * 8).reshape(8, 8), NamedSharding(mesh, P("data")))
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x)
print("RESULT:", "match" if np.allclose(out, np.linspace(-1, 1, 64).reshape(8, 8) * 2 + 1, atol=1e-5) else "mismatch")
