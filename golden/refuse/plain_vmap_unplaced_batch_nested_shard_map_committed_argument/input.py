"""Fuzz seed 360247's form: a plain jax.vmap whose batch dimension is placed on no mesh axis (`xs` on
`P(None, ('data', 'model'), None)`), with an argument it does not map (`in_axes=None`) committed to the mesh with
`P()`; `block` applies a partial-manual shard_map over 'data' whose body `outer` applies a shard_map over 'model'
on the context mesh, and that nested shard_map's body (`body`, defined beside `outer`) closes over `w`. JAX refuses
it (`Closing over inputs to shard_map where the input is sharded on Explicit axes`, eager and under jit; `ws`
unplaced it runs: safety/measurements/plain_vmap_committed_capture_inner_nested.py, part B): SPMD003.
lift-captures edits the outer shard_map only: refused."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Explicit, AxisType.Explicit))


def block(x, w):
    def body(b):
        return ((b - jax.lax.pmean(b, 'model')) * w) + 2.0

    def outer(t):
        return jax.shard_map(body, in_specs=P('model'), out_specs=P('model'), axis_names={'model'})(t)
    return jax.shard_map(outer, mesh=mesh, in_specs=P('data'), out_specs=P('data'), axis_names={'data'})(x)


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    ws0 = np.float32(1.5)
    groups = xs0.reshape(4, 2, 4, 8)
    reference = (groups - groups.mean(axis=2, keepdims=True)).reshape(4, 8, 8) * ws0 + 2.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, ('data', 'model'), None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P()))
    result = jax.vmap(block, in_axes=(0, None))(xs, ws)
    return result, reference
