import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


def make_mesh(dp, tp):
    return Mesh(np.array(jax.devices()).reshape(dp, tp), ('x', 'y'))


def spec(axis):
    return P(axis)


mesh = make_mesh(2, 4)


def body(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=spec('x'), out_specs=spec('x'))(v)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(body, spmd_axis_name='y')(x)
    reference = np.asarray(x) * 2.0
    return result, reference
