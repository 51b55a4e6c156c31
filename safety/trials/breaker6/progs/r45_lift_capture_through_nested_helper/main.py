import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def layer(x, scale):
    def gate(v):
        return jax.nn.sigmoid(v * scale)

    def body(b):
        return b * gate(b)

    return jax.shard_map(body, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    s = jnp.array([0.5, 1.0, 1.5, 2.0])
    out = jax.vmap(layer, spmd_axis_name="data")(x, s)
    xn, sn = np.asarray(x), np.asarray(s)[:, None]
    ref = xn / (1 + np.exp(-xn * sn))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
