"""Issue 22: a partial-manual shard_map whose `axis_names` is a module constant bound twice (a second value
when an environment variable is set), so spmdfix cannot tell which set reaches the shard_map. At run time it is
{'y'}, which leaves out the vmap's spmd axis 'x', and JAX raises `shard_map in_specs argument must refer to an
axis marked as manual` (SPMD008); spmdfix gives no finding but an SPMD910 record at `axis_names` naming it, its
line, and why (never silence). Its readable twin is golden add-axis/axis_names_missing_spmd_axis."""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))

MANUAL = {'y'}
if os.environ.get("SPMDFIX_GOLDEN_FULLY_MANUAL"):
    MANUAL = {'x', 'y'}


def layer(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), axis_names=MANUAL)(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
