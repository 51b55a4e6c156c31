import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def body(v):
    return v * 2 + 1


def apply(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(x)


def main():
    x = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8)
    result = jax.vmap(apply, spmd_axis_name='batch')(x)
    reference = np.asarray(x) * 2 + 1
    return result, reference
