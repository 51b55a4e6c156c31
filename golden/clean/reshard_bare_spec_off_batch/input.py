"""`jax.sharding.reshard(x, P(None, 'S'))` under `with jax.set_mesh(mesh):` before a plain vmap of a shard_map
over Explicit `'S'`: the batch dimension is not on `'S'`, so the vmap maps no Explicit axis away; runs and
matches (measured on jax 0.10.2: safety/measurements/reshard_placement_plain_vmap.py, the control row).
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
