import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def sharded(fn):
    return jax.shard_map(fn, mesh=MESH, in_specs=P('x'), out_specs=P('x'))


@sharded
def block(b):
    w = jnp.ones_like(b)
    return lax.cond(b.sum() > 1.0, lambda u, v: u * 2.0 + v, lambda u, v: u - v, b, w)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8) / 10.0
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    a = np.asarray(xs).reshape(8, 2, 4)
    reference = np.where(a.sum(-1, keepdims=True) > 1.0, a * 2.0 + 1.0, a - 1.0).reshape(8, 8)
    return result, reference
