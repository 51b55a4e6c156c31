"""A plain `jax.vmap` (under `jax.jit`) over `xs` placed `P(None, 'x', 'y')` on an Explicit mesh, then
`xs = jnp.swapaxes(xs, 0, 1)` before the vmap (breaker13 e12).

The swap moves the `'x'`-sharded dimension first: the batch is then on `'x'`, which the plain vmap maps away,
and the shard_map's `in_specs=P('x', 'y')` names it; JAX raises `shard_map in_specs argument must refer to an
axis marked as manual` (SPMD006's error). The placement reading follows device_put/reshard assignments only,
so what the swap does to the placement is not read: an SPMD910 record at the swap; before, no finding and no
record ("All checks passed!").
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(v)


def main():
    a = np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) / 10.0
    xs = jax.device_put(a, NamedSharding(mesh, P(None, 'x', 'y')))
    xs = jnp.swapaxes(xs, 0, 1)
    return jax.jit(jax.vmap(block))(xs), np.swapaxes(a, 0, 1) * 2.0
