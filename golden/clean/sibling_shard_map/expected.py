"""The shard_map is called next to the vmap, on its output, not from the vmapped function."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def prep(v):
    return v + 1.0


def body(v):
    return jnp.maximum(v, 3.0)


def pipeline(xs):
    ys = jax.vmap(prep, spmd_axis_name='x')(xs)
    return jax.shard_map(body, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(ys)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = pipeline(xs)
    reference = np.maximum(np.asarray(xs) + 1.0, 3.0)
    return result, reference
