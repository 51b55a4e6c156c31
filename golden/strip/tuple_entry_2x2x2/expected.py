"""Two operands on a 2x2x2 mesh: a 3-member tuple entry and a 1-member tuple entry."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def pair(a, b):
    return jnp.sin(a) + 1.0, jnp.cos(b) * 2.0


def pair_layer(a, b):
    return jax.shard_map(
        pair,
        mesh=mesh,
        in_specs=(P(('y', 'z'), None), P(None, 'y')),
        out_specs=(P(('y', 'z'), None), P(None, 'y')),
    )(a, b)


def main():
    a = jnp.arange(4 * 8 * 4, dtype=jnp.float32).reshape(4, 8, 4) / 10.0
    b = jnp.arange(4 * 4 * 4, dtype=jnp.float32).reshape(4, 4, 4) / 10.0
    result = jax.vmap(pair_layer, spmd_axis_name='x')(a, b)
    reference = jax.vmap(pair)(a, b)
    return result, reference
