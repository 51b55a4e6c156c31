import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
JIT_Y = functools.partial(jax.jit, out_shardings=NamedSharding(mesh, P('y')))


@JIT_Y
def prep(t):
    return t * 1.0


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(prep(v))


def scaled(v):
    return JIT_Y(lambda t: t * 3.0)(v)


def main():
    x = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    result = jax.vmap(lambda v: block(v) + scaled(v), spmd_axis_name='x')(x)
    reference = np.asarray(x) * 5.0
    return result, reference
