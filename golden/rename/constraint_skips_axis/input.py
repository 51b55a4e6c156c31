import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def double(v):
    return v * 2.0


def forward(x):
    x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P('y')))
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.jit(jax.vmap(forward, spmd_axis_name='x'))(x)
    reference = np.asarray(x) * 2.0
    return result, reference
