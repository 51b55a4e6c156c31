"""Fuzz seed 250076's shrunk form: a plain jax.vmap whose batch is placed on the Explicit axis 'x'
(jax.device_put) reaches a shard_map (in_specs=P()) whose body binds `w`, a batched value, as a parameter
default: JAX fails as for a closure (`For primitive mul, context mesh ...`), so SPMD003 is reported;
lift-captures cannot add a parameter after a default, so nothing is applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b, w=w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('x')))
    result = jax.vmap(block, in_axes=(0, 0))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
