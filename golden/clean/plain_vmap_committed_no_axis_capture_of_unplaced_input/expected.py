"""A plain jax.vmap whose batch input is committed to the Explicit mesh on no mesh axis (`P(None, None)`) and whose
batched `ws` is a numpy array: the shard_map body closing over `s = w.sum()` runs and matches, eager and under
jit (measured on jax 0.10.2: safety/measurements/plain_vmap_committed_no_axis.py), so no SPMD003."""
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
    xs = jax.device_put(X, NamedSharding(mesh, P(None, None)))
    ws = W
    result = jax.vmap(block)(xs, ws)
    return result, (X * 2.0 + 1.0) * W[:, None]
