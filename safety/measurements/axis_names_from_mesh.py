"""Issue 22 kind 5: collective axes and `axis_names` computed from the mesh, under an spmd vmap.

Run: `python safety/measurements/axis_names_from_mesh.py` (8 virtual CPU devices; jax 0.10.2).

`mesh = Mesh(devices.reshape(2, 4), ('x', 'y'))` (Auto), batch 4, one example (8,), `jax.vmap(f,
spmd_axis_name='x')`, `f = shard_map(BODY, mesh=mesh, in_specs=P('y'), out_specs=P('y'), ...)` (no spec names
'x'). Part 1, BODY with a collective over `mesh.axis_names` (= ('x', 'y'), so over the spmd axis too):
`b - pmean(b, mesh.axis_names)`, `b + psum(b, mesh.axis_names)`, `b + psum(1.0, mesh.axis_names)`; and the same
over `'y'` only as the control. Part 2, BODY `b * 2 + 1` with `axis_names=` spelled
`frozenset(mesh.axis_names) - {'x'}`, `manual` with `manual = {SEQ}` a local set (SEQ = 'y'), and, as
controls, `set(mesh.axis_names)` and `{SEQ, 'x'}`.
Stages: spmd 'x', plain vmap (no spmd_axis_name), and no vmap at all (f applied to each example in a Python
loop). Eager and under `jax.jit`, both `check_vma` values. Reference: part 1, the same body under a plain
`jax.vmap` with `check_vma=False` (per example the block is replicated along 'x': pmean over ('x', 'y') is
pmean over 'y', psum over ('x', 'y') is twice psum over 'y'); part 2, numpy `a * 2 + 1`.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from _outcome import header, show_group

A = (np.arange(32, dtype=np.float32).reshape(4, 8) ** 1.4) / 9.0
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
SEQ = "y"

COLLECTIVES = {
    "b - pmean(b, mesh.axis_names)": lambda b: b - jax.lax.pmean(b, MESH.axis_names),
    "b - pmean(b, 'y')  [control]": lambda b: b - jax.lax.pmean(b, "y"),
    "b + psum(b, mesh.axis_names)": lambda b: b + jax.lax.psum(b, MESH.axis_names),
    "b + psum(b, 'y')  [control]": lambda b: b + jax.lax.psum(b, "y"),
    "b + psum(1.0, mesh.axis_names)": lambda b: b + jax.lax.psum(1.0, MESH.axis_names),
}


def _manual_local():
    manual = {SEQ}
    return manual


AXIS_NAMES = {
    "axis_names=frozenset(mesh.axis_names) - {'x'}": lambda: frozenset(MESH.axis_names) - {"x"},
    "axis_names=manual, manual = {SEQ}": _manual_local,
    "axis_names=set(mesh.axis_names)  [control]": lambda: set(MESH.axis_names),
    "axis_names={SEQ, 'x'}  [control]": lambda: {SEQ, "x"},
}


def build(body, axis_names, check_vma):
    kw = {"axis_names": axis_names} if axis_names is not None else {}
    return jax.shard_map(body, mesh=MESH, in_specs=P("y"), out_specs=P("y"), check_vma=check_vma, **kw)


def staged(f, stage, jit):
    if stage == "no vmap":
        g = jax.jit(f) if jit else f
        return lambda xs: jnp.stack([g(x) for x in xs])
    g = jax.vmap(f, spmd_axis_name="x" if stage == "spmd 'x'" else None)
    return jax.jit(g) if jit else g


def rows(name, body, axis_names, ref):
    for stage in ("spmd 'x'", "plain vmap", "no vmap"):
        runs = {f"cv={cv} {'jit' if jit else 'eager'}":
                (lambda cv=cv, jit=jit: staged(build(body, axis_names, cv), stage, jit)(A))
                for cv, jit in itertools.product((True, False), (False, True))}
        show_group(f"{name:48} {stage:10}", runs, ref)


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("collectives and axis_names computed from mesh.axis_names under spmd_axis_name='x'", variants)
    print("-- part 1: collectives over mesh.axis_names")
    for name, body in COLLECTIVES.items():
        ref = jax.vmap(build(body, None, False))(A)
        rows(name, body, None, ref)
    print("-- part 2: axis_names computed from the mesh or a local set")
    ref = (A * 2 + 1)
    for name, names in AXIS_NAMES.items():
        rows(name, lambda b: b * 2.0 + 1.0, names(), ref)


if __name__ == "__main__":
    main()
