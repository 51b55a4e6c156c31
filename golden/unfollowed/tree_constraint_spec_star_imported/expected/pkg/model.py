import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from pkg.config import ACT_SPEC

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(h):
    return jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P(*ACT_SPEC))) * 2.0


def main():
    x = jnp.arange(4 * 8 * 16, dtype=jnp.float32).reshape(4, 8, 16)
    result = jax.vmap(body, spmd_axis_name='x')(x)
    reference = np.asarray(x) * 2.0
    return result, reference
