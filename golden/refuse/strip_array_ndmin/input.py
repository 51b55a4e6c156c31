"""`jnp.array(b, ndmin=2)` gives each block a leading dimension of 1, which out_specs `P('x')` then tiles: the
result is (2, 4) per example; stripped, the body returns (1, 8) (safety/trials/breaker12 s03; on main the strip
was safe: `jnp.array` was read as elementwise whatever its keywords)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: jnp.array(b, ndmin=2), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    reference = np.asarray(xs).reshape(4, 2, 4)
    return result, reference
