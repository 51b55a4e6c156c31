"""A plain jax.vmap over a batch placed on Explicit axis 'x', reaching a check_vma=False shard_map whose specs
name no placed axis, called eagerly: JAX does not make 'x' manual there (SPMD008). Under jax.jit it runs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x')))
    result = jax.vmap(block)(xs)
    return result, xs0 * 2.0 + 1.0
