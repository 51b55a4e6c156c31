"""SPMD006 with the batch placed by `jax.sharding.reshard(x, NamedSharding(mesh, P('S', None)))`, the mesh passed
to the shard_map as `mesh=` (no context mesh), before a plain vmap (issue 22, kind 6).

Fails as the `device_put` form does (measured on jax 0.10.2: safety/measurements/reshard_placement_plain_vmap.py;
there a bare `P` is refused by reshard itself); move-placement rewrites the placement to `P(None, 'S')`, which
runs (unsafe: it changes the layout).
"""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((8,), ('S',))


def main():
    a = np.arange(8 * 16, dtype=np.float32).reshape(8, 16) / 7.0
    x = jax.sharding.reshard(jax.numpy.asarray(a), NamedSharding(mesh, P(None, 'S')))
    sm = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('S'), out_specs=P('S'))
    return jax.vmap(sm)(x), a * 2 + 1
