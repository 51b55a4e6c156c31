"""Fuzz seed 130128: SPMD003's size-1 exemption (capture_size1_spmd_axis.py: over a spmd axis of size 1 a capture
runs with check_vma=False, measured on an Auto mesh with the batch unplaced) on `jax.make_mesh((8, 1), ('x', 'y'))`
with each axis Explicit or Auto, the batch placed on the spmd axis `'y'` (xs on `P('y', 'x')`, ws on `P('y')`) or
unplaced, check_vma False and True, eager and under jit.

Run: `python safety/measurements/capture_size1_spmd_axis_explicit.py` (8 virtual CPU devices; jax 0.10.2).

    def apply(x, w):
        return shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=CV)(x)
    jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='y')(xs, ws)

Measured (jax 0.10.2): the batch placed on the Explicit spmd axis, check_vma=False: eagerly `shard_map out_specs
argument must refer to an axis marked as manual` (SPMD008), under jit `For primitive mul, context mesh ... should
match the aval mesh`; with check_vma=True it runs (the placed-batch exemption). Unplaced with `y` Explicit and `x`
Auto, or `y` Auto, check_vma=False: runs and matches (the size-1 exemption); check_vma=True: `ManualAxisType`. With
both axes Explicit and the batch unplaced the input fails the specs' placement check first.
"""

from __future__ import annotations

import _outcome
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
W = np.linspace(1, 2, 8, dtype=np.float32)


def main() -> None:
    reference = (X * 2 + 1) * W[:, None]
    for types in ((AxisType.Explicit, AxisType.Explicit), (AxisType.Auto, AxisType.Explicit), (AxisType.Explicit, AxisType.Auto)):
        mesh = jax.make_mesh((8, 1), ("x", "y"), axis_types=types)
        for placed in (True, False):
            for check_vma in (False, True):

                def apply(x, w, mesh=mesh, check_vma=check_vma):
                    body = lambda b: (b * 2.0 + 1.0) * w
                    return jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=check_vma)(x)

                xs, ws = jnp.asarray(X), jnp.asarray(W)
                if placed:
                    xs = jax.device_put(xs, NamedSharding(mesh, P("y", "x")))
                    ws = jax.device_put(ws, NamedSharding(mesh, P("y")))
                variants = {
                    "eager": lambda a=apply, x=xs, w=ws: jax.vmap(a, in_axes=(0, 0), spmd_axis_name="y")(x, w),
                    "jit": lambda a=apply, x=xs, w=ws: jax.jit(jax.vmap(a, in_axes=(0, 0), spmd_axis_name="y"))(x, w),
                }
                label = f"x {types[0].name}, y {types[1].name}; {'placed on y' if placed else 'unplaced'}; check_vma={check_vma}"
                _outcome.show_group(label, variants, reference)


if __name__ == "__main__":
    main()
