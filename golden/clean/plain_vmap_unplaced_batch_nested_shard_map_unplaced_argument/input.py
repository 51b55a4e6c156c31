"""The control of fuzz seed 360247's form (golden refuse/plain_vmap_unplaced_batch_nested_shard_map_committed_argument):
the batch dimension placed on no mesh axis (`xs` on `P(None, ('data', 'model'), None)`), the argument the vmap does
not map (`in_axes=None`) left unplaced; the body of the shard_map nested in `outer` closes over `w`. It runs and
matches (safety/measurements/plain_vmap_committed_capture_inner_nested.py, part B, `ws unplaced`): clean."""
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
    ws = jnp.asarray(ws0)
    result = jax.vmap(block, in_axes=(0, None))(xs, ws)
    return result, reference
