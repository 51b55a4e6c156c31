import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("data", "fsdp", "model"))


def fsdp_reduced(fn):
    """Apply fn per (data, fsdp) block and sum the partial results over fsdp (replicated rows)."""
    def body(b):
        return jax.lax.psum(fn(b), "fsdp") / 2.0
    return jax.shard_map(body, mesh=mesh, in_specs=P("data"), out_specs=P("data"))


@fsdp_reduced
def proj(b):
    return jnp.sin(b) * 3.0


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(proj, spmd_axis_name="data"))(x)
    ref = np.sin(np.asarray(x)) * 3.0
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
