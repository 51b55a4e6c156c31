"""Trust hazard T1 (issue 22): a sharding inside the vmapped function that names the spmd axis itself, in the
`in_shardings`/`out_shardings` of a `jax.jit` or in `jax.device_put(v, NamedSharding(mesh, P(...)))`.

Run: `python safety/measurements/jit_shardings_spmd_axis.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(Auto, Auto))
    @partial(jax.vmap, spmd_axis_name=S)                        # S = 'x' as written
    def f(v):                                                   # one example (4,), batch 8
        v = USE(v)                                              # the sharding below names 'x'
        return shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=cv)(v)

USE: `jax.jit(g, out_shardings=NamedSharding(mesh, P('x')))(v)`, `jax.jit(g, in_shardings=...)(v)`,
`jax.device_put(v, NamedSharding(mesh, P('x')))`, with `g = lambda u: u + 1.0`. Stages: as written; a strip
of the shard_map's specs (nothing to strip here: the program as written is what a strip leaves); rename
`'x' -> 'y'` (S = 'y'); add-axis (mesh `(1, 2, 4)`, `('batch', 'x', 'y')`, S = 'batch'); drop-spmd-axis (a
plain vmap). Reference: numpy `(a + 1) * 2` (`a * 2` for device_put).
"""

from __future__ import annotations

import itertools
from functools import partial

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

from _outcome import header, show_group

A = np.linspace(-1.0, 2.0, 32, dtype=np.float32).reshape(8, 4)
AUTO = AxisType.Auto


def build(use, stage, check_vma):
    if stage == "add-axis":
        mesh = jax.make_mesh((1, 2, 4), ("batch", "x", "y"), axis_types=(AUTO,) * 3)
    else:
        mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AUTO, AUTO))
    sh = NamedSharding(mesh, P("x"))
    g = lambda u: u + 1.0  # noqa: E731
    uses = {
        "jit out_shardings": lambda v: jax.jit(g, out_shardings=sh)(v),
        "jit in_shardings": lambda v: jax.jit(g, in_shardings=sh)(v),
        "device_put": lambda v: jax.device_put(v, sh),
    }

    def f(v):
        v = uses[use](v)
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=check_vma)(v)

    spmd = {"as written / strip": "x", "rename -> 'y'": "y", "add-axis": "batch"}.get(stage)
    return jax.vmap(f) if spmd is None else jax.vmap(f, spmd_axis_name=spmd)


def main() -> None:
    variants = [f"cv={cv} {st}" for cv, st in itertools.product((True, False), ("eager", "jit"))]
    header("a jit sharding or device_put inside the vmapped function naming the spmd axis (Auto mesh)", variants)
    stages = ("as written / strip", "rename -> 'y'", "add-axis", "drop-spmd-axis")
    for use, stage in itertools.product(("jit out_shardings", "jit in_shardings", "device_put"), stages):
        ref = A * 2.0 if use == "device_put" else (A + 1.0) * 2.0
        runs = {
            f"cv={cv} {st}": (lambda cv=cv, st=st: (jax.jit(build(use, stage, cv)) if st == "jit"
                                                    else build(use, stage, cv))(A))
            for cv, st in itertools.product((True, False), ("eager", "jit"))
        }
        show_group(f"{use:18} {stage}", runs, ref)


if __name__ == "__main__":
    main()
