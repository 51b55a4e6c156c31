import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    # the specs name the mesh's last axis, 'y', read from the mesh
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P(mesh.axis_names[-1]), out_specs=P(mesh.axis_names[-1]))(v)


def main():
    x = jnp.arange(64.0).reshape(8, 8)
    result = jax.vmap(block, spmd_axis_name="x")(x)
    reference = x + 1.0
    return result, reference
