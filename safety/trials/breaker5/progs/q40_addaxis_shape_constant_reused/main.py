import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

MESH_SHAPE = (2, 4)
MESH_AXES = ("data", "model")
mesh = jax.make_mesh(MESH_SHAPE, MESH_AXES, axis_types=(AxisType.Auto,) * len(MESH_AXES))
GRAD_ACCUM = MESH_SHAPE[0]  # one microbatch per data replica


def block(x):
    y = jax.shard_map(jnp.tanh, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    return y / GRAD_ACCUM


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x)
    ref = np.tanh(np.asarray(x)) / 2
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
