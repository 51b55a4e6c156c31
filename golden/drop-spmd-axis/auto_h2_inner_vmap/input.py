import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(v):
    return jax.shard_map(
        lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x')
    )(v)


def row(r):
    return jax.vmap(block)(r)  # an inner vmap under check_vma=True: hazard H2


def main():
    xs = jnp.arange(4 * 2 * 8, dtype=jnp.float32).reshape(4, 2, 8)
    result = jax.vmap(row, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
