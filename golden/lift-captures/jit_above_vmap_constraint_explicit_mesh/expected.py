"""`@jax.jit` stacked above the spmd-vmap decorator (issue 23, kind 4), on `jax.make_mesh`'s default Explicit axes.

The constraint naming the spmd axis fails first (an Explicit axis in a `with_sharding_constraint` spec). The
closure over `s = a.mean()` is a batched value (the jit is outside the vmap): stripping `'data'` from the
constraint alone leaves it failing (`Closing over inputs to shard_map where the input is sharded on Explicit
axes`, measured on jax 0.10.2: safety/measurements/capture_jit_above_vmap.py), so auto strips and lifts `s`
into an operand with `P()`, and the program runs. The input is left unplaced, as the program the fuzzer drew
has it: the vmap runs under the jit, where an unplaced batch runs (measured, same script).
"""
from functools import partial

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((1, 8), ('data', 'model'))


@jax.jit
@partial(jax.vmap, spmd_axis_name='data')
def f(a):
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P(None)))
    s = a.mean()
    return jax.shard_map(lambda b, s: b * s, mesh=mesh, in_specs=(P(), P()), out_specs=P())(a, s)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), a * a.mean(axis=1, keepdims=True)
