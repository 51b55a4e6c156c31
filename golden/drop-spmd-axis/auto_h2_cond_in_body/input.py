import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def body(b):
    # a lax.cond on a predicate of the block, over binary branches: under an spmd vmap with check_vma=True its
    # batching raises `pvary is a invariant->variant collective` whatever the specs (hazard H2, measured)
    return jax.lax.cond(b.sum() > 0, lambda t: t * 2.0, lambda t: t - 1.0, b)


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8) - 20.0
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    a = np.asarray(xs).reshape(8, 2, 4)  # each example's row in its two 'x' blocks
    reference = np.where(a.sum(-1, keepdims=True) > 0, a * 2.0, a - 1.0).reshape(8, 8)
    return result, reference
