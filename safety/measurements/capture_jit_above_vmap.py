"""Issue 23 kind 4: a batched capture (`s = a.mean()` read by the shard_map body) with `@jax.jit` stacked above
the spmd-vmap decorator, and what rename and strip leave.

Run: `python safety/measurements/capture_jit_above_vmap.py` (8 virtual CPU devices; jax 0.10.2).

    @jax.jit                                    # STACK "jit above"; absent for "no jit"
    @partial(jax.vmap, spmd_axis_name=S)
    def f(a):                                   # one example (8,), batch 8
        a = with_sharding_constraint(a, NamedSharding(mesh, C))     # CONSTRAINT on/off
        s = a.mean()
        return shard_map(lambda b: b * s, mesh=mesh, in_specs=SPEC, out_specs=SPEC, check_vma=cv)(a)

STACK "jit inside" wraps the shard_map call in `jax.jit` inside `f` instead (docs/jax-behaviour.md H5: a
capture there runs). Meshes: `jax.make_mesh((1, 8), ('data', 'model'), axis_types=(Auto, Auto))` and
`jax.make_mesh((1, 8), ('data', 'model'))` (its default axis types, Explicit). SPEC `P()` or `P('data')`.
Stages: as written (S = 'data', C = `P('data')`); rename (S = 'model'); strip ('data' stripped from the
constraint, C = `P(None)`, and from SPEC); rename, or strip, with the capture lifted (`s` passed as an operand,
in_specs `P()`): the fix sets spmdfix's auto chooses once it sees the capture. Reference: numpy, `a * a.mean()`
per example.
"""

from __future__ import annotations

import itertools
from functools import partial

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

from _outcome import header, show_group

A = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
REF = A * A.mean(axis=1, keepdims=True)
STAGES = {
    "as written": {"spmd": "data", "constraint": P("data"), "strip": False, "lift": False},
    "rename -> 'model'": {"spmd": "model", "constraint": P("data"), "strip": False, "lift": False},
    "strip 'data'": {"spmd": "data", "constraint": P(None), "strip": True, "lift": False},
    "rename + capture lifted": {"spmd": "model", "constraint": P("data"), "strip": False, "lift": True},
    "strip + capture lifted": {"spmd": "data", "constraint": P(None), "strip": True, "lift": True},
}


def build(mesh, stack, with_constraint, spec, check_vma, spmd, constraint, strip, lift):
    if strip:
        spec = P(*[None if e == "data" else e for e in spec])

    def f(a):
        if with_constraint:
            a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, constraint))
        s = a.mean()
        if lift:
            sm = jax.shard_map(lambda b, t: b * t, mesh=mesh, in_specs=(spec, P()), out_specs=spec,
                               check_vma=check_vma)
            call = lambda: sm(a, s)
        else:
            sm = jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma)
            call = lambda: sm(a)
        return jax.jit(lambda: call())() if stack == "jit inside" else call()

    g = partial(jax.vmap, spmd_axis_name=spmd)(f)
    return jax.jit(g) if stack == "jit above" else g


def main() -> None:
    stacks = ("no jit", "jit above", "jit inside")
    variants = [f"cv={cv} {st}" for cv, st in itertools.product((True, False), stacks)]
    header("a batched capture with @jax.jit above the spmd-vmap decorator", variants)
    meshes = {"Auto": (AxisType.Auto, AxisType.Auto), "default": None}
    for (kind, types), with_constraint, spec, (stage, kw) in itertools.product(
            meshes.items(), (True, False), (P(), P("data")), STAGES.items()):
        if stage.startswith("strip") and not with_constraint and spec == P():
            continue  # nothing to strip
        mesh = jax.make_mesh((1, 8), ("data", "model"), **({"axis_types": types} if types else {}))
        runs = {f"cv={cv} {st}": (lambda cv=cv, st=st: build(mesh, st, with_constraint, spec, cv, **kw)(A))
                for cv, st in itertools.product((True, False), stacks)}
        label = f"{kind:7} {'constraint' if with_constraint else 'no constr.'} specs={spec!s:9} {stage:24}"
        show_group(label, runs, REF)


if __name__ == "__main__":
    main()
