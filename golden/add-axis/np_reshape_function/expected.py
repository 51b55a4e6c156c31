import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

# The device array shaped by the numpy function, not the array method (regression: the new axis size went
# in front of the array argument).
mesh = Mesh(np.reshape(np.array(jax.devices()), (1, 2, 4)), ('batch', 'x', 'y'))


def double(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(double, spmd_axis_name='batch')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
