"""Issue 22 (silence5, item b): a mesh built by a project helper with several returns, as jax's test utility
`jtu.create_mesh(mesh_shape, axis_names, iota_order=False, axis_types=None)` builds it:

    def create_mesh(mesh_shape, axis_names, iota_order=False, axis_types=None):
        if iota_order:
            devices = sorted(jax.devices(), key=lambda d: d.id)
            return Mesh(np.array(devices[:size]).reshape(mesh_shape), axis_names, axis_types=axis_types)
        if axis_types is None:
            axis_types = (AxisType.Auto,) * len(mesh_shape)
        return sharding_impls.make_mesh(mesh_shape, axis_names, axis_types)

Run: `python safety/measurements/multi_return_mesh_helper.py` (8 virtual CPU devices; jax 0.10.2).

Part 0: the API facts the analysis relies on: `jax._src.sharding_impls.make_mesh` is `jax.make_mesh`, and the
axis types of each return (`Mesh(..., axis_types=None)`, `make_mesh(..., None)`, the helper's both branches);
jax's own `jax._src.test_util.create_mesh` (the same source as the helper above in jax 0.10.2, printed by
`inspect.getsource`): its axis names and types with `iota_order` False/True and `axis_types` given or not.
The jax repository's tests call it as `jtu.create_mesh`; the analysis does not follow `jax.*` modules, so it
knows it by name (`jaxapi.TEST_MESH_NAMES`).
Part 1: `jax.vmap(f, spmd_axis_name='x')` of `f = shard_map(b * 2 + 1, mesh=create_mesh((2, 4), ('x', 'y')),
in_specs=P('x'), out_specs=P('x'))`, with `iota_order` False and True (the two returns): batch 4, example
(8,). Control: `in_specs=P('y')`. Part 2: a plain `jax.vmap` of `shard_map(..., in_specs=P('x'))` over an input
placed `device_put(X, NamedSharding(mesh, P('x', None)))` on the helper's mesh (Auto axes both ways), against
`jax.make_mesh((2, 4), ('x', 'y'))` (Explicit). Part 3: a helper whose two returns name different axes
(`('x', 'y')` or `('a', 'b')` by a flag): the collision happens for one flag only. Eager and under `jax.jit`,
both `check_vma` values. Reference: numpy `a * 2 + 1`.
"""

from __future__ import annotations

import itertools
import math

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax._src import sharding_impls
from jax._src import test_util as jtu
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

from _outcome import header, show_group

A = (np.arange(32, dtype=np.float32).reshape(4, 8) ** 1.4) / 9.0
REF = A * 2 + 1


def create_mesh(mesh_shape, axis_names, iota_order=False, axis_types=None):
    size = math.prod(mesh_shape)
    if iota_order:
        devices = sorted(jax.devices(), key=lambda d: d.id)
        return Mesh(np.array(devices[:size]).reshape(mesh_shape), axis_names, axis_types=axis_types)
    if axis_types is None:
        axis_types = (AxisType.Auto,) * len(mesh_shape)
    return sharding_impls.make_mesh(mesh_shape, axis_names, axis_types)


def _same_source() -> bool:
    """Whether jax's `jtu.create_mesh` has the two returns of the helper above: `Mesh(...)` under `iota_order`,
    `make_mesh(...)` with Auto axes when `axis_types` is None."""
    import inspect

    theirs = inspect.getsource(jtu.create_mesh)
    return all(
        line in theirs
        for line in (
            "return mesh_lib.Mesh(mesh_devices, axis_names, axis_types=axis_types)",
            "axis_types = (mesh_lib.AxisType.Auto,) * len(mesh_shape)",
            "return sharding_impls.make_mesh(mesh_shape, axis_names, axis_types)",
        )
    )


def two_names(flag):
    devices = np.array(jax.devices()).reshape(2, 4)
    if flag:
        return Mesh(devices, ("x", "y"))
    return Mesh(devices, ("a", "b"))


def variants(build):
    return {f"cv={cv} {'jit' if jit else 'eager'}": (lambda cv=cv, jit=jit: build(cv, jit))
            for cv, jit in itertools.product((True, False), (False, True))}


def spmd(mesh, spec, cv, jit):
    f = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv)
    g = jax.vmap(f, spmd_axis_name="x")
    return (jax.jit(g) if jit else g)(A)


def plain_placed(mesh, cv, jit):
    f = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=cv)
    xs = jax.device_put(A, NamedSharding(mesh, P("x", None)))
    g = jax.vmap(f)
    return (jax.jit(g) if jit else g)(xs)


def main() -> None:
    header("meshes from a helper with several returns (jtu.create_mesh style)",
           ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit"))
    print("-- part 0: API facts")
    print(f"{'jax._src.sharding_impls.make_mesh is jax.make_mesh':96} {sharding_impls.make_mesh is jax.make_mesh}")
    devs = np.array(jax.devices()).reshape(2, 4)
    print(f"{'Mesh(devs, names, axis_types=None).axis_types':96} {Mesh(devs, ('x', 'y'), axis_types=None).axis_types}")
    print(f"{'jax.make_mesh((2, 4), names, None).axis_types':96} {jax.make_mesh((2, 4), ('x', 'y'), None).axis_types}")
    for iota in (False, True):
        m = create_mesh((2, 4), ("x", "y"), iota_order=iota)
        label = f"create_mesh((2, 4), (x, y), iota_order={iota}): names, types"
        print(f"{label:96} {m.axis_names} {m.axis_types}")
    label = "jtu.create_mesh's source has the helper's two returns"
    print(f"{label:96} {_same_source()}")
    for iota in (False, True):
        for types in (None, (AxisType.Explicit,) * 2):
            m = jtu.create_mesh((2, 4), ("x", "y"), iota_order=iota, axis_types=types)
            label = f"jtu.create_mesh((2, 4), (x, y), iota_order={iota}, axis_types={types}): names, types"
            print(f"{label:96} {m.axis_names} {m.axis_types}")
    print("-- part 1: spmd vmap over 'x', shard_map on the helper's mesh")
    for iota in (False, True):
        mesh = create_mesh((2, 4), ("x", "y"), iota_order=iota)
        show_group(f"iota_order={iota}, in_specs=P('x')", variants(lambda cv, jit, m=mesh: spmd(m, P("x"), cv, jit)), REF)
        show_group(f"iota_order={iota}, in_specs=P('y')  [control]",
                   variants(lambda cv, jit, m=mesh: spmd(m, P("y"), cv, jit)), REF)
    print("-- part 2: plain vmap over an input placed P('x', None) on the mesh, shard_map in_specs=P('x')")
    for iota in (False, True):
        mesh = create_mesh((2, 4), ("x", "y"), iota_order=iota)
        show_group(f"create_mesh(iota_order={iota})", variants(lambda cv, jit, m=mesh: plain_placed(m, cv, jit)), REF)
    for types in (None, (AxisType.Explicit,) * 2):
        mesh = jtu.create_mesh((2, 4), ("x", "y"), axis_types=types)
        show_group(f"jtu.create_mesh(axis_types={types}): spmd vmap, in_specs=P('x')",
                   variants(lambda cv, jit, m=mesh: spmd(m, P("x"), cv, jit)), REF)
        show_group(f"jtu.create_mesh(axis_types={types}): plain vmap, placed P('x', None)",
                   variants(lambda cv, jit, m=mesh: plain_placed(m, cv, jit)), REF)
    explicit = jax.make_mesh((2, 4), ("x", "y"))
    show_group("jax.make_mesh((2, 4), ('x', 'y'))  [Explicit control]",
               variants(lambda cv, jit: plain_placed(explicit, cv, jit)), REF)
    print("-- part 3: a helper whose returns name different axes")
    for flag in (True, False):
        mesh = two_names(flag)
        spec = P("x") if flag else P("a")
        show_group(f"two_names({flag}), in_specs={spec}", variants(lambda cv, jit, m=mesh, s=spec: spmd(m, s, cv, jit)),
                   REF)


if __name__ == "__main__":
    main()
