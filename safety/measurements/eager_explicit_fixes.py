"""Trust hazard T2 (issue 22): on an Explicit mesh, an eager call of the spmd vmap after a fix that keeps the
spmd axis (strip, lift-captures, disable-check-vma), by how the batch is placed.

Run: `python safety/measurements/eager_explicit_fixes.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((1, 8), ('data', 'model'))          # its default axis types: Explicit
    @partial(jax.vmap, spmd_axis_name='data')
    def f(a):                                                # one example (8,), batch 8
        a = with_sharding_constraint(a, NamedSharding(mesh, P(None)))   # CONSTRAINT stripped, or absent
        s = a.mean()
        return shard_map(lambda b, t: b * t, mesh=mesh, in_specs=(P(), P()), out_specs=P(), check_vma=cv)(a, s)

that is the program of golden lift-captures/jit_above_vmap_constraint_explicit_mesh after its fix (the
constraint's `'data'` stripped, the capture `s` lifted), called eagerly or under `jax.jit`, with the batch
unplaced, placed `P('data')` (on the spmd axis) or `P(None)` by `jax.device_put`. Also the fixed program with
no constraint at all (lift-captures alone). Reference: numpy, `a * a.mean()` per example.
"""

from __future__ import annotations

import itertools
from functools import partial

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from _outcome import header, show_group

A = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
REF = A * A.mean(axis=1, keepdims=True)


def build(mesh, with_constraint, check_vma):
    def f(a):
        if with_constraint:
            a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P(None)))
        s = a.mean()
        sm = jax.shard_map(lambda b, t: b * t, mesh=mesh, in_specs=(P(), P()), out_specs=P(), check_vma=check_vma)
        return sm(a, s)

    return partial(jax.vmap, spmd_axis_name="data")(f)


def main() -> None:
    variants = [f"cv={cv} {st}" for cv, st in itertools.product((True, False), ("eager", "jit"))]
    header("fixes that keep the spmd axis, called eagerly on an Explicit mesh", variants)
    mesh = jax.make_mesh((1, 8), ("data", "model"))
    placements = {"unplaced": None, "placed P('data')": P("data"), "placed P(None)": P(None)}
    for with_constraint, (where, spec) in itertools.product((True, False), placements.items()):
        def batch(spec=spec):
            return A if spec is None else jax.device_put(A, NamedSharding(mesh, spec))

        runs = {
            f"cv={cv} {st}": (lambda cv=cv, st=st: (jax.jit(build(mesh, with_constraint, cv)) if st == "jit"
                                                    else build(mesh, with_constraint, cv))(batch()))
            for cv, st in itertools.product((True, False), ("eager", "jit"))
        }
        label = f"{'stripped constraint' if with_constraint else 'no constraint'} + lifted capture, {where}"
        show_group(label, runs, REF)


if __name__ == "__main__":
    main()
