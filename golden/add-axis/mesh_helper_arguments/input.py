"""The mesh is built by a helper that takes its shape as arguments (dp=2, tp=4): its axis names and sizes are
read by substituting the one call's values; add-axis edits the helper."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P


def build_mesh(dp, tp):
    return jax.make_mesh((dp, tp), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


mesh = build_mesh(dp=2, tp=4)


def layer(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='data')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
