"""breaker5's q13 and q40: the meshes' `axis_types` written through a module constant (`AXIS_TYPES`) and as
`(AxisType.Auto,) * len(MESH_AXES)`: both Auto meshes were read as of unknown axis types, which made every fix
unsafe ("the mesh has Explicit (or unknown) axis types"). Read now, rename to the free axis is proven."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

AXIS_TYPES = (AxisType.Auto, AxisType.Auto)
MESH_AXES = ("replica", "model")
train_mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=AXIS_TYPES)
eval_mesh = jax.make_mesh((4, 2), MESH_AXES, axis_types=(AxisType.Auto,) * len(MESH_AXES))


def block(x):
    return jax.shard_map(lambda b: jnp.tanh(b) * 2.0, mesh=train_mesh, in_specs=P("data"), out_specs=P("data"))(x)


def evaluate(x):
    return jax.shard_map(lambda b: jnp.tanh(b), mesh=eval_mesh, in_specs=P("replica"), out_specs=P("replica"))(x)


def main():
    x = np.linspace(-1, 1, 4 * 8, dtype=np.float32).reshape(4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x)
    ev = jax.vmap(evaluate, spmd_axis_name="replica")(x)
    return (out, ev), (np.tanh(x) * 2.0, np.tanh(x))
