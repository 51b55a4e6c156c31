"""the same with `batched = jax.jit(jax.vmap(block))` bound to a local name: SPMD003"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
W0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
W = jax.device_put(jnp.asarray(W0), NamedSharding(mesh, P('x')))


def block(x):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * W, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    batched = jax.jit(jax.vmap(block))
    result = batched(xs)
    return result, (xs0 * 2.0 + 1.0) * W0[None, :]
