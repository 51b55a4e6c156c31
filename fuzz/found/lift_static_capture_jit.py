"""fuzz seed 1080 (auto-fix:clean-but-fails, add-axis + lift-captures): the body closes over n = x.shape[-1] // mesh.shape['x'], a static int used as a dynamic_slice size; lifting it makes it a tracer and the jitted output raises TracerIntegerConversionError (issue 10 kind 4)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(x):
    n = x.shape[-1] // (mesh.shape['x'])
    def body(b):
        b = jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)
        return b * 2.0 + 1.0
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def apply(x):
    return block(x)


def ref_block(x):
    n = x.shape[-1] // (ref_mesh.shape['x'])
    def ref_body(b):
        b = jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)
        return b * 2.0 + 1.0
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'))(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = jax.jit(jax.vmap(apply, spmd_axis_name='x'))(xs)
    return result, reference
