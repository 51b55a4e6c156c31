import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
ROWS_PER_SHARD = 2


def body(b):
    y = jnp.tanh(b.reshape(ROWS_PER_SHARD, -1))
    return y.reshape(-1)


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 32).reshape(4, 32)
    out = jax.vmap(layer, spmd_axis_name="data")(x)
    ref = np.tanh(np.asarray(x))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
