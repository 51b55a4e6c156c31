"""The Explicit-placed-batch case of SPMD003 (golden clean/capture_explicit_batch_placed_through_helper) with
the shard_map in a method of a local instance (`jax.vmap(blk.apply, ...)`, then `self.block(x, w)`): the
captured `w` comes from the vmap's second argument (the method's third parameter, after `self`), placed on the
batch dimension only (`P('y')`), so it runs and matches with check_vma on (no SPMD003)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
from jax.sharding import AxisType


mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Block:
    def block(self, x, w):
        def body(b):
            return (b * 2.0 + 1.0) * w
        return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)

    def apply(self, x, w):
        return self.block(x, w)


def ref_block(x, w):
    def ref_body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    ws = jnp.asarray(ws0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('y', 'x')))
    ws = jax.device_put(ws, NamedSharding(mesh, P('y')))
    reference = np.asarray(jax.vmap(ref_block, in_axes=(0, 0))(xs0, ws0))
    blk = Block()
    result = jax.vmap(blk.apply, in_axes=(0, 0), spmd_axis_name='y')(xs, ws)
    return result, reference
