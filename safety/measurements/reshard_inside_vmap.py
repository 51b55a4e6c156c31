"""Fuzz seed 200100: `jax.sharding.reshard` inside the vmapped function naming the mesh axis the batch is on.

Run: `python safety/measurements/reshard_inside_vmap.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=TYPES)     # Explicit (the default) or Auto
    def apply(v):                                                  # one example: (8,) rank 1, (4, 8) rank 2
        y = v * 2.0 + 1.0
        return USE(y)
    with jax.set_mesh(mesh):
        xs = PLACE(X)                                              # the batch placed on 'x', or not
        VMAP(apply)(xs)                                            # spmd_axis_name='x', or a plain vmap

VMAPs: `jax.vmap(apply, spmd_axis_name='x')` and a plain `jax.vmap(apply)`. PLACE, Explicit mesh:
`reshard(X, P('x', None))` ("placed") or `jnp.asarray(X)` ("unplaced"); Auto mesh: `device_put(X,
NamedSharding(mesh, P('x', None)))` or unplaced. USEs: `reshard(y, SPEC)` with a bare spec or
`NamedSharding(mesh, SPEC)`; SPEC naming 'x' (`P('x')`, `P(('x', 'y'))`, `P(('y', 'x'))`; rank 2: `P('x', None)`,
`P(None, 'x')`, `P('x', 'y')`), what a strip of 'x' leaves (`P(None)`, `P('y')`; rank 2 `P(None, 'y')`), and
another axis (`P('y')`); the reshard in a helper the vmapped function calls; the reshard of an unbatched value
(`jnp.arange(8.0)` made inside the function, and a second argument mapped with `in_axes=None`), its sum added to
y. Each group runs eager and under `jax.jit` (a new function object every run). Reference: numpy `X * 2 + 1`
(plus the unbatched value's sum).
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

from _outcome import header, show_group

X1 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
X2 = (np.arange(256, dtype=np.float32).reshape(8, 4, 8) - 99.0) / 64.0
W = np.linspace(-1.0, 1.0, 8, dtype=np.float32)
XY = ("x", "y")


def _reshard(spec_entries, named):
    def use(mesh, y):
        spec = P(*spec_entries)
        return jax.sharding.reshard(y, NamedSharding(mesh, spec) if named else spec)
    return use


def _helper(mesh, y):
    return _helper_inner(y)


def _helper_inner(v):
    return jax.sharding.reshard(v, P("x"))


# name -> (rank, use(mesh, y) -> value); the unbatched rows are handled in `build`.
USES = {
    "reshard(y, P('x'))": (1, _reshard(("x",), False)),
    "reshard(y, NS(mesh, P('x')))": (1, _reshard(("x",), True)),
    "reshard(y, P(('x', 'y')))": (1, _reshard((XY,), False)),
    "reshard(y, P(('y', 'x')))": (1, _reshard((("y", "x"),), False)),
    "reshard(y, P('y'))  [other axis; strip of P(('x','y'))]": (1, _reshard(("y",), False)),
    "reshard(y, NS(mesh, P('y')))  [other axis]": (1, _reshard(("y",), True)),
    "reshard(y, P(None))  [strip of P('x')]": (1, _reshard((None,), False)),
    "reshard(y, NS(mesh, P(None)))  [strip]": (1, _reshard((None,), True)),
    "helper(y): reshard(v, P('x'))": (1, _helper),
    "rank2 reshard(y, P('x', None))": (2, _reshard(("x", None), False)),
    "rank2 reshard(y, P(None, 'x'))": (2, _reshard((None, "x"), False)),
    "rank2 reshard(y, P('x', 'y'))": (2, _reshard(("x", "y"), False)),
    "rank2 reshard(y, P(None, 'y'))  [strip of P('x', 'y')]": (2, _reshard((None, "y"), False)),
    "rank2 reshard(y, P('y', None))  [other axis]": (2, _reshard(("y", None), False)),
    "unbatched: y + reshard(jnp.arange(8.0), P('x')).sum()": (1, None),
    "unbatched: in_axes=None w, y + reshard(w, P('x')).sum()": (1, None),
    "no reshard  [control]": (1, lambda mesh, y: y),
}

VMAPS = ("spmd 'x'", "plain")
MESHES = ("Explicit placed", "Explicit unplaced", "Auto placed", "Auto unplaced")


def build(use_name, vmap, mesh_kind, jit):
    """The program of one variant, returned as a thunk, and its reference."""
    rank, use = USES[use_name]
    x = X1 if rank == 1 else X2
    auto = mesh_kind.startswith("Auto")
    types = (AxisType.Auto,) * 2 if auto else (AxisType.Explicit,) * 2
    mesh = jax.make_mesh((2, 4), XY, axis_types=types)
    reference = x * 2.0 + 1.0
    in_axes = 0
    if use_name.startswith("unbatched: in_axes"):
        in_axes = (0, None)

        def apply(v, w):
            return v * 2.0 + 1.0 + jax.sharding.reshard(w, P("x")).sum()
        reference = reference + W.sum()
    elif use_name.startswith("unbatched"):
        def apply(v):
            return v * 2.0 + 1.0 + jax.sharding.reshard(jnp.arange(8.0, dtype=jnp.float32), P("x")).sum()
        reference = reference + np.arange(8.0).sum()
    else:
        def apply(v):
            return use(mesh, v * 2.0 + 1.0)
    kw = {"spmd_axis_name": "x"} if vmap.startswith("spmd") else {}
    f = jax.vmap(apply, in_axes=in_axes, **kw)
    if jit:
        f = jax.jit(f)
    rest = (None,) * (x.ndim - 1)

    def run():
        with jax.set_mesh(mesh):
            xs = jnp.asarray(x)
            if mesh_kind == "Explicit placed":
                xs = jax.sharding.reshard(xs, P("x", *rest))
            elif mesh_kind == "Auto placed":
                xs = jax.device_put(xs, NamedSharding(mesh, P("x", *rest)))
            args = (xs, jnp.asarray(W)) if in_axes != 0 else (xs,)
            return f(*args)
    return run, reference


def main() -> None:
    header("reshard inside the vmapped function naming the axis the batch is on", ["eager", "jit"])
    for mesh_kind, vmap in itertools.product(MESHES, VMAPS):
        print(f"--- {mesh_kind} mesh, {vmap} vmap", flush=True)
        for use_name in USES:
            runs, ref = {}, None
            for mode in ("eager", "jit"):
                run, ref = build(use_name, vmap, mesh_kind, mode == "jit")
                runs[mode] = run
            show_group(f"{mesh_kind:17} {vmap:8} {use_name}", runs, ref)


if __name__ == "__main__":
    main()
