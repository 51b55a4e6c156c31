import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def stack(x, shift):
    fns = [lambda b, k=k: jnp.tanh(b + k * shift) for k in range(2)]
    h = x
    for f in fns:
        h = jax.shard_map(f, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(h)
    return h


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    shift = jnp.array([0.1, 0.2, 0.3, 0.4])
    out = jax.vmap(stack, spmd_axis_name="data")(x, shift)
    h = np.asarray(x)
    s = np.asarray(shift)[:, None]
    for k in range(2):
        h = np.tanh(h + k * s)
    print("RESULT:", "match" if np.allclose(out, h, atol=1e-5) else "mismatch")


main()
