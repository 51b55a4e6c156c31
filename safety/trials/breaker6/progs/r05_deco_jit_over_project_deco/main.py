import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

AXES = ("data", "model")
mesh = jax.make_mesh((2, 4), AXES, axis_types=(AxisType.Auto,) * len(AXES))


def per_row_block(fn):
    return jax.shard_map(fn, mesh=mesh, in_specs=P("data", None), out_specs=P("data", None))


@jax.jit
@per_row_block
def normalize(x):
    return x - x.mean(axis=-1, keepdims=True)


def main():
    x = jnp.arange(4 * 2 * 8, dtype=jnp.float32).reshape(4, 2, 8) ** 1.5
    out = jax.vmap(normalize, spmd_axis_name="data")(x)
    xn = np.asarray(x)
    ref = xn - xn.mean(axis=-1, keepdims=True)
    print("RESULT:", "match" if np.allclose(out, ref, rtol=1e-4, atol=1e-3) else "mismatch")


main()
