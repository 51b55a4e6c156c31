"""fuzz seed 130128: a capture of the batched `w` over a size-1 Explicit spmd axis with the batch placed on it, check_vma=False, under jit: JAX raises `context mesh ... should match the aval mesh` (the size-1 exemption holds only for an unplaced batch); lifted with P(), it runs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
from jax.sharding import AxisType


mesh = jax.make_mesh((8, 1), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))
ref_mesh = Mesh(np.array(jax.devices()).reshape(8, 1), ('x', 'y'))


def block(x, w):
    def body(b, w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=(P('x'), P()), out_specs=P('x'), check_vma=False)(x, w)


def apply(x, w):
    return block(x, w)


def ref_block(x, w):
    def ref_body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


def ref_apply(x, w):
    return ref_block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    ws = jnp.asarray(ws0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('y', 'x')))
    ws = jax.device_put(ws, NamedSharding(mesh, P('y')))
    reference = np.asarray(jax.vmap(ref_apply, in_axes=(0, 0))(xs0, ws0))
    result = jax.jit(jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='y'))(xs, ws)
    return result, reference
