import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
ACT = NamedSharding(mesh, P("data", "model"))


def mlp(x, w):
    h = jnp.tanh(x @ w)
    h = jax.lax.with_sharding_constraint(h, ACT)
    return h.sum(-1)


def main():
    x = jnp.linspace(-1, 1, 4 * 2 * 8).reshape(4, 2, 8)
    w = jnp.linspace(0, 1, 8 * 8).reshape(8, 8)
    out = jax.jit(jax.vmap(mlp, in_axes=(0, None), spmd_axis_name="data"))(x, w)
    ref = np.tanh(np.asarray(x) @ np.asarray(w)).sum(-1)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-4) else "mismatch")


main()
