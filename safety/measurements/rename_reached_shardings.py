"""Issue 23 kind 1: rename 'x' -> 'y' while the vmapped function places a value with a sharding naming 'y'.

Run: `python safety/measurements/rename_reached_shardings.py` (8 virtual CPU devices; jax 0.10.2).

The vmapped function (one example of shape (8, 8), batch 4) applies `shard_map(b * 2 + 1, in_specs=P('x'),
out_specs=P('x'))` and then one placement FORM of its result, then `* 3`. It runs under
`jax.vmap(f, spmd_axis_name=S)` with S = 'x' (the program before the rename: the in_specs collision) and
S = 'y' (after the rename), eager and under `jax.jit`, `check_vma` True and False, on an Auto mesh
(`Mesh(devices.reshape(2, 4), ('x', 'y'))`) and an Explicit one (`jax.make_mesh((2, 4), ('x', 'y'))`, the input
placed `P(None, 'x')` as the shard_map expects). Reference: numpy.

FORMS (the sharding spelled inside the vmapped function, per example, rank 2):
- none: the rename's control;
- jit out_shardings / in_shardings: `jax.jit(g, out_shardings=NamedSharding(mesh, P(None, 'y')))(v)`, and
  `in_shardings=`; also `P(None, 'x')` (the old spmd axis) and `P('y', None)`;
- device_put: `jax.device_put(v, NamedSharding(mesh, P(None, 'y')))`;
- reshard: `jax.sharding.reshard(v, P(None, 'y'))` under `jax.set_mesh(mesh)`, and with a `NamedSharding`;
- constraint: `with_sharding_constraint(v, NamedSharding(mesh, P(None, 'y')))` (rename row 14 of docs/safety.md);
- outer jit: `jax.jit(jax.vmap(f, ...), out_shardings=NamedSharding(mesh, P(None, None, 'y')))` (the sharding
  outside the vmap, whole batch), and `in_shardings=`.
The program before the rename (S = 'x') is printed once per mesh, with FORM none: every FORM raises the same
in_specs collision there. On the Explicit mesh every eager call after the rename fails already without a FORM (the input placed for
the old program no longer matches: docs/safety.md row 16), so there the jit rows tell what a FORM does.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported

import jax
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

from _outcome import header, show_group

X = (np.arange(4 * 8 * 8, dtype=np.float32).reshape(4, 8, 8) - 100.0) / 32.0
REF = (X * 2 + 1) * 3


def _jit_out(spec):
    return lambda mesh, v: jax.jit(lambda t: t + 0.0, out_shardings=NamedSharding(mesh, spec))(v)


def _jit_in(spec):
    return lambda mesh, v: jax.jit(lambda t: t + 0.0, in_shardings=NamedSharding(mesh, spec))(v)


FORMS = {
    "none": lambda mesh, v: v,
    "jit out_shardings P(None,'y')": _jit_out(P(None, "y")),
    "jit out_shardings P('y',None)": _jit_out(P("y", None)),
    "jit out_shardings P(None,'x')": _jit_out(P(None, "x")),
    "jit in_shardings P(None,'y')": _jit_in(P(None, "y")),
    "jit in_shardings P(None,'x')": _jit_in(P(None, "x")),
    "device_put NamedSharding P(None,'y')": lambda mesh, v: jax.device_put(v, NamedSharding(mesh, P(None, "y"))),
    "reshard(v, P(None,'y')) under set_mesh": lambda mesh, v: jax.sharding.reshard(v, P(None, "y")),
    "reshard(v, NamedSharding P(None,'y'))": lambda mesh, v: jax.sharding.reshard(v, NamedSharding(mesh, P(None, "y"))),
    "with_sharding_constraint P(None,'y')": lambda mesh, v: jax.lax.with_sharding_constraint(
        v, NamedSharding(mesh, P(None, "y"))),
}


OUTER = {
    "outer jit out_shardings P(None,None,'y')": "out_shardings",
    "outer jit in_shardings P(None,None,'y')": "in_shardings",
}


def meshes():
    explicit = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    yield "Auto", Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y")), None
    yield "Explicit", explicit, P(None, "x")


def program(mesh, form, spmd, check_vma, jit):
    body = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=check_vma)

    def f(v):
        return FORMS.get(form, FORMS["none"])(mesh, body(v)) * 3.0

    g = jax.vmap(f, spmd_axis_name=spmd)
    if form in OUTER:
        g = jax.jit(g, **{OUTER[form]: NamedSharding(mesh, P(None, None, "y"))})
    return jax.jit(g) if jit else g


def run(mesh, placement, form, spmd, check_vma, jit):
    xs = X if placement is None else jax.device_put(X, NamedSharding(mesh, placement))
    g = program(mesh, form, spmd, check_vma, jit)
    if form.startswith("reshard(v, P"):
        def call():
            with jax.set_mesh(mesh):
                return g(xs)
        return call
    return lambda: g(xs)


def main() -> None:
    header("rename 'x' -> 'y' with a sharding naming 'y' reached inside the vmap",
           ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit"))
    for (mesh_kind, mesh, placement), form in itertools.product(list(meshes()), [*FORMS, *OUTER]):
        for spmd in ("x", "y", None):
            if spmd == "x" and form != "none":
                continue  # before the rename every form raises the in_specs collision: the `none` row shows it
            stage = {"x": "before rename", "y": "after rename", None: "plain vmap"}[spmd]
            variants = {f"cv={cv} {'jit' if jit else 'eager'}": run(mesh, placement, form, spmd, cv, jit)
                        for cv, jit in itertools.product((True, False), (False, True))}
            show_group(f"{mesh_kind:8} {form:40} {stage:13}", variants, REF)

if __name__ == "__main__":
    main()
