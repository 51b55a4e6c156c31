import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


def block(v):
    return jax.shard_map(lambda b: jnp.sin(b), mesh=mesh, in_specs=P("x"), out_specs=P("x"))(v)


def main():
    x = jnp.arange(64.0).reshape(8, 8)
    # the batch placed over every axis of the mesh, ('x', 'y')
    result = jax.vmap(block, spmd_axis_name=mesh.axis_names)(x)
    reference = jnp.sin(x)
    return result, reference
