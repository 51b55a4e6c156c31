"""check_vma=False on a shard_map reached from a vmap with spmd_axis_name whose batch is placed on the Explicit
spmd axis, traced under jax.jit (around the vmap, or inside the vmapped function): it runs, no finding."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False)(x)


def inner(x):
    return jax.shard_map(lambda b: b - 1.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)


def apply(x):
    return jax.jit(inner)(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', 'y')))
    ys = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x')))
    a = jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
    b = jax.vmap(apply, spmd_axis_name='x')(ys)
    result = np.concatenate([np.asarray(a), np.asarray(b)])
    return result, np.concatenate([xs0 * 2.0 + 1.0, xs0 - 1.0])
