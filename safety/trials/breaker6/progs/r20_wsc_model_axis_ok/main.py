import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
HIDDEN = NamedSharding(mesh, P(None, "model"))


def mlp(x, w1, w2):
    h = jax.lax.with_sharding_constraint(jax.nn.gelu(x @ w1), HIDDEN)
    return h @ w2


def main():
    x = jnp.linspace(-1, 1, 4 * 2 * 8).reshape(4, 2, 8)
    w1 = jnp.linspace(-1, 1, 8 * 16).reshape(8, 16)
    w2 = jnp.linspace(0, 1, 16 * 8).reshape(16, 8)
    out = jax.jit(jax.vmap(mlp, in_axes=(0, None, None), spmd_axis_name="data"))(x, w1, w2)
    ref = jax.nn.gelu(np.asarray(x) @ np.asarray(w1)) @ np.asarray(w2)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-3) else "mismatch")


main()
