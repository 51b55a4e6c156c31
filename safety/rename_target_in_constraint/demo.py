"""Original: 2x2x2 mesh, shard_map in/out P('x') after with_sharding_constraint(P('y')), spmd 'x' (raises).
Applied: rename spmd_axis_name 'x' -> 'y', the axis the sharding constraint names."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def f(v):
    v = jax.lax.with_sharding_constraint(v, NamedSharding(mesh, P('y')))
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.jit(jax.vmap(f, spmd_axis_name='y'))(xs)
    reference = np.asarray(xs) + 1.0
    return result, reference
