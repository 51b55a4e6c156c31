"""partial(kernel, cfg=cfg) and the body closes over the batched q-derived value (JAX raises?)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)


def kernel(q, scale):
    s = q.sum() * scale
    return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(q)


def main():
    q = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    out = jax.vmap(partial(kernel, scale=1.0), spmd_axis_name='x')(q)
    qn = np.asarray(q)
    return out, qn * qn.sum(axis=1, keepdims=True)
