"""A with_sharding_constraint whose sharding is a name bound to `NamedSharding(mesh, P("model", None))` (as jax's
pjit_test.py writes it), under an spmd vmap over `"model"`: JAX raises SPMD005's error. The constraint reader
unwrapped only a `NamedSharding(...)` written in the call: through a name it was an SPMD910 record."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def f(inp):
    sharding = NamedSharding(mesh, P(None, None))
    return jax.lax.with_sharding_constraint(inp * 2.0, sharding)


def main():
    xs = np.arange(4 * 8 * 4, dtype=np.float32).reshape(4, 8, 4)
    return jax.vmap(jax.jit(f), spmd_axis_name="model")(xs), xs * 2.0
