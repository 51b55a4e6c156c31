"""Issue 23 kind 2: add-axis while the program reads the mesh through an array placed on it.

Run: `python safety/measurements/add_axis_mesh_through_array.py` (8 virtual CPU devices; jax 0.10.2).

The program places `xs = jax.device_put(a, NamedSharding(mesh, P('y')))` (a: (4, 8), batch 4), reads READ
off `xs` (a Python value `k`), and runs `jax.vmap(f, spmd_axis_name=S)(xs)` with `f(v) = shard_map(b * 2 + 1,
in_specs=P('x'), out_specs=P('x'))(v) * k`. Before the fix: `Mesh(devices.reshape(2, 4), ('x', 'y'))`, S = 'x'
(the in_specs collision). After add-axis: `Mesh(devices.reshape(1, 2, 4), ('batch', 'x', 'y'))`, S = 'batch'.
The reference is numpy with `k` read off the mesh before the fix (what the program means).

Part 1 prints each READ's value before and after the fix, on Auto meshes (`Mesh(...)`) and Explicit ones
(`jax.make_mesh(..., axis_types=Explicit)`): `kept` or `changed: before -> after`.
Part 2 runs the program after add-axis (Auto mesh), eager and under `jax.jit`, check_vma True and False, against
the reference; and, for the first READ only, the program before the fix and a plain vmap on the old mesh, as
controls. READs named
`inside:` are taken on the traced example `v` inside the vmapped function (`jax.typeof(v)`; their reference is
the value a plain vmap on the old mesh reads). `use:` rows use the mesh reached through `xs` as the shard_map's
mesh, to name its spec, or to place the input again (k = 1).
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

from _outcome import header, show_group, value

A = (np.arange(4 * 8, dtype=np.float32).reshape(4, 8) - 10.0) / 8.0

READS = {
    "xs.sharding.mesh.devices.shape[0]": lambda xs: xs.sharding.mesh.devices.shape[0],
    "len(xs.sharding.mesh.devices.shape)": lambda xs: len(xs.sharding.mesh.devices.shape),
    "len(xs.sharding.mesh.shape)": lambda xs: len(xs.sharding.mesh.shape),
    "tuple(xs.sharding.mesh.shape.values())[0]": lambda xs: tuple(xs.sharding.mesh.shape.values())[0],
    "xs.sharding.mesh.shape['y']": lambda xs: xs.sharding.mesh.shape["y"],
    "len(xs.sharding.mesh.axis_names)": lambda xs: len(xs.sharding.mesh.axis_names),
    "xs.sharding.mesh.axis_sizes[0]": lambda xs: xs.sharding.mesh.axis_sizes[0],
    "xs.sharding.mesh.size": lambda xs: xs.sharding.mesh.size,
    "len(jax.typeof(xs).sharding.mesh.axis_names)": lambda xs: len(jax.typeof(xs).sharding.mesh.axis_names),
    "jax.typeof(xs).sharding.mesh.axis_sizes[0]": lambda xs: jax.typeof(xs).sharding.mesh.axis_sizes[0],
    "jax.typeof(xs).sharding.mesh.shape['y']": lambda xs: jax.typeof(xs).sharding.mesh.shape["y"],
    "len(xs.sharding.spec)": lambda xs: len(xs.sharding.spec),
    "xs.sharding.spec == P('y')": lambda xs: int(xs.sharding.spec == P("y")),
    "len(jax.typeof(xs).sharding.spec)": lambda xs: len(jax.typeof(xs).sharding.spec),
    "xs.addressable_shards[0].data.shape[0]": lambda xs: xs.addressable_shards[0].data.shape[0],
}
INSIDE = {
    "inside: len(jax.typeof(v).sharding.mesh.axis_names)": lambda v: len(jax.typeof(v).sharding.mesh.axis_names),
    "inside: jax.typeof(v).sharding.mesh.axis_sizes[0] if any": lambda v: (
        jax.typeof(v).sharding.mesh.axis_sizes or (1,))[0],
}
# uses of the mesh reached through xs (k = 1): the shard_map's mesh, its specs, a second placement
USES = {
    "use: shard_map(mesh=xs.sharding.mesh)": lambda xs, mesh: (xs.sharding.mesh, P("x"), xs),
    "use: in/out_specs=P(xs.sharding.mesh.axis_names[0])": lambda xs, mesh: (
        mesh, P(xs.sharding.mesh.axis_names[0]), xs),
    "use: device_put(xs, NamedSharding(xs.sharding.mesh, P(None, 'x')))": lambda xs, mesh: (
        mesh, P("x"), jax.device_put(xs, NamedSharding(xs.sharding.mesh, P(None, "x")))),
    "use: device_put(xs * 1.0, xs.sharding)": lambda xs, mesh: (mesh, P("x"), jax.device_put(xs * 1.0, xs.sharding)),
}
SETTINGS = {"before": ((2, 4), ("x", "y"), "x"), "after": ((1, 2, 4), ("batch", "x", "y"), "batch")}


def mesh_of(stage: str, explicit: bool) -> Mesh:
    shape, names, _ = SETTINGS[stage]
    if explicit:
        return jax.make_mesh(shape, names, axis_types=(AxisType.Explicit,) * len(names))
    return Mesh(np.array(jax.devices()).reshape(shape), names)


def placed(mesh):
    return jax.device_put(A, NamedSharding(mesh, P("y")))


def program(mesh, spmd, read, check_vma, jit):
    """The whole program: place, read k, run the spmd vmap."""
    xs = placed(mesh)
    body_mesh, spec = mesh, P("x")
    if read in USES:
        body_mesh, spec, xs = USES[read](xs, mesh)
    body = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=body_mesh, in_specs=spec, out_specs=spec, check_vma=check_vma)
    k = READS[read](xs) if read in READS else 1 if read in USES else None

    def f(v):
        return body(v) * (k if k is not None else INSIDE[read](v))

    g = jax.vmap(f, spmd_axis_name=spmd)
    return (jax.jit(g) if jit else g)(xs)


def reference(read):
    if read in USES:
        k = 1
    elif read in READS:
        k = READS[read](placed(mesh_of("before", False)))
    else:  # the inside read as a plain vmap on the old mesh sees it
        k = value(lambda: jax.vmap(lambda v: v * 0.0 + INSIDE[read](v))(placed(mesh_of("before", False)))[0, 0])
    return (A * 2 + 1) * np.float32(k)


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("add-axis (size-1 'batch' axis, spmd 'x' -> 'batch') with the mesh read through a placed array", variants)
    print("-- part 1: the value of each read, before -> after add-axis")
    for read, explicit in itertools.product(READS, (False, True)):
        before = value(lambda: READS[read](placed(mesh_of("before", explicit))))
        after = value(lambda: READS[read](placed(mesh_of("after", explicit))))
        verdict = "kept" if before == after else f"changed: {before} -> {after}"
        print(f"{'Explicit' if explicit else 'Auto':8} {read:52} {before!s:>6}  {verdict}", flush=True)
    print("-- part 2: the program (Auto mesh) against numpy with the read taken before the fix")
    for read in [*READS, *INSIDE, *USES]:
        ref = reference(read)
        for stage, spmd in (("before fix", "x"), ("plain vmap", None), ("after add-axis", "batch")):
            if spmd != "batch" and read != next(iter(READS)):
                continue  # the controls, once: before the fix every read raises the collision, a plain vmap matches
            mesh = mesh_of("after" if spmd == "batch" else "before", False)
            runs = {f"cv={cv} {'jit' if jit else 'eager'}": (lambda cv=cv, jit=jit: program(mesh, spmd, read, cv, jit))
                    for cv, jit in itertools.product((True, False), (False, True))}
            show_group(f"{read:66} {stage:14}", runs, ref)


if __name__ == "__main__":
    main()
