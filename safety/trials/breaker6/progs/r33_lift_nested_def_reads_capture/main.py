import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def layer(x, temperature):
    def body(b):
        def act(v):
            return jax.nn.sigmoid(v / temperature)
        return b * act(b)
    return jax.shard_map(body, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    t = jnp.array([0.5, 1.0, 2.0, 4.0])
    out = jax.vmap(layer, spmd_axis_name="data")(x, t)
    xn = np.asarray(x)
    ref = xn / (1 + np.exp(-xn / np.asarray(t)[:, None]))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
