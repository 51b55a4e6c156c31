import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def block(x):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    data = jnp.arange(8 * 8.0).reshape(8, 8)
    xs = data[:6]                      # last partial batch of an epoch
    out = jax.vmap(block, spmd_axis_name="data")(xs)
    x = np.asarray(xs)
    ref = np.concatenate([x[:, :4] - x[:, :4].mean(1, keepdims=True), x[:, 4:] - x[:, 4:].mean(1, keepdims=True)], 1)
    print("RESULT:", "match" if np.allclose(out, ref) else "mismatch")


main()
