"""breaker10 t22: the batch placed `P(None, 'x')`, then re-placed `P('x', None)` by a nested function declaring
it `nonlocal`, before a jitted spmd vmap over it.

The placement was read from the assignment the function body shows, so add-axis (safe on an Explicit mesh only
with the batch dimension placed on no axis) was applied as SAFE, and the fixed program still fails (`Only one of
spmd_axis_name or arrays sharded on Explicit mesh axis ...`). A name a `nonlocal` or `global` statement declares
is not read: add-axis is unsafe, nothing applied.
"""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    placed = jax.device_put(xs, NamedSharding(mesh, P(None, 'x')))

    def replace():
        nonlocal placed
        placed = jax.device_put(placed, NamedSharding(mesh, P('x', None)))

    replace()
    return jax.jit(jax.vmap(block, spmd_axis_name='x'))(placed), xs * 2.0
