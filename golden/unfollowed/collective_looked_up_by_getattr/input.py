import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def body(b):
    # a collective looked up by name: a psum over 'y', the axis a rename would take
    return b + getattr(lax, 'psum')(b, 'y')


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 5.0  # the block is replicated over 'y' (4 devices): b + 4 b
    return result, reference
