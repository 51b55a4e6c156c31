"""fuzz (clean:SPMD004, false positive): mesh (8, 1), spmd_axis_name='y' of size 1, body psum over 'y', check_vma=False: runs and matches, SPMD004 is reported (issue 10, false positives: collective over a size-1 spmd axis)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(8, 1), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(8, 1), ('x', 'y'))


def body(b):
    return b + jax.lax.psum(b, 'y')


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


def apply(x):
    return block(x)


def ref_body(b):
    return b + jax.lax.psum(b, 'y')


def ref_block(x):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = jax.vmap(apply, spmd_axis_name='y')(xs)
    return result, reference
