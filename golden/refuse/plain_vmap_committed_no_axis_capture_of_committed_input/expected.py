"""Fuzz seed 380039: a plain jax.vmap whose inputs are all committed to the Explicit mesh on no mesh axis (`xs` on
`P()`, the batched `ws` on `P(None)`); the shard_map body closes over `s = w.sum()`. JAX refuses it (`Closing
over inputs to shard_map where the input is sharded on Explicit axes`, eager and under jit; measured on jax
0.10.2: safety/measurements/plain_vmap_committed_no_axis.py): SPMD003. Nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    s = w.sum()
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    W = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(X, NamedSharding(mesh, P()))
    ws = jax.device_put(W, NamedSharding(mesh, P(None)))
    result = jax.vmap(block)(xs, ws)
    return result, (X * 2.0 + 1.0) * W[:, None]
