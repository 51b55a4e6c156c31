"""What JAX does when an spmd vmap reaches `flax.nnx.shard_map` (flax 0.12.8), and what spmdfix's fixes leave.

Run: `python safety/measurements/nnx_shard_map_under_spmd_vmap.py` (sets 8 virtual CPU devices itself; jax
0.10.2, flax 0.12.8). newuser9's trial (safety/trials/newuser9/README.md): `nnx.shard_map` inside an NNX
module's `__call__` under `nnx.vmap(..., spmd_axis_name='data')` raised JAX's in_specs error and spmdfix said
nothing. `nnx.shard_map(f, *, mesh, in_specs, out_specs, axis_names=frozenset(), check_vma=True, graph=None,
graph_updates=None)` flattens NNX graph nodes among its arguments and calls `jax.shard_map` with the same
mesh, specs, axis_names and check_vma.

Each variant is run eagerly and under `jax.jit`, with `jax.vmap` and with `nnx.vmap` as the spmd vmap; the
reference is numpy (the program without the collision). Mesh: `Mesh(devices.reshape(2, 4), ('x', 'y'))`
(Auto axes), for add-axis `Mesh(devices.reshape(1, 2, 4), ('batch', 'x', 'y'))`.
"""

from __future__ import annotations

import _outcome  # noqa: F401  (8 virtual CPU devices, before JAX is imported)
from _outcome import show_group

from functools import partial  # noqa: E402

import jax  # noqa: E402
import numpy as np  # noqa: E402
from flax import nnx  # noqa: E402
from jax.sharding import Mesh  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

DEVICES = np.array(jax.devices())
MESH = Mesh(DEVICES.reshape(2, 4), ("x", "y"))
MESH3 = Mesh(DEVICES.reshape(1, 2, 4), ("batch", "x", "y"))
X = np.arange(4 * 8 * 8, dtype=np.float32).reshape(4, 8, 8)
W = np.arange(8, dtype=np.float32)
REF = X * 2 + 1


def variants(make_row, axis, reference_shape_ok=True):
    """The spmd vmap of `make_row()` over X, eager and jit, with jax.vmap and nnx.vmap (None: plain vmap)."""
    out = {}
    for vname, vmap in (("jax.vmap", jax.vmap), ("nnx.vmap", nnx.vmap)):
        kw = {} if axis is None else {"spmd_axis_name": axis}
        out[f"{vname} eager"] = lambda vmap=vmap, kw=kw: vmap(make_row(), **kw)(X)
        out[f"{vname} jit"] = lambda vmap=vmap, kw=kw: jax.jit(vmap(make_row(), **kw))(X)
    return out


def row(mesh, in_spec, out_spec, body=lambda b: b * 2 + 1, **kw):
    return lambda: (lambda v: nnx.shard_map(body, mesh=mesh, in_specs=in_spec, out_specs=out_spec, **kw)(v))


def decorated_row():
    @partial(nnx.shard_map, mesh=MESH, in_specs=P("x"), out_specs=P("x"))
    def body(b):
        return b * 2 + 1

    return body


def factory_row():
    @nnx.shard_map(mesh=MESH, in_specs=P("x"), out_specs=P("x"))
    def body(b):
        return b * 2 + 1

    return body


class Scale(nnx.Module):
    def __init__(self):
        self.w = nnx.Param(np.full((8,), 2.0, np.float32))

    def __call__(self, v, in_spec):
        return nnx.shard_map(
            lambda m, b: b * m.w[...] + 1, mesh=MESH, in_specs=(P(), in_spec), out_specs=in_spec
        )(self, v)


def module_variants(in_spec, axis):
    """`nnx.vmap(lambda m, v: m(v, in_spec), in_axes=(None, 0), spmd_axis_name=axis)(Scale(), X)`: the module
    an argument (NNX refuses a module closed over by a vmapped function: `Cannot extract graph node from
    different trace level`)."""
    def run(jit):
        model = Scale()
        f = nnx.vmap(lambda m, v: m(v, in_spec), in_axes=(None, 0), spmd_axis_name=axis)
        return (nnx.jit(f) if jit else f)(model, X)
    return {"nnx.vmap eager": lambda: run(False), "nnx.jit(nnx.vmap)": lambda: run(True)}


def capture_row(lifted):
    w = np.zeros((8,), np.float32)
    if lifted:
        return lambda: (lambda v: nnx.shard_map(lambda b, c: b * 2 + 1 + c, mesh=MESH, in_specs=(P("x"), P()),
                                                out_specs=P("x"))(v, w))
    return lambda: (lambda v: nnx.shard_map(lambda b: b * 2 + 1 + w, mesh=MESH, in_specs=P("x"), out_specs=P("x"))(v))


def main() -> None:
    print("== as written: nnx.shard_map naming the spmd axis 'x'")
    show_group("in_specs and out_specs P('x')", variants(row(MESH, P("x"), P("x")), "x"), REF)
    show_group("in_specs P('x', 'y') out_specs P('x', 'y')", variants(row(MESH, P("x", "y"), P("x", "y")), "x"), REF)
    show_group("out_specs only: in P(None, 'y'), out P('x', 'y')",
               variants(row(MESH, P(None, "y"), P("x", "y")), "x"), REF)
    show_group("out_specs only, check_vma=False", variants(row(MESH, P(None, "y"), P("x", "y"), check_vma=False), "x"),
               REF)
    show_group("@partial(nnx.shard_map, ...) P('x')", variants(decorated_row, "x"), REF)
    show_group("@nnx.shard_map(mesh=..., ...) P('x')", variants(factory_row, "x"), REF)
    show_group("a Module operand P(), the row P('x')", module_variants(P("x"), "x"), REF)
    show_group("specs naming 'y' only (no collision)", variants(row(MESH, P("y"), P("y")), "x"), REF)
    print("== the fixes")
    show_group("rename: spmd 'y', specs P('x')", variants(row(MESH, P("x"), P("x")), "y"), REF)
    show_group("add-axis: mesh ('batch', 'x', 'y'), spmd 'batch'", variants(row(MESH3, P("x"), P("x")), "batch"), REF)
    show_group("drop-spmd-axis: plain vmap, specs P('x')", variants(row(MESH, P("x"), P("x")), None), REF)
    show_group("strip: specs P(None), spmd 'x'", variants(row(MESH, P(None), P(None)), "x"), REF)
    show_group("strip: P(None, 'y'), spmd 'x'", variants(row(MESH, P(None, "y"), P(None, "y")), "x"), REF)
    show_group("Module operand: rename spmd 'y'", module_variants(P("x"), "y"), REF)
    show_group("Module operand: strip P(None)", module_variants(P(None), "x"), REF)
    show_group("capture of an unbatched array, spmd 'y' (no collision)", variants(capture_row(False), "y"), REF)
    show_group("capture lifted as P() operand, spmd 'y'", variants(capture_row(True), "y"), REF)


if __name__ == "__main__":
    main()
