"""A tuple entry ('x', 'y') in a sharding constraint under jit; strip keeps 'y'."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b + 1.0


@jax.jit
def forward(xs):
    def layer(v):
        v = jax.lax.with_sharding_constraint(v, NamedSharding(mesh, P(('x', 'y'))))
        return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(v)

    return jax.vmap(layer, spmd_axis_name='x')(xs)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = forward(xs)
    reference = np.asarray(xs) + 1.0
    return result, reference
