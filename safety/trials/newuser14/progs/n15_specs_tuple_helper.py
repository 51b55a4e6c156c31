"""Specs built by a helper from a tuple of logical names and a rules dict (collision through the rules)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)
RULES = {'batch': 'data', 'embed': None}


def logical(*names):
    return P(*(RULES[n] for n in names))


def layer(x):
    spec = logical('batch', 'embed')
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=spec, out_specs=spec)(x)


def main():
    xs = jnp.arange(2 * 4 * 8, dtype=jnp.float32).reshape(2, 4, 8)
    return jax.vmap(layer, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
