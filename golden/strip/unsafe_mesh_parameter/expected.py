"""The mesh reaches the shard_map as a parameter; its one caller passes a mesh built by a function."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


def build_mesh():
    return Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return v * v + 1.0


def layer(x, mesh):
    return jax.shard_map(body, mesh=mesh, in_specs=P(None), out_specs=P(None))(x)


def main():
    mesh = build_mesh()
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(lambda x: layer(x, mesh), spmd_axis_name='x')(xs)
    reference = np.asarray(xs) ** 2 + 1.0
    return result, reference
