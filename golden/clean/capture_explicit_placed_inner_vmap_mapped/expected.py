"""As capture_explicit_placed_inner_vmap, with the inner vmap mapping `w` too: its slices come from `ws`, placed on its batch dimension only."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
from jax.sharding import AxisType


mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def apply(x, w):
    return jax.vmap(block, in_axes=(0, 0))(x, w)


def ref_block(x, w):
    def ref_body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'))(x)


def ref_apply(x, w):
    return jax.vmap(ref_block, in_axes=(0, 0))(x, w)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jnp.asarray(xs0)
    ws0 = np.linspace(0.5, 2.0, 64, dtype=np.float32).reshape(8, 8)
    ws = jnp.asarray(ws0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('y', None, 'x')))
    ws = jax.device_put(ws, NamedSharding(mesh, P('y')))
    reference = np.asarray(jax.vmap(ref_apply, in_axes=(0, 0))(xs0, ws0))
    result = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='y')(xs, ws)
    return result, reference
