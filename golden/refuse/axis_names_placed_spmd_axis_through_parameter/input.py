"""`axis_names` computed from the mesh names the spmd axis, with the batch placed by reshard and passed through a parameter (fuzz seed 60297)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = jax.make_mesh((2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b * 2.0 + 1.0


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names=frozenset(mesh.axis_names) - {'y'})(x)


def apply(x):
    return block(x)


def ref_body(b):
    return b * 2.0 + 1.0


def ref_block(x):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def ref_apply(x):
    return ref_block(x)


def accumulate(fn, xs, spmd_axis_name='x'):
    return jax.vmap(fn, spmd_axis_name=spmd_axis_name)(xs)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    installed = jax.set_mesh(mesh)
    try:
        xs = jax.sharding.reshard(xs, P('x', None))
        result = accumulate(apply, xs)
    finally:
        installed.__exit__(None, None, None)
    return result, reference
