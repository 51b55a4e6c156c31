"""golden refuse/inner_vmap_maps_away_placed_spec_axis with the vmapped function a method of an instance built in
the vmap's argument (`jax.vmap(Model().apply, in_axes=(0, None), ...)`): `in_axes` and the call's arguments line
up with the method's parameters after `self`, so the inner vmap is seen to map the placed dimension away
(SPMD006 at both spec entries, no fix). Before, the call walk did not follow `Model().apply` at all: silence.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(r):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(r)


class Model:
    def apply(self, x, w):
        return jax.vmap(block, in_axes=0)(x) * w


def main():
    xs0 = np.arange(8 * 8 * 8, dtype=np.float32).reshape(8, 8, 8) / 64.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x', None)))
    result = jax.jit(jax.vmap(Model().apply, in_axes=(0, None), spmd_axis_name='y'))(xs, 2.0)
    reference = (xs0 * 2.0 + 1.0) * 2.0
    return result, reference
