"""Fuzz seed 120152: SPMD003's exemption for a batch placed on the Explicit spmd axis (capture_explicit_mesh.py),
with a plain `jax.vmap` between the spmd vmap and the function applying the shard_map.

Run: `python safety/measurements/capture_explicit_placed_inner_vmap.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(Explicit, Explicit))
    def block(x, w):
        return shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
    def apply(x, w):
        return jax.vmap(block, in_axes=(0, None))(x, w)     # or INNER_AXES, or block(x, w) directly
    jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='y')(xs, ws)

`w` is batched by the spmd vmap and passed unchanged (`in_axes` None) through the inner vmap, then closed over
by the body. Placements: `xs` on `P('y', None, 'x')` (its batch on the spmd axis, the block's dimension on
the specs' axis: what an Explicit mesh asks of a shard_map input), `ws` on `P('y')` (its batch dimension only),
`P('y', ...)` against `P()` and unplaced; `check_vma` True and False; eager and under jit. Reference: numpy.

Measured (jax 0.10.2): both placed on the spmd axis, `check_vma=True`: runs and matches, eager and under jit,
through the inner vmap as without it (the exemption holds). `check_vma=False`: `shard_map out_specs argument must
refer to an axis marked as manual` (SPMD008's eager case). `ws` unplaced or on `P()`: `Mapped away dimension of
inputs passed to vmap should be sharded the same` (the batch is not placed alike: no exemption). The inner vmap
mapping `w` too (`in_axes=(0, 0)`, `ws` of shape (8, 8) on `P('y')`) gives the same outcomes: what decides is
where the argument the captured value comes from is placed, whole or sliced by the inner vmap.
"""

from __future__ import annotations

import _outcome
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

MESH = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Explicit))


def program(check_vma: bool, inner_axes: tuple | None):
    def block(x, w):
        def body(b):
            return (b * 2.0 + 1.0) * w

        return jax.shard_map(body, mesh=MESH, in_specs=P("x"), out_specs=P("x"), check_vma=check_vma)(x)

    def apply(x, w):
        if inner_axes is None:
            return block(x, w)
        return jax.vmap(block, in_axes=inner_axes)(x, w)

    return jax.vmap(apply, in_axes=(0, 0), spmd_axis_name="y")


def main() -> None:
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    for inner_axes, label in (((0, None), "inner vmap, w unmapped"), (None, "direct call (control)"), ((0, 0), "inner vmap, w mapped")):
        mapped_w = inner_axes == (0, 0)
        ws0 = np.linspace(0.5, 2.0, 64 if mapped_w else 8, dtype=np.float32).reshape((8, 8) if mapped_w else (8,))
        if inner_axes is None:
            x_spec, reference = P("y", "x", None), (xs0 * 2.0 + 1.0) * ws0[:, None, None]
        elif mapped_w:
            x_spec, reference = P("y", None, "x"), (xs0 * 2.0 + 1.0) * ws0[:, :, None]
        else:
            x_spec, reference = P("y", None, "x"), (xs0 * 2.0 + 1.0) * ws0[:, None, None]
        for w_spec in (P("y"), P(), None):
            for check_vma in (True, False):
                xs = jax.device_put(jnp.asarray(xs0), NamedSharding(MESH, x_spec))
                ws = jnp.asarray(ws0) if w_spec is None else jax.device_put(jnp.asarray(ws0), NamedSharding(MESH, w_spec))
                run = program(check_vma, inner_axes)
                variants = {"eager": lambda r=run, a=xs, b=ws: r(a, b), "jit": lambda r=run, a=xs, b=ws: jax.jit(r)(a, b)}
                where = "unplaced" if w_spec is None else f"ws on {w_spec}"
                _outcome.show_group(f"{label}; {where}; check_vma={check_vma}", variants, reference)


if __name__ == "__main__":
    main()
