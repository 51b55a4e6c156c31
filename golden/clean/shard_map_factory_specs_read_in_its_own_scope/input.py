"""A shard_map factory written at module level (`smap = partial(jax.shard_map, ..., in_specs=P(AX), ...)`,
`AX = 'x'`) applied in a function that binds its own `AX = 'y'`: the specs name 'x', where the partial reads
`AX`, and the vmap's 'y' does not collide (the program runs and matches). Read where the factory is applied,
the specs named 'y': a false SPMD001/SPMD002 whose SAFE rename moved the vmap onto 'x', and the fixed program
raised `vmap spmd_axis_name cannot appear in shard_map in_specs`."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
AX = 'x'
smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), out_specs=P(AX))


def double(b):
    return b * 2.0


def main():
    AX = 'y'
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(smap(double), spmd_axis_name=AX)(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
