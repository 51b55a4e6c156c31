"""Fuzz seed 250076 as found: a plain jax.vmap whose batch is placed on the Explicit axis 'x' (reshard under
jax.set_mesh) reaches a shard_map (in_specs=P()) whose body binds `w`, a batched value, as a parameter default,
and then reshards the result with a spec naming 'x'. The capture fails (`For primitive mul, context mesh ...`:
SPMD003) and so does the reshard (`DuplicateSpecError`: SPMD006). The strip of the reshard's entry leaves the
capture failing, so it is unsafe alone; lift-captures is not offered for a default: nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b, w=w):
        return (b * 2.0 + 1.0) * w
    y = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)
    y = jax.sharding.reshard(y, P('x'))
    return y


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('x', None))
        ws = jax.sharding.reshard(jnp.asarray(ws0), P('x'))
        result = jax.vmap(block, in_axes=(0, 0))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
