"""One shard_map factory `sharded = functools.partial(jax.shard_map, ..., in_specs=P('x'), out_specs=P('x'))`
decorates two functions: the vmapped `double` and `centre`, which subtracts each block's own mean. Stripping
`'x'` edits the factory, so `centre` would see the whole array (safety/trials/breaker12 s30: on main the strip
was safe and `centre` returned other values)."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
sharded = functools.partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))


@sharded
def double(b):
    return b * 2.0


@sharded
def centre(b):
    return b - b.mean()


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) + 1.0
    out = jax.vmap(double, spmd_axis_name='x')(xs)
    c = centre(xs[0])
    x0 = np.asarray(xs[0])
    ref_c = np.concatenate([x0[:4] - x0[:4].mean(), x0[4:] - x0[4:].mean()])
    result = jnp.concatenate([out.ravel(), c])
    reference = np.concatenate([(np.asarray(xs) * 2.0).ravel(), ref_c])
    return result, reference

