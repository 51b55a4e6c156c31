import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def feature_parallel(fn):
    sm = jax.shard_map(fn, mesh=mesh, in_specs=(P("model"), P("model")), out_specs=P())
    return functools.update_wrapper(sm, fn)


@feature_parallel
def dot(x, w):
    return jax.lax.psum(jnp.sum(x * w), "model")


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    w = jnp.linspace(0, 1, 8)
    out = jax.vmap(dot, in_axes=(0, None), spmd_axis_name="data")(x, w)
    ref = np.asarray(x) @ np.asarray(w)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
