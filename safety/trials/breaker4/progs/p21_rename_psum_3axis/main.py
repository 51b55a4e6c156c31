import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("data", "fsdp", "model"))


def global_norm(x):
    def body(b):
        return b / jnp.sqrt(jax.lax.psum((b ** 2).sum(), "data"))
    return jax.shard_map(body, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    xs = jnp.arange(1.0, 33.0).reshape(4, 8)
    out = jax.jit(jax.vmap(global_norm, spmd_axis_name="data"))(xs)
    x = np.asarray(xs)
    ref = x / np.sqrt((x ** 2).sum(axis=1, keepdims=True))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
