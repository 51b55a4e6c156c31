import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def body(b):
    # add a per-column-block offset: block index along the model axis times the block width
    col0 = jax.lax.axis_index("model") * b.shape[-1]
    return b * jax.lax.axis_size("data") + col0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P("data", "model"), out_specs=P("data", "model"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 2 * 8).reshape(4, 2, 8)
    out = jax.jit(jax.vmap(layer, spmd_axis_name="data"))(x)
    ref = np.asarray(x) * 2 + (np.arange(8) // 2 * 2)[None, None, :]
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
