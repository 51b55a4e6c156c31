"""A single-device test shim: local functions named vmap and shard_map that are not JAX's."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def vmap(fn, spmd_axis_name=None):
    """Loop over the leading axis in Python; spmd_axis_name is accepted and ignored."""

    def run(xs):
        return jnp.stack([fn(x) for x in xs])

    return run


def shard_map(fn, mesh=None, in_specs=None, out_specs=None):
    """Stand-in that calls fn on the whole array."""
    return fn


def body(v):
    return v * 2.0 + 1.0


def layer(x):
    return shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
