"""Issue 22: `check_vma` computed from an environment variable (a comparison spmdfix does not evaluate) on a
shard_map reached eagerly by a vmap whose batch is placed on the Explicit spmd axis. At run time it is False,
and JAX raises `shard_map out_specs argument must refer to an axis marked as manual` (SPMD008); with
`check_vma=True` the same program runs, so the finding hangs on the value spmdfix cannot read: no finding, an
SPMD910 record at `check_vma` naming it, its line, and why (never silence). Its readable twin is golden
refuse/explicit_check_vma_false_eager."""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
CHECK = os.environ.get("SPMDFIX_GOLDEN_CHECK_VMA", "0") == "1"


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=CHECK)(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', 'y')))
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    return result, xs0 * 2.0 + 1.0
