import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def layer(x, gain):
    def body(b, *, eps=1e-6):
        return b * gain / (jnp.abs(b).max() + eps)
    return jax.shard_map(body, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    g = jnp.array([1.0, 2.0, 3.0, 4.0])
    out = jax.vmap(layer, spmd_axis_name="data")(x, g)
    xn = np.asarray(x).reshape(4, 4, 2)
    ref = (xn * np.asarray(g)[:, None, None] / (np.abs(xn).max(-1, keepdims=True) + 1e-6)).reshape(4, 8)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
