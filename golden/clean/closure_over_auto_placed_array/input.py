"""The closure of golden refuse/closure_over_explicit_placed_array on an Auto mesh: `w` placed `P(None)` with
`device_put`, the batch unplaced. Runs and matches (measured on jax 0.10.2:
safety/measurements/open_items_issue22_kind9.py, part A): clean.
"""
import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def main():
    a = (np.arange(4 * 8 * 4, dtype=np.float32).reshape(4, 8, 4) - 40.0) / 30.0
    ws = np.array([0.5, 1.0, 1.5, 2.0], dtype=np.float32)
    w = jax.device_put(ws, NamedSharding(mesh, P(None)))
    sm = jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P('y'), out_specs=P('y'))
    return jax.vmap(sm, spmd_axis_name='x')(a), a * ws
