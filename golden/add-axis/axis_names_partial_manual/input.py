import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return v + 10.0


def apply(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.jit(jax.vmap(apply, spmd_axis_name='x'))(x)
    reference = np.asarray(x) + 10.0
    return result, reference
