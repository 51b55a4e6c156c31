"""The mesh is built by a helper called once with positional sizes (2, 4): the sizes are read from the call, so
rename knows that 'model' (4) divides the batch of 8."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P


def build_mesh(dp, tp):
    return jax.make_mesh((dp, tp), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


mesh = build_mesh(2, 4)


def layer(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(v)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    result = jax.vmap(layer, spmd_axis_name='model')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
