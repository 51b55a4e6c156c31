"""`@jax.jit` listed under `@partial(jax.vmap, spmd_axis_name='x')`: the jit is inside the vmap.

Decorators apply bottom-up, so this is `jax.vmap(jax.jit(f))`: the function is traced by the jit, the body's
closure over `s = a.mean()` is a jit operand, not a batched value, and the program runs and matches (measured
on jax 0.10.2). Not SPMD003, as for a function jitted inside the vmap (golden/clean/fam_capture_under_inner_jit);
the same stack with the jit above the vmap decorator fails (golden/lift-captures/jit_above_vmap_decorator).
"""
from functools import partial

import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


@partial(jax.vmap, spmd_axis_name='x')
@jax.jit
def f(a):
    s = a.mean()
    return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(a)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), a * a.mean(axis=1, keepdims=True)
