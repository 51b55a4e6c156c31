"""A mixed mesh: 'x' Auto, 'y' Explicit. Under spmd_axis_name='y' with the batch placed on 'y' (only the batch
dimension: 'x' is Auto, so the block need not be placed as the specs say), a body closing over `s`, derived
from the batched `w`, runs and matches under jax.jit (no SPMD003): the axis type that decides is the spmd
axis's own."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Explicit))


def block(x, w):
    s = jnp.exp(w)
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('y', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('y')))
    result = jax.jit(jax.vmap(block, in_axes=(0, 0), spmd_axis_name='y'))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * np.exp(ws0)[:, None]
