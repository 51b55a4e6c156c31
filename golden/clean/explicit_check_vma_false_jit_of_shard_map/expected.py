"""fuzz seed 130059: check_vma=False on a shard_map applied as jax.jit(shard_map(...)), reached eagerly by an spmd vmap whose batch is placed on the Explicit spmd axis: the jit around the shard_map stages it, and it runs."""
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
    return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False))(x)


def apply(x):
    return block(x)


def ref_body(b):
    return b * 2.0 + 1.0


def ref_block(x):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('y', 'x')))
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = jax.vmap(apply, spmd_axis_name='y')(xs)
    return result, reference
