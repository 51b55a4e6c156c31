"""An unbatched array W (rank 1) closed over by all-replicated bodies (check_vma on) under spmd_axis_name='x',
whose operands are pytree literals: a tuple `(x, w)` read as `t[0]` and `t[-1]`, and a nested `{'a': [x, w]}`
read as `d['a'][0]`. The leaf `x` is one example of `xs`, of rank 2: W broadcasts to a higher rank, which runs
and matches under jit (no SPMD003; safety/measurements/capture_array_broadcast_pytree.py)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)


def apply(x, w):
    u = jax.shard_map(lambda t: W + t[0] * t[-1], mesh=mesh, in_specs=((P(), P()),), out_specs=P())((x, w))
    v = jax.shard_map(
        lambda d: d['a'][0] * W - W, mesh=mesh, in_specs=({'a': [P(), P()]},), out_specs=P()
    )({'a': [x, w]})
    return u + v


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    result = jax.jit(jax.vmap(apply, spmd_axis_name='x'))(jnp.asarray(xs0), jnp.asarray(ws0))
    w = np.asarray(W)
    return result, (w + xs0 * ws0[:, None, None]) + (xs0 * w - w)
