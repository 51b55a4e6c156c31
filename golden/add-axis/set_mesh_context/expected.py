import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def body(v):
    return v * v


def apply(x):
    return jax.shard_map(body, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        result = jax.vmap(apply, spmd_axis_name='batch')(x)
    reference = np.asarray(x) ** 2
    return result, reference
