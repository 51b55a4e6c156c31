import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def tensor_parallel(axis="model"):
    def deco(fn):
        @functools.wraps(fn)
        def inner(x, w):
            return jax.shard_map(fn, mesh=mesh, in_specs=(P(None, axis), P(axis, None)), out_specs=P())(x, w)
        return inner
    return deco


@tensor_parallel()
def row_matmul(x, w):
    return jax.lax.psum(x @ w, "model")


def main():
    x = jnp.linspace(-1, 1, 4 * 2 * 8).reshape(4, 2, 8)
    w = jnp.linspace(0, 1, 8 * 3).reshape(8, 3)
    out = jax.vmap(row_matmul, in_axes=(0, None), spmd_axis_name="data")(x, w)
    ref = np.asarray(x) @ np.asarray(w)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-4) else "mismatch")


main()
