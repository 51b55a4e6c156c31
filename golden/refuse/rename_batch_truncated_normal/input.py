import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

# The batch is 5, the shape argument of truncated_normal (its fourth: key, lower, upper, shape), not its lower
# bound -2: the only free axis 'y' (size 2) does not divide it, so the rename is not offered (read as -2, it was
# applied as safe and the output failed: `not evenly divisible by the corresponding mesh axis`).
mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jax.random.truncated_normal(jax.random.key(0), -2, 2, (5, 8))
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    return result, np.asarray(xs) * 2.0
