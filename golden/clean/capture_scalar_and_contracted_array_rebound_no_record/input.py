"""The names an all-replicated shard_map body closes over under an spmd vmap that are bound more than once, or to
a call, but hold no array whose rank matters: `S` (a float bound twice, under a flag), `F = np.float32(1.5)` and
`Q = jnp.asarray(2.0)` (scalars of a number), and `M` (an (8, 8) array rebound, but only contracted with the block,
`b @ M`, which runs whatever its rank). None is an array whose shape spmdfix must read: no finding and no SPMD910
record (the rule of `capture.CaptureAnalysis.unread_arrays` is not "every name bound twice"). Runs and matches."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ('data', 'model'))
FLAG = True
S = 1.0
if FLAG:
    S = 2.0
F = np.float32(1.5)
Q = jnp.asarray(2.0)
M = jnp.eye(8, dtype=jnp.float32)
M = M * 2.0


def body(b):
    return (b @ M) * S * F * Q


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs = (np.arange(8 * 8 * 8, dtype=np.float32).reshape(8, 8, 8) - 21.0) / 16.0
    return jax.vmap(block, spmd_axis_name='data')(xs), xs * 2.0 * 2.0 * 1.5 * 2.0
