import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return jnp.tanh(v)


def apply(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    n = len(jax.devices())  # the batch size is computed at run time: not provably divisible by 'y'
    x = jnp.linspace(-2.0, 2.0, n * 8, dtype=jnp.float32).reshape(n, 8)
    result = jax.vmap(apply, spmd_axis_name='x')(x)
    reference = np.tanh(np.asarray(x))
    return result, reference
