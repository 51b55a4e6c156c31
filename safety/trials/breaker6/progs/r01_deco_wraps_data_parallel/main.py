import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def data_parallel(fn):
    """Run fn on row blocks of its input (the team's helper)."""
    @functools.wraps(fn)
    def wrapped(x):
        return jax.shard_map(fn, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    return wrapped


@data_parallel
def gelu_rows(x):
    return jax.nn.gelu(x, approximate=True)


def main():
    x = jnp.linspace(-2, 2, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(gelu_rows, spmd_axis_name="data"))(x)
    ref = jax.nn.gelu(np.asarray(x), approximate=True)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
