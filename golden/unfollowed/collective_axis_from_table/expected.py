"""Issue 22: a collective in a shard_map body whose axis is looked up in a table by a key from an environment
variable (a subscript spmdfix cannot read). At run time it is 'x', the vmap's spmd axis, and with
`check_vma=True` JAX raises a `pvary` error (SPMD004); spmdfix gives no finding but an SPMD910 record at the
collective's axis naming it, its line, and why (never silence). Its readable twin is golden
add-axis/fam_collective_pmean_pvary."""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
REDUCE_AXES = {'data': 'x', 'model': 'y'}


def smooth(v):
    axis = REDUCE_AXES[os.environ.get("SPMDFIX_GOLDEN_REDUCE", "data")]
    return 0.5 * v + 0.5 * jax.lax.pmean(v, axis)


def layer(x):
    return jax.shard_map(smooth, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs)  # the block is replicated over 'x', so its mean over 'x' is itself
    return result, reference
