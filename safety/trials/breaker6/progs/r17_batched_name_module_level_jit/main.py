import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"))


def block(v):
    # v: one example of shape (8,): split its features over the model axis
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(v)


batched = jax.vmap(block)
step = jax.jit(batched)


def main():
    x = jax.device_put(jnp.linspace(-1, 1, 4 * 8).reshape(4, 8), NamedSharding(mesh, P("data", "model")))
    out = step(x)
    ref = np.asarray(x) * 2.0
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
