"""SPMD006 with the batch placed by `jax.sharding.reshard(x, P('S', None))` (a bare spec) on the Explicit mesh a
`with jax.set_mesh(mesh):` installs, before a plain vmap of a shard_map over `'S'` (issue 22, kind 6).

Fails as the `device_put(x, NamedSharding(mesh, P('S', None)))` form does (measured on jax 0.10.2:
safety/measurements/reshard_placement_plain_vmap.py); move-placement rewrites the placement to `P(None, 'S')`,
which runs (unsafe: it changes the layout); strip is refused (a 1-D mesh).
"""
import jax
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((8,), ('S',))


def main():
    a = np.arange(8 * 16, dtype=np.float32).reshape(8, 16) / 7.0
    with jax.set_mesh(mesh):
        x = jax.sharding.reshard(jax.numpy.asarray(a), P(None, 'S'))
        return jax.vmap(jax.shard_map(lambda b: b * 2.0 + 1.0, in_specs=P('S'), out_specs=P('S')))(x), a * 2 + 1
