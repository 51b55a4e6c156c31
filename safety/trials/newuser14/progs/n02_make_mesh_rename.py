"""pmap-style migration: vmap over 'data', shard_map over 'data' on a make_mesh mesh (collision)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto, AxisType.Auto))


def per_example(x):
    f = jax.shard_map(lambda b: jnp.sin(b), mesh=mesh, in_specs=P('data'), out_specs=P('data'))
    return f(x)


def main():
    xs = jnp.linspace(0, 1, 16, dtype=jnp.float32).reshape(2, 8)
    return jax.vmap(per_example, spmd_axis_name='data')(xs), np.sin(np.asarray(xs))
