"""fuzz seed 230018: a capture over the size-1 spmd axis `y` of a mesh of Auto axes, check_vma=False, the batch placed `P('x', 'y')`, under jit: runs and matches (the size-1 exemption holds on an Auto mesh, placed or not)."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(8, 1), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(8, 1), ('x', 'y'))


def block(x):
    m = x.mean() + 2.0
    def body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


@jax.jit
@functools.partial(jax.vmap, spmd_axis_name='y')
def apply(x):
    return block(x)


def ref_block(x):
    m = x.mean() + 2.0
    def ref_body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('x', 'y')))
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = apply(xs)
    return result, reference
