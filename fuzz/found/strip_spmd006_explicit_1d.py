"""fuzz seed 17 (safe-fix:strip:clean-but-fails, auto too): 1-D Explicit mesh make_mesh((2,), ('x',)), batch placed P('x', None), plain vmap, specs P('x'): the stripped output raises 'in_specs ... does not match the specs of the input' with no finding (issue 10 kind 3)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
from jax.sharding import AxisType


mesh = jax.make_mesh((2,), ('x',), axis_types=(AxisType.Explicit,))
ref_mesh = Mesh(np.array(jax.devices()[:2]).reshape(2), ('x',))


def body(b):
    return b * 2.0 + 1.0


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def apply(x):
    return block(x)


def ref_body(b):
    return b * 2.0 + 1.0


def ref_block(x):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'))(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('x', None)))
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = jax.vmap(apply)(xs)
    return result, reference
