"""Original: golden/refuse/strip_leaves_jit_sharding_spmd_axis (a `jax.jit` inside the vmapped function with
`in_shardings` naming the spmd axis `'x'`, and a shard_map whose specs name it). Applied anyway: the strip of
the shard_map's specs: the jit still names the spmd axis and JAX raises `DuplicateSpecError`."""
from functools import partial

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


@partial(jax.vmap, spmd_axis_name='x')
def f(v):
    v = jax.jit(lambda u: u + 1.0, in_shardings=NamedSharding(mesh, P('x')))(v)
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(None), out_specs=P(None))(v)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), (a + 1.0) * 2.0
