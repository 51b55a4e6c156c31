"""Original: golden/refuse/tree_reshard_other_module_other_caller (here in one module). Applied anyway: the strip of
the reshard's spec P('x') -> P(None) in `place`; the spmd vmap's call runs, the other call of `place`, whose result
a shard_map over P('x') reads on the Explicit mesh, raises (safety/measurements/silent_spellings_issue22.py)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit,) * 2)


def place(v):
    return jax.sharding.reshard(v * 2.0, P(None))


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    row = jnp.arange(8 * 4, dtype=jnp.float32).reshape(8, 4)
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(x, P('x', None))
        batched = jax.vmap(place, spmd_axis_name='x')(xs)
        other = jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(place(row))
    return (batched, other), (np.asarray(x) * 2.0, np.asarray(row) * 2.0 + 1.0)
