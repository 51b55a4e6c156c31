import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def row_sharded(fn):
    """Keep fn's name and docstring on the shard_mapped function (shows up in profiles)."""
    return functools.wraps(fn)(jax.shard_map(fn, mesh=mesh, in_specs=P("data"), out_specs=P("data")))


@row_sharded
def softsign(x):
    return x / (1.0 + jnp.abs(x))


def main():
    x = jnp.linspace(-3, 3, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(softsign, spmd_axis_name="data"))(x)
    xn = np.asarray(x)
    ref = xn / (1 + np.abs(xn))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
