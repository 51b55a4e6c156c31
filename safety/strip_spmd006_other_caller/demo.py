"""Original: golden/refuse/strip_spmd006_other_caller. Applied anyway: the SPMD006 strip P('x') -> P(None); the
vmapped call runs, the direct call of layer on an input placed P('x') raises."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def layer(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(None), out_specs=P(None))(v)


def main():
    xs = jax.device_put(jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8), NamedSharding(mesh, P('x', None)))
    row = jax.device_put(jnp.arange(8, dtype=jnp.float32), NamedSharding(mesh, P('x')))
    result = (jax.vmap(layer)(xs), layer(row))
    reference = (np.asarray(xs) * 2.0, np.asarray(row) * 2.0)
    return result, reference
