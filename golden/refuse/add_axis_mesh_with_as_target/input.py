import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def replicas():
    with mesh as m:  # Mesh.__enter__ returns the mesh itself
        return m.devices.shape[0]


def main():
    x = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    result = jax.vmap(block, spmd_axis_name='x')(x) * replicas()
    reference = np.asarray(x) * 2.0 * 2
    return result, reference
