import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def stack(x, scales):
    h = x
    for i in range(scales.shape[0]):
        s = scales[i]
        h = jax.shard_map(lambda b: jnp.tanh(b * s), mesh=mesh, in_specs=P("model"), out_specs=P("model"))(h)
    return h


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    scales = jnp.linspace(0.5, 1.5, 4 * 3).reshape(4, 3)     # per-example layer scales
    out = jax.vmap(stack, spmd_axis_name="data")(x, scales)
    h = np.asarray(x)
    sn = np.asarray(scales)
    for i in range(3):
        h = np.tanh(h * sn[:, i:i + 1])
    print("RESULT:", "match" if np.allclose(out, h, atol=1e-5) else "mismatch")


main()
