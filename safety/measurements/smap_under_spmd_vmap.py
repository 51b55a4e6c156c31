"""What JAX does when `jax.vmap(..., spmd_axis_name=S)` reaches a `jax.smap(..., axis_name=A)`, and which fixes run.

Run: `python safety/measurements/smap_under_spmd_vmap.py` (sets 8 virtual CPU devices itself; jax 0.10.2).
`jax.smap(f, in_axes=..., out_axes=..., axis_name=A)` is a shard_map over the context mesh (`jax.set_mesh`)
whose only manual axis is A, with specs built from in_axes/out_axes (`P(A)` at the mapped dimension, `P()`
for None). The body is elementwise (`b * 2 + 1`), the input (4, 8), the reference the same computation in
numpy. Each line prints a variant, eager and under `jax.jit`, then `ok` (runs, equals the reference),
`DIFFERS` or `raises <error>`. docs/jax-behaviour.md and docs/safety.md record the outcome.

Meshes: `make_mesh((2, 4), ('x', 'y'))` with Auto axes, the same with Explicit axes (the `make_mesh` default),
and `Mesh(devices.reshape(2, 4), ('x', 'y'))`.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from functools import partial  # noqa: E402

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, Mesh  # noqa: E402

X = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
W = np.arange(8, dtype=np.float32)
REF = X * 2 + 1


def _attempt(name: str, fn, reference=REF) -> None:
    for mode in ("eager", "jit"):
        try:
            out = fn() if mode == "eager" else jax.jit(fn)()
            same = np.shape(out) == np.shape(reference) and np.allclose(np.asarray(out), reference)
            print(f"{name:62} {mode:5} {'ok' if same else 'DIFFERS'}")
        except Exception as err:  # noqa: BLE001 - the failure is the measurement
            print(f"{name:62} {mode:5} raises {type(err).__name__}: {str(err).splitlines()[0][:110]}")


def _smapped(axis: str, in_axes=0, out_axes=0):
    """A function of one (8,) row applying an elementwise smap over `axis`."""
    return lambda v: jax.smap(lambda b: b * 2 + 1, in_axes=in_axes, out_axes=out_axes, axis_name=axis)(v)


def meshes():
    devices = np.array(jax.devices()).reshape(2, 4)
    yield "auto make_mesh", jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
    yield "explicit make_mesh", jax.make_mesh((2, 4), ("x", "y"))
    yield "Mesh(...)", Mesh(devices, ("x", "y"))


def collisions(label: str, mesh) -> None:
    """The program as written (spmd axis = smap axis, and another axis), and the fixes spmdfix knows."""
    with jax.set_mesh(mesh):
        f = _smapped("x")
        _attempt(f"{label}: smap 'x' under spmd 'x'", lambda: jax.vmap(f, spmd_axis_name="x")(X))
        # rename: the spmd axis moved to the other mesh axis
        _attempt(f"{label}: smap 'x' under spmd 'y' (rename)", lambda: jax.vmap(f, spmd_axis_name="y")(X))
        # drop-spmd-axis: a plain vmap
        _attempt(f"{label}: smap 'x' under plain vmap (drop)", lambda: jax.vmap(f)(X))
        # the smap's own axis moved instead (not a spmdfix fix: it changes which devices split the row)
        g = _smapped("y")
        _attempt(f"{label}: smap 'y' under spmd 'x'", lambda: jax.vmap(g, spmd_axis_name="x")(X))
        # specs that name no axis: in_axes=None, out_axes=None
        n = _smapped("x", None, None)
        _attempt(f"{label}: smap 'x' in/out_axes None under spmd 'x'", lambda: jax.vmap(n, spmd_axis_name="x")(X))
        _attempt(f"{label}: smap 'x' in/out_axes None under spmd 'y'", lambda: jax.vmap(n, spmd_axis_name="y")(X))
        o = _smapped("x", None, 0)
        _attempt(f"{label}: smap 'x' in_axes None, out_axes 0, no vmap", lambda: o(X[0]), np.tile(REF[0], 2))
        _attempt(f"{label}: smap 'x' in_axes None, out_axes 0 under spmd 'x'",
                 lambda: jax.vmap(o, spmd_axis_name="x")(X), np.tile(REF, 2))
        # in_axes omitted (Infer: from the arguments' shardings, Explicit meshes only)
        inf = lambda v: jax.smap(lambda b: b * 2 + 1, out_axes=0, axis_name="x")(v)
        _attempt(f"{label}: smap 'x' in_axes omitted under spmd 'x'", lambda: jax.vmap(inf, spmd_axis_name="x")(X))
        _attempt(f"{label}: smap 'x' in_axes omitted under plain vmap", lambda: jax.vmap(inf)(X))
        # one mapped and one unmapped argument
        two = lambda v: jax.smap(lambda b, w: b * 2 + 1 + 0 * w, in_axes=(0, None), out_axes=0, axis_name="x")(v, W)
        _attempt(f"{label}: smap 'x' in_axes (0, None) under spmd 'x'", lambda: jax.vmap(two, spmd_axis_name="x")(X))
        # the decorator form: jax.smap(in_axes=..., ...) without f, and partial(jax.smap, ...)
        deco = jax.smap(in_axes=0, out_axes=0, axis_name="x")(lambda b: b * 2 + 1)
        _attempt(f"{label}: decorator smap 'x' under spmd 'x'", lambda: jax.vmap(deco, spmd_axis_name="x")(X))
        part = partial(jax.smap, in_axes=0, out_axes=0, axis_name="x")(lambda b: b * 2 + 1)
        _attempt(f"{label}: partial(jax.smap) 'x' under spmd 'x'", lambda: jax.vmap(part, spmd_axis_name="x")(X))
        # look-alikes: the spmd vmap inside the smap body; the smap applied outside the vmap
        inner = jax.smap(lambda b: jax.vmap(lambda r: r * 2 + 1, spmd_axis_name="y")(b), in_axes=0, out_axes=0,
                         axis_name="x")
        _attempt(f"{label}: spmd 'y' vmap inside smap 'x' body", lambda: inner(X))
        outside = lambda: jax.smap(lambda b: b + 0, in_axes=0, out_axes=0, axis_name="x")(
            jax.vmap(lambda r: r * 2 + 1, spmd_axis_name="x")(X))
        _attempt(f"{label}: smap 'x' applied to a spmd 'x' vmap's output", outside)
    # add-axis: a size-1 'batch' axis prepended to the mesh, spmd -> 'batch'
    types = mesh.axis_types
    added = jax.make_mesh((1, 2, 4), ("batch", "x", "y"), axis_types=(types[0], *types))
    with jax.set_mesh(added):
        f = _smapped("x")
        _attempt(f"{label}: smap 'x' under spmd 'batch' (add-axis)", lambda: jax.vmap(f, spmd_axis_name="batch")(X))


def without_context() -> None:
    """smap without a context mesh."""
    f = _smapped("x")
    _attempt("no context mesh: smap 'x' under plain vmap", lambda: jax.vmap(f)(X))


def main() -> None:
    print(f"jax {jax.__version__}, {len(jax.devices())} devices")
    for label, mesh in meshes():
        collisions(label, mesh)
    without_context()


if __name__ == "__main__":
    main()
