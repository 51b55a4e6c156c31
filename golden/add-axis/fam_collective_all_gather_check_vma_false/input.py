"""check_vma=False and an all_gather over the spmd axis 'x': the input runs and gathers blocks of other batch elements."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def gather_replicas(v):
    return jax.lax.all_gather(v, 'x')


def layer(x):
    return jax.shard_map(
        gather_replicas, mesh=mesh, in_specs=P('y'), out_specs=P(None, 'y'), check_vma=False
    )(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    a = np.asarray(xs)
    reference = np.stack([a, a], axis=1)  # both devices of 'x' hold the same block
    return result, reference
