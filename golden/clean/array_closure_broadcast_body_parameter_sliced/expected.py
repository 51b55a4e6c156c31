import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)


def block(x):
    n = x.shape[-1] // (1)
    def body(b):
        b = jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)
        return b * W
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def apply(x):
    return block(x)


def ref_block(x):
    n = x.shape[-1] // (1)
    def ref_body(b):
        b = jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)
        return b * W
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P(), out_specs=P())(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = jax.vmap(apply, spmd_axis_name='x')(xs)
    return result, reference
