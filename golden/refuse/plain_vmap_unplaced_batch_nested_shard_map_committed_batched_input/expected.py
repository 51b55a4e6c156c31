"""A neighbour of fuzz seed 360247's form: the argument is mapped (`in_axes=(0, 0)`) and committed with `P(None)`
(no mesh axis at its batch dimension), the batch dimension of `xs` placed on no mesh axis either; the body of the
shard_map nested in `outer` (a partial-manual shard_map over 'data') closes over the batched `w`. JAX refuses it
(`Closing over inputs to shard_map where the input is sharded on Explicit axes`, eager and under jit; unplaced it
runs: safety/measurements/plain_vmap_committed_capture_inner_nested.py, part B, `nested, w mapped`): SPMD003.
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
    ws0 = np.linspace(0.5, 2.0, 4, dtype=np.float32)
    groups = xs0.reshape(4, 2, 4, 8)
    reference = (groups - groups.mean(axis=2, keepdims=True)).reshape(4, 8, 8) * ws0[:, None, None] + 2.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, ('data', 'model'), None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    result = jax.vmap(block, in_axes=(0, 0))(xs, ws)
    return result, reference
