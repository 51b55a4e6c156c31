"""A mixed mesh: 'x' Explicit, 'y' Auto. Under spmd_axis_name='y' the batch placed on 'y' does not help: the
spmd axis is Auto, and a body closing over the batched `w` fails (`Closing over inputs to shard_map`), so
SPMD003 is reported and `w` is lifted into an operand."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Auto))


def block(x, w):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('y', 'x')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('y')))
    result = jax.vmap(block, in_axes=(0, 0), spmd_axis_name='y')(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
