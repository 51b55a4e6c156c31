"""`axis_names=manual` with `manual = {SEQ}` a local set, under the spmd vmap over `'x'` (issue 22, kind 5).

`{SEQ}` is `{'y'}`: the spmd axis is not manual (SPMD008; measured on jax 0.10.2:
safety/measurements/axis_names_from_mesh.py, eager and under jit). The set is bound to a name, not written at
the shard_map, so rename and add-axis do not extend it (refused); dropping `spmd_axis_name` (safe on this Auto mesh) runs and
matches.
"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

SEQ = 'y'
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', SEQ))


def f(v):
    manual = {SEQ}
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P(SEQ), out_specs=P(SEQ), axis_names=manual)(v)


def main():
    a = (np.arange(32, dtype=np.float32).reshape(4, 8) ** 1.4) / 9.0
    return jax.vmap(f, spmd_axis_name='x')(a), a * 2.0 + 1.0
