import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def mean_pool(b):
    # rows of this block, averaged: divide by the block's row count
    n = b.shape[0]
    return jnp.broadcast_to(b.sum(0, keepdims=True) / n, b.shape)


def layer(x):
    return jax.shard_map(mean_pool, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 4 * 8).reshape(4, 4, 8)
    out = jax.vmap(layer, spmd_axis_name="data")(x)
    xn = np.asarray(x).reshape(4, 2, 2, 8)
    ref = np.broadcast_to(xn.mean(2, keepdims=True), xn.shape).reshape(4, 4, 8)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
