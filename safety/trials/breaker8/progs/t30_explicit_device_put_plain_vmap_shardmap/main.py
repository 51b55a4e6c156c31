import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import DATA, make_mesh
from pkg.model import block

mesh = make_mesh()
with jax.set_mesh(mesh):
    x = jax.device_put(jnp.linspace(-1, 1, 8 * 8).reshape(8, 8), NamedSharding(mesh, P(DATA)))
    out = jax.vmap(block)(x)
print("RESULT:", "match" if np.allclose(out, np.linspace(-1, 1, 64).reshape(8, 8) * 0.5) else "mismatch")
