import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def layer(x, gain):
    def body(b, eps):
        return b * gain / (1.0 + eps)
    return jax.shard_map(functools.partial(body, eps=1e-3), mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    g = jnp.array([1.0, 2.0, 3.0, 4.0])
    out = jax.vmap(layer, spmd_axis_name="data")(x, g)
    ref = np.asarray(x) * np.asarray(g)[:, None] / (1.0 + 1e-3)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
