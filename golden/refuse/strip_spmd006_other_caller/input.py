"""SPMD006: a plain vmap maps away Explicit axis 'x', on which its input is placed, and the shard_map names it.
The shard_map's function is also called without the vmap on an input placed P('x'): stripping 'x' would break
that call (its placed input no longer matches the in_spec), so the strip is unsafe and names it."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def layer(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jax.device_put(jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8), NamedSharding(mesh, P('x', None)))
    row = jax.device_put(jnp.arange(8, dtype=jnp.float32), NamedSharding(mesh, P('x')))
    result = (jax.vmap(layer)(xs), layer(row))
    reference = (np.asarray(xs) * 2.0, np.asarray(row) * 2.0)
    return result, reference
