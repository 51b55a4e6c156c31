"""A plain jax.vmap (`batched`, a decorated def) over a batch placed on Explicit 'x', reaching a `@jax.jit` block
whose shard_map body (in_specs=P()) closes over the batched `w`: JAX fails on the call below (`For primitive mul,
context mesh ... should match the aval mesh`; fuzz seed 240052's form). Another module of the project imports
`batched` (pkg/serve.py), so its calls are not all followed: the staged capture was dropped (its batch not proven
placed by every call) and nothing was reported. The call followed fails whatever the other module passes:
SPMD003. lift-captures is unsafe (w is placed beyond its batch dimension: `P('x', 'y')`): nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def block(x, w):
    return jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P(), out_specs=P())(x)


@jax.vmap
def batched(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 64, dtype=np.float32).reshape(8, 8)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('x', 'y')))
    result = batched(xs, ws)
    return result, xs0 * ws0
