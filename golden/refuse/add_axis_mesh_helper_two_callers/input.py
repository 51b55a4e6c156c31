"""A mesh helper with two callers: add-axis edits the helper, so the second caller's mesh gains the axis too;
that caller reads `other.devices.shape`, which changes ((4, 2) -> (1, 4, 2)): add-axis is unsafe and names it.
The callers disagree on the sizes, so they are not known: rename is unsafe too."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P


def build_mesh(dp, tp):
    return jax.make_mesh((dp, tp), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


mesh = build_mesh(2, 4)
other = build_mesh(4, 2)


def layer(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(v)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    rows = other.devices.shape[0]
    result = jax.vmap(layer, spmd_axis_name='data')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result * (rows // 4), reference
