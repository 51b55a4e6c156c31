"""Original: with_sharding_constraint(a, NamedSharding(mesh, P('x'))) under spmd_axis_name='x', and a body
`b + psum(b, 'x')` with check_vma=False. Applied anyway: the constraint's strip alone (P('x') -> P(None))."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def layer(a):
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P(None)))
    return jax.shard_map(
        lambda b: b + jax.lax.psum(b, 'x'), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False
    )(a)


def main():
    xs = jnp.arange(8 * 4, dtype=jnp.float32).reshape(8, 4)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 3.0
    return result, reference
