import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MESH_AXES = ("data", "model")
mesh = jax.make_mesh((2, 4), MESH_AXES, axis_types=(AxisType.Auto,) * 2)
# weights are sharded over every mesh axis, flattened into one dimension
W_SHARDING = NamedSharding(mesh, P(MESH_AXES))


def block(x, w):
    y = jax.shard_map(jnp.tanh, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    return y * w


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    w = jax.device_put(jnp.linspace(0.5, 1.5, 8), W_SHARDING)
    out = jax.jit(jax.vmap(block, in_axes=(0, None), spmd_axis_name="data"))(x, w)
    ref = np.tanh(np.asarray(x)) * np.asarray(w)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
