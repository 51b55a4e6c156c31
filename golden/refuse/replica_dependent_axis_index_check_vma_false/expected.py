"""fuzz seed 210526: a check_vma=False body adding `axis_index('y')`, which out_specs P('x') do not name, then a jit resharding the output on 'y': add-axis and drop-spmd-axis ran with other values than the plain-vmap reference, so no layout-changing fix is safe."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
ref_mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b + jax.lax.axis_index('y')


def block(x):
    y = jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)
    y = jax.jit(lambda t: t + 0.0, out_shardings=NamedSharding(mesh, P('y')))(y)
    return y


def apply(x):
    return block(x)


def ref_body(b):
    return b + jax.lax.axis_index('y')


def ref_block(x):
    return jax.shard_map(ref_body, mesh=ref_mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(x)


def ref_apply(x):
    return ref_block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    reference = np.asarray(jax.vmap(ref_apply)(xs0))
    result = jax.vmap(apply, spmd_axis_name='x')(xs)
    return result, reference
