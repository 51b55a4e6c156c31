"""Issue 23 kind 3: strip 'x' from specs whose dimension 'x' shares with 'y', under a body collective over 'y'.

Run: `python safety/measurements/strip_collective_shared_dimension.py` (8 virtual CPU devices; jax 0.10.2).

Mesh `Mesh(devices.reshape(2, 4), ('x', 'y'))` (Auto), batch 4, under `jax.vmap(f, spmd_axis_name='x')` with
`f = shard_map(BODY, in_specs=SPEC, out_specs=SPEC)`. Two layouts:
- tuple: one example (16,), SPEC `P(('x', 'y'))`, stripped to `P('y')` (both axes split the same dimension,
  'x' major); and `P(('y', 'x'))` -> `P('y')` ('y' major: each stripped 'y' block is the union of the old
  blocks with the same 'y' index, in order);
- separate: one example (4, 8), SPEC `P('x', 'y')`, stripped to `P(None, 'y')`.
BODY: `b - pmean(b, 'y')`, `b + psum(b, 'y')`, `b * all_gather(b, 'y').sum(0)`, `b + axis_index('y')`, and the
elementwise `b * 2 + 1` as the control. Stages: the program before the fix (spmd 'x', SPEC; printed for the first BODY of each layout only, since every
BODY raises the same collision there), after the strip
(spmd 'x', stripped SPEC), and after add-axis (mesh (1, 2, 4) ('batch', 'x', 'y'), spmd 'batch', SPEC) for
comparison. Reference: the same program under a plain `jax.vmap` (no spmd_axis_name) on the old mesh and specs.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from _outcome import header, show_group

LAYOUTS = {
    "tuple P(('x','y')) -> P('y')": ((16,), P(("x", "y")), P("y")),
    "tuple P(('y','x')) -> P('y')": ((16,), P(("y", "x")), P("y")),
    "separate P('x','y') -> P(None,'y')": ((4, 8), P("x", "y"), P(None, "y")),
}
BODIES = {
    "b * 2 + 1": lambda b: b * 2.0 + 1.0,
    "b - pmean(b, 'y')": lambda b: b - jax.lax.pmean(b, "y"),
    "b + psum(b, 'y')": lambda b: b + jax.lax.psum(b, "y"),
    "b * all_gather(b, 'y').sum(0)": lambda b: b * jax.lax.all_gather(b, "y").sum(0),
    "b + axis_index('y')": lambda b: b + jax.lax.axis_index("y").astype(b.dtype),
}


def mesh_of(add_axis: bool) -> Mesh:
    devices = np.array(jax.devices())
    if add_axis:
        return Mesh(devices.reshape(1, 2, 4), ("batch", "x", "y"))
    return Mesh(devices.reshape(2, 4), ("x", "y"))


def program(body, spec, mesh, spmd, check_vma, jit):
    f = jax.shard_map(BODIES[body], mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma)
    g = jax.vmap(f, spmd_axis_name=spmd)
    return jax.jit(g) if jit else g


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("strip of 'x' where 'x' and 'y' share a dimension, body collective over 'y'", variants)
    for (layout, (shape, spec, stripped)), body in itertools.product(LAYOUTS.items(), BODIES):
        xs = jnp.asarray((np.arange(4 * np.prod(shape), dtype=np.float32).reshape(4, *shape) ** 1.5) / 50.0)
        ref = program(body, spec, mesh_of(False), None, True, False)(xs)
        stages = {"before fix": (spec, False, "x"), "after strip": (stripped, False, "x"),
                  "after add-axis": (spec, True, "batch")}
        for stage, (s, add_axis, spmd) in stages.items():
            if stage == "before fix" and body != next(iter(BODIES)):
                continue  # every body raises the in_specs collision before the fix: printed once per layout
            runs = {f"cv={cv} {'jit' if jit else 'eager'}":
                    (lambda s=s, a=add_axis, sp=spmd, cv=cv, jit=jit: program(body, s, mesh_of(a), sp, cv, jit)(xs))
                    for cv, jit in itertools.product((True, False), (False, True))}
            show_group(f"{layout:36} {body:30} {stage:14}", runs, ref)


if __name__ == "__main__":
    main()
