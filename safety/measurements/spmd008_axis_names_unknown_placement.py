"""breaker10 t39-t46: an spmd vmap reaching a partial-manual shard_map whose `axis_names` names the spmd axis, on
an Explicit mesh, with the batch placed in each way a branch may leave it. What JAX raises (or whether it runs)
decides what spmdfix may say when it cannot read the placement (a placement assigned in an `if`, rebound by a
nested def's `nonlocal`).

Run: `python safety/measurements/spmd008_axis_names_unknown_placement.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('x', 'y'))                    # Explicit axes
    sm = jax.shard_map(body, mesh=mesh, in_specs=SPEC, out_specs=SPEC, axis_names={'x', 'y'}, check_vma=cv)
    with jax.set_mesh(mesh):
        xs = PLACE(xs)                                          # (4, 8), batch dimension 0
        jax.vmap(sm, spmd_axis_name='x')(xs)                    # eager, or under jax.jit

PLACE: not placed (numpy), `jax.sharding.reshard(xs, P(...))` with each spec below. SPEC: `P('y')`, `P()`.
Reference: numpy. Part B runs the same under a plain `jax.vmap` (no `spmd_axis_name`).

Measured (jax 0.10.2, 8 CPU devices), in_specs `P('y')` / `P()`, every check_vma, eager and jit unless said:
- batch on `'x'` (`P('x', None)`, `P('x', 'y')`): `jax.shard_map requires axis_names=... to be a subset of
  mesh.axis_names` (SPMD008's error), under the plain vmap too;
- `P(None, 'y')` with `P('y')`, and unplaced / `P()` with `P()`: `in_specs passed to shard_map: P('x', ...) does not
  match the specs of the input` eagerly, RUNS and matches under jit; the plain vmap runs (so the spmd axis
  causes the eager failure: breaker10 t44, t45);
- unplaced / `P()` with `P('y')`, `P(None, 'x')`, and `P(None, 'y')` with `P()`: an in_specs mismatch of the
  per-example dimensions, eager and jit, under the plain vmap too (not the spmd axis's doing: breaker10 t39, t41);
- `P('y', None)`: `Only one of spmd_axis_name or arrays sharded on Explicit mesh axis type is allowed`.
So a placement spmdfix cannot read (a branch, `nonlocal`) may give SPMD008's error, another error, or a run: an
SPMD910 record, not a finding claiming one error (`vmap_calls.VmapCallAnalysis._unread_rebound`).
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import PartitionSpec as P

from _outcome import header, show_group

X = np.arange(32, dtype=np.float32).reshape(4, 8)
REF = X * 2.0 + 1.0
PLACEMENTS = {
    "unplaced (numpy)": None,
    "P('x', None)": P("x", None),
    "P('x', 'y')": P("x", "y"),
    "P(None, 'y')": P(None, "y"),
    "P()": P(),
    "P(None, 'x')": P(None, "x"),
    "P('y', None)": P("y", None),
}


def run(mesh, spec, placement, check_vma, jitted, spmd="x"):
    sm = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=spec, out_specs=spec, axis_names={"x", "y"},
                       check_vma=check_vma)
    g = jax.vmap(sm, spmd_axis_name=spmd)
    g = jax.jit(g) if jitted else g
    with jax.set_mesh(mesh):
        xs = X if placement is None else jax.sharding.reshard(X, placement)
        return g(xs)


def main() -> None:
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    variants = [f"cv={cv} {'jit' if j else 'eager'}" for cv, j in itertools.product((True, False), (False, True))]
    header("spmd vmap 'x', axis_names={'x','y'}, Explicit mesh, each batch placement", variants)
    for spec, (label, placement) in itertools.product((P("y"), P()), PLACEMENTS.items()):
        runs = {f"cv={cv} {'jit' if j else 'eager'}": (lambda cv=cv, j=j: run(mesh, spec, placement, cv, j))
                for cv, j in itertools.product((True, False), (False, True))}
        show_group(f"in_specs={spec} placed {label}", runs, REF)
    # part B: the same programs under a plain vmap (no spmd_axis_name): which failures the spmd axis causes
    header("part B: the same under a plain jax.vmap (no spmd_axis_name)", variants)
    for spec, (label, placement) in itertools.product((P("y"), P()), PLACEMENTS.items()):
        runs = {f"cv={cv} {'jit' if j else 'eager'}": (lambda cv=cv, j=j: run(mesh, spec, placement, cv, j, None))
                for cv, j in itertools.product((True, False), (False, True))}
        show_group(f"plain vmap in_specs={spec} placed {label}", runs, REF)


if __name__ == "__main__":
    main()
