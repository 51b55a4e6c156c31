"""Issue 22: a shard_map whose mesh is a module name bound twice (an Auto mesh when an environment variable is
set, else `jax.make_mesh`'s Explicit one), reached eagerly with `check_vma=False` by a vmap whose batch is placed
on the spmd axis. At run time the mesh is Explicit, and JAX raises `shard_map out_specs argument must refer to
an axis marked as manual` (SPMD008); on the Auto mesh the same program runs, so the finding hangs on the mesh
spmdfix cannot read: no finding, an SPMD910 record at the mesh naming it, its line, and why (never silence). Its
readable twin is golden refuse/explicit_check_vma_false_eager."""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
if os.environ.get("SPMDFIX_GOLDEN_AUTO_MESH"):
    mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False)(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', 'y')))
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    return result, xs0 * 2.0 + 1.0
