"""Fuzz seed 29's form: a plain jax.vmap over an input placed on the Explicit mesh at its example dimension only
(`P(None, 'x')`), with the batched `ws` placed `P(None)` (committed, no mesh axis at its batch dimension); the
shard_map body (in_specs=P('x')) closes over `w`. JAX refuses it (`Closing over inputs to shard_map where the
input is sharded on Explicit axes`, eager and under jit; unplaced it runs:
safety/measurements/plain_vmap_placed_spellings.py, part 7): SPMD003. Lifting `w` is not measured here:
nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    result = jax.jit(jax.vmap(block))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
