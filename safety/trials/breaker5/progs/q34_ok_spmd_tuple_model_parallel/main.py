import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ("data", "fsdp", "model"), axis_types=(AxisType.Auto,) * 3)


@functools.partial(jax.shard_map, mesh=mesh, in_specs=(P(None, "model"), P("model", None)), out_specs=P())
def matmul_tp(x, w):
    return jax.lax.psum(x @ w, "model")


def forward(x, w):
    return jnp.tanh(matmul_tp(x, w))


def main():
    x = jnp.linspace(-1, 1, 4 * 2 * 8).reshape(4, 2, 8)
    w = jnp.linspace(-0.5, 0.5, 8 * 8).reshape(8, 8)
    out = jax.jit(jax.vmap(forward, in_axes=(0, None), spmd_axis_name=("data", "fsdp")))(x, w)
    ref = np.tanh(np.asarray(x) @ np.asarray(w))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
