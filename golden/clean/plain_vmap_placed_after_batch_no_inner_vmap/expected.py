"""The control of refuse/plain_vmap_inner_vmap_maps_placed_dimension: the same plain outer vmap over an input
placed `P(None, 'x', None)`, without the inner vmap: the shard_map gets the placed dimension as its in_spec
says and runs, matching (safety/measurements/open_items_issue22_kind9.py, part D): clean."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((8,), ('x',))


def block(x):
    return jax.shard_map(lambda b: jnp.where(b > 1.0, b, 0.5 * b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x', None)))
    result = jax.vmap(block)(xs)
    return result, np.where(xs0 > 1.0, xs0, 0.5 * xs0)
