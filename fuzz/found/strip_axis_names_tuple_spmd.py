"""fuzz seed 1033 (safe-fix:strip:clean-but-fails): spmd_axis_name=('x', 'y') and axis_names={'x'}; strip empties the specs but leaves axis_names without 'y', and the output raises 'must refer to an axis marked as manual' with no finding (issue 10 kind 3, axis_names)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b * 2.0 + 1.0


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def apply(x):
    return block(x)


def ref_body(b):
    return b * 2.0 + 1.0


def ref_block(x):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = jax.vmap(apply, spmd_axis_name=('x', 'y'))(xs)
    return result, reference
