"""partial(kernel, w) with w an array closed over by the body; same module (runs)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)


def kernel(w, q):
    return jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(q)


def main():
    q = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    w = jnp.float32(3.0)
    return jax.vmap(partial(kernel, w), spmd_axis_name='x')(q), np.asarray(q) * 3.0
