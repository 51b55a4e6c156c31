import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

from pkg.meshes import create_mesh


def main():
    mesh = create_mesh((2, 4), ('x', 'y'))
    f = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return jax.vmap(f, spmd_axis_name='x')(x), np.asarray(x) * 2.0 + 1.0
