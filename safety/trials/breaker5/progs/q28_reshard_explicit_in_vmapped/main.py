import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, NamedSharding

mesh = jax.make_mesh((2, 4), ("data", "model"))  # Explicit axes by default


def block(x):
    h = jnp.tanh(x)
    return jax.sharding.reshard(h, P("data"))


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    with jax.set_mesh(mesh):
        xs = jax.device_put(x, NamedSharding(mesh, P("data")))
        out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(xs)
    ref = np.tanh(np.asarray(x))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
