import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b + lax.psum(b, 'y'), mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)


@jax.custom_vjp
def apply(a):
    return jax.vmap(block)(a)


apply.defvjp(lambda a: (apply(a), None), lambda _, g: (g,))


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return apply(xs)
