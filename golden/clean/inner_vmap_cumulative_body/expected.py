"""An inner jax.vmap in the body under check_vma=True whose steps are cumulative ops and unary primitives: it runs.

`jnp.cumsum(r, axis=-1)` and `jax.lax.cummax(r, axis=0)` scan along one axis of their operand without a binary
primitive on the varying value (measured on jax 0.10.2), so hazard H2 does not arise and SPMD007 is not reported.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def rows(r):
    s = jnp.cumsum(jnp.sin(r), axis=-1)
    return jax.lax.cummax(s, axis=0)


def layer(x):
    return jax.shard_map(jax.vmap(rows), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8) / 10.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.maximum.accumulate(np.cumsum(np.sin(np.asarray(xs)), axis=-1), axis=-1)
    return result, reference
