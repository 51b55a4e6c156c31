"""A plain outer `jax.vmap` over an input placed `P('x', 'y', None)` on an Explicit mesh; an inner vmap maps the `'y'` dimension away before a shard_map naming `'y'` (fuzz seed 50248)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
from jax.sharding import AxisType


mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b * 2.0 + 1.0


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def apply(x):
    return jax.vmap(block, in_axes=0)(x)


def ref_body(b):
    return b * 2.0 + 1.0


def ref_block(x):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('y'), out_specs=P('y'))(x)


def ref_apply(x):
    return jax.vmap(ref_block, in_axes=0)(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jnp.asarray(xs0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('x', 'y', None)))
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = jax.vmap(apply)(xs)
    return result, reference
