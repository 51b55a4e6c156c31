import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
N_LAYERS = 3


def stack(x, w):
    h = x
    for i in range(N_LAYERS):
        def body(b, i=i):
            return jnp.tanh(b * w[i] + i)
        h = jax.shard_map(body, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(h)
    return h


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    w = jnp.linspace(0.5, 1.5, 4 * N_LAYERS).reshape(4, N_LAYERS)
    out = jax.vmap(stack, spmd_axis_name="data")(x, w)
    h, wn = np.asarray(x), np.asarray(w)
    for i in range(N_LAYERS):
        h = np.tanh(h * wn[:, i:i + 1] + i)
    print("RESULT:", "match" if np.allclose(out, h, atol=1e-5) else "mismatch")


main()
