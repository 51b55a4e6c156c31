"""The shard_map body `lambda b: fn(b) * scale` calls `fn`, a parameter of the function that builds it; the
callable a partial of `wrap` is applied to (`forward`) runs `jnp.diag`, which hazard H2's measurement refuses under an spmd vmap. The
body's call of `fn` is a place the walk does not follow (an SPMD910 record), yet add-axis was SAFE: the
fixed program raised `Primitive mul requires varying manual axes to match`. A body calling what the walk
does not follow now leaves the fixes that keep the spmd vmap unproven; add-axis is unsafe, nothing applied."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def wrap(fn, scale):
    return jax.shard_map(lambda b: fn(b) * scale, mesh=mesh, in_specs=P('x'), out_specs=P('x'))


def forward(b):
    return jnp.diag(jnp.diag(b)) + 1.0


def step(v):
    return partial(wrap, scale=2.0)(forward)(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(step, spmd_axis_name='x')(xs)
    reference = (np.asarray(xs) + 1.0) * 2.0
    return result, reference
