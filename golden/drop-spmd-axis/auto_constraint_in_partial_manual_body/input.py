"""A partial-manual shard_map (`axis_names={'x'}`) whose body constrains its block on the Auto axis 'y'. Under
any spmd vmap JAX inserts the spmd axis into that constraint's spec, and the shard_map must hold the spmd axis
as a manual one: after rename ('x' -> 'y') JAX raised `can only refer to Auto axes of the mesh`, after add-axis
`contains a manual axes ('batch', 'x')` (safety/trials/breaker12 r16; on main auto applied the rename as safe).
The plain vmap of drop-spmd-axis runs and matches."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def body(b):
    b = jax.lax.with_sharding_constraint(b, P(None, 'y'))
    return b * 2.0


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x', None), out_specs=P('x', None), axis_names={'x'})(v)


def main():
    xs = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8)
    result = jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
    return result, np.asarray(xs) * 2.0
