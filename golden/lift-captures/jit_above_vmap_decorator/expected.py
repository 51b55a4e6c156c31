"""`@jax.jit` stacked above `@partial(jax.vmap, spmd_axis_name='x')`: the jit is outside the vmap.

Decorators apply bottom-up, so this is `jax.jit(jax.vmap(f))`: the body's closure over `s = a.mean()` is a
batched value under the jit as it is eagerly, and fails the same way (an internal `ManualAxisType` assertion;
measured on jax 0.10.2: safety/measurements/capture_jit_above_vmap.py). Lifting `s` into an operand with `P()`
runs. (A jit listed under the vmap decorator is inside it: golden/clean/capture_jit_below_vmap_decorator.)
"""
from functools import partial

import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


@jax.jit
@partial(jax.vmap, spmd_axis_name='x')
def f(a):
    s = a.mean()
    return jax.shard_map(lambda b, s: b * s, mesh=mesh, in_specs=(P('y'), P()), out_specs=P('y'))(a, s)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), a * a.mean(axis=1, keepdims=True)
