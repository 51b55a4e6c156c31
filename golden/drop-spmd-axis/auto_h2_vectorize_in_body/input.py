import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def body(b):
    # jnp.vectorize maps its function with a vmap of its own: an inner vmap under check_vma=True (hazard H2)
    return jnp.vectorize(lambda t: t * 2.0)(b)


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
