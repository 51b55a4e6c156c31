"""Batched feature layer.

Earlier versions split the features with ``in_specs=P('x')`` while calling
``jax.vmap(layer, spmd_axis_name='x')``, which JAX rejects with
"vmap spmd_axis_name cannot appear in shard_map in_specs". Now the features
are split over 'y' only.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    """Elementwise; would be fine under P('x') too."""
    return jnp.exp(-v * v)


def layer(x):
    # Do not use P('x') here: 'x' carries the batch (spmd_axis_name='x').
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)  # not P('x')


def main():
    xs = jnp.linspace(-1.0, 1.0, 4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)  # spmd_axis_name='x' vs in_specs=P('x') is the bug
    reference = np.exp(-np.asarray(xs) ** 2)
    return result, reference
