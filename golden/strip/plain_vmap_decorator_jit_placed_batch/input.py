"""A plain `jax.vmap` applied as a decorator (with `@jax.jit` above it) over a batch placed on Explicit mesh
axis 'data', which the reached shard_map's specs name: JAX maps 'data' away and raises `shard_map in_specs
argument must refer to an axis marked as manual` (fuzz seed 23949). The calls of the decorated `apply` are the
vmap's calls; strip of 'data' (the body elementwise, check_vma=True, the one call's placement `P('data', None,
None)` without its batch entry equal to the stripped in_spec) runs and matches."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ('data', 'model'))


def body(b):
    return jnp.where(b > 1.0, b, 0.5 * b)


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('data', None), out_specs=P('data', None))(x)


@jax.jit
@jax.vmap
def apply(x):
    return block(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('data', None, None)))
    return apply(xs), np.where(xs0 > 1.0, xs0, 0.5 * xs0)
