"""A shard_map body closing over `m = x.mean() + 2.0` under `P()` specs on an Explicit `(2, 4)` mesh whose axes
are both spmd axes (`spmd_axis_name=('x', 'y')`), the batch placed on them, the shard_map reached through
`jax.lax.map(block, x, batch_size=None)` (fuzz seed 100917): the loop traces the body as a jit does, and the
capture runs and matches (not SPMD003): safety/measurements/capture_mesh_of_spmd_axes_staged.py."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
from jax.sharding import AxisType


mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(x):
    m = x.mean() + 2.0
    def body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


@functools.partial(jax.vmap, spmd_axis_name=('x', 'y'))
def apply(x):
    return jax.lax.map(block, x, batch_size=None)


def ref_block(x):
    m = x.mean() + 2.0
    def ref_body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P(), out_specs=P())(x)


def ref_apply(x):
    return jax.vmap(ref_block, in_axes=0)(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jnp.asarray(xs0)
    xs = jax.device_put(xs, NamedSharding(mesh, P(('x', 'y'), None, None)))
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = apply(xs)
    return result, reference
