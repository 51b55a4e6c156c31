import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def scale(u, w):
    # u (2,) and w (2, 2), both split on 'x' along their first dimension: per block, row k of w times u[k]
    return jax.shard_map(lambda a, b: b * a, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P('x'))(u, w)


def main():
    u = jnp.arange(8 * 2, dtype=jnp.float32).reshape(8, 2) / 10.0
    w = jnp.arange(8 * 2 * 2, dtype=jnp.float32).reshape(8, 2, 2)
    result = jax.vmap(scale, spmd_axis_name='x')(u, w)
    reference = np.asarray(w) * np.asarray(u)[:, :, None]  # row k of each w scaled by u[k]
    return result, reference
