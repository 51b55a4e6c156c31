"""Fuzz seed 90384: a shard_map nested in the body of a partial-manual shard_map (`axis_names={'x'}`), under a
vmap with `spmd_axis_name='y'`, on a 2x2x2 mesh, the batch placed on the spmd axis of an Explicit mesh or not.

Run: `python safety/measurements/nested_shard_map_placed_batch.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'))     # Explicit; or Mesh(devices.reshape(2, 2, 2), ...) (Auto)
    def block(v):                                         # v (8, 8): one example
        def outer(t):
            return INNER(t)                               # a shard_map on the context mesh, or on `mesh`
        return jax.shard_map(outer, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'}, check_vma=cv)(v)
    with jax.set_mesh(mesh):
        xs = PLACE(X)                                     # X (4, 8, 8): a batch of 4 examples
        jax.vmap(lambda v: HOF(block, v), spmd_axis_name='y')(xs)    # or a plain jax.vmap; eager or jax.jit

INNER (body `b * 2 + 1`, `check_vma=cv`): `ctx y P('y')` (no `mesh=`, `axis_names={'y'}`, specs `P('y')`: the
seed's), `ctx y P()` (`axis_names={'y'}`, specs `P()`), `ctx z P('z')` (`axis_names={'z'}`), `ctx all P('y')`
(no `axis_names`: every axis left manual), `mesh= y P('y')` (`mesh=mesh`, `axis_names={'y'}`).
PLACE: unplaced (numpy), `reshard(X, P('y', None, None))` (the batch on the spmd axis), `reshard(X, P('y', 'x',
None))` (and the example's first dimension on 'x', as the outer in_specs say); on the Auto mesh unplaced only.
HOF: `direct` (`block(v)`), `jit` (`jax.jit(block)(v)`: a jit inside the vmap), `lax.map`
(`jax.lax.map(block, v[None])[0]`: batch_size None, the seed's), `lax.scan` (block applied to the one row of
`v[None]`); on the Auto mesh these three for the seed's INNER only; `fori_loop` and `while_loop` (one step
applying block) on the Explicit mesh for the two `ctx y` INNERs. The `[... jit]` variants put a `jax.jit`
around the vmap.
Reference: numpy `X * 2 + 1`.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from _outcome import header, show_group

X = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
REF = X * 2.0 + 1.0
INNERS = ("ctx y P('y')", "ctx y P()", "ctx z P('z')", "ctx all P('y')", "mesh= y P('y')")


def inner_map(kind, mesh, check_vma):
    body = lambda b: b * 2.0 + 1.0
    if kind == "ctx y P('y')":
        return jax.shard_map(body, in_specs=P("y"), out_specs=P("y"), axis_names={"y"}, check_vma=check_vma)
    if kind == "ctx y P()":
        return jax.shard_map(body, in_specs=P(), out_specs=P(), axis_names={"y"}, check_vma=check_vma)
    if kind == "ctx z P('z')":
        return jax.shard_map(body, in_specs=P("z"), out_specs=P("z"), axis_names={"z"}, check_vma=check_vma)
    if kind == "ctx all P('y')":
        return jax.shard_map(body, in_specs=P("y"), out_specs=P("y"), check_vma=check_vma)
    if kind == "mesh= y P('y')":
        return jax.shard_map(body, mesh=mesh, in_specs=P("y"), out_specs=P("y"), axis_names={"y"},
                             check_vma=check_vma)
    raise ValueError(kind)


def run(mesh, kind, place, hof, spmd, check_vma, jit):
    """A fresh vmap object each call (an eager spmd vmap remembers earlier calls: eager_cache_placement.py)."""
    def block(v):
        outer = lambda t: inner_map(kind, mesh, check_vma)(t)
        return jax.shard_map(outer, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"},
                             check_vma=check_vma)(v)

    def apply(v):
        if hof == "direct":
            return block(v)
        if hof == "jit":
            return jax.jit(block)(v)
        if hof == "lax.scan":
            return jax.lax.scan(lambda c, r: (c, block(r)), 0.0, v[None])[1][0]
        if hof == "fori_loop":
            return jax.lax.fori_loop(0, 1, lambda i, acc: block(acc), v)
        if hof == "while_loop":
            return jax.lax.while_loop(lambda s: s[0] < 1, lambda s: (s[0] + 1, block(s[1])), (0, v))[1]
        return jax.lax.map(block, v[None])[0]

    with jax.set_mesh(mesh):
        xs = X if place is None else jax.sharding.reshard(X, place)
        f = jax.vmap(apply, spmd_axis_name="y") if spmd else jax.vmap(apply)
        return (jax.jit(f) if jit else f)(xs)


def main() -> None:
    variants = [f"cv={cv} {'jit' if j else 'eager'}" for cv, j in itertools.product((True, False), (False, True))]
    header("a shard_map nested in a partial-manual shard_map's body under jax.vmap(spmd_axis_name='y')", variants)
    meshes = {
        "Explicit": (jax.make_mesh((2, 2, 2), ("x", "y", "z")), (None, P("y", None, None), P("y", "x", None))),
        "Auto": (Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z")), (None,)),
    }
    for (name, (mesh, places)), spmd, kind, hof in itertools.product(
            meshes.items(), (True, False), INNERS, ("direct", "jit", "lax.map", "lax.scan", "fori_loop", "while_loop")):
        if hof != "direct" and name == "Auto" and kind != INNERS[0]:
            continue
        if hof in ("fori_loop", "while_loop") and (name == "Auto" or kind not in INNERS[:2]):
            continue
        for place in places:
            runs = {f"cv={cv} {'jit' if j else 'eager'}":
                    (lambda cv=cv, j=j: run(mesh, kind, place, hof, spmd, cv, j))
                    for cv, j in itertools.product((True, False), (False, True))}
            vm = "spmd 'y'" if spmd else "plain"
            show_group(f"{name:8} {vm:8} {kind:15} {hof:7} placed {place}", runs, REF)


if __name__ == "__main__":
    main()
