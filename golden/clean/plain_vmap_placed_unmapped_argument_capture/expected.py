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
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def apply(x, w):
    return block(x, w)


def ref_block(x, w):
    def ref_body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P(), out_specs=P())(x)


def ref_apply(x, w):
    return ref_block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    ws0 = np.float32(1.5)
    ws = jnp.asarray(ws0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('x', None)))
    reference = np.asarray(jax.vmap(ref_apply, in_axes=(0, None))(xs0, ws0))
    result = jax.vmap(apply, in_axes=(0, None))(xs, ws)
    return result, reference
