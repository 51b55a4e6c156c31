import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


class Layer:
    def __call__(self, b):
        # a lax.cond on the block: under any spmd vmap with check_vma=True it raises `pvary` (hazard H2)
        return lax.cond(b.sum() > 1.0, lambda t: t * 2.0, lambda t: t - 1.0, b)


def block(v):
    return jax.shard_map(Layer(), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8) / 10.0
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    a = np.asarray(xs).reshape(8, 2, 4)
    reference = np.where(a.sum(-1, keepdims=True) > 1.0, a * 2.0, a - 1.0).reshape(8, 8)
    return result, reference
