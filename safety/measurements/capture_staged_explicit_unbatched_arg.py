"""Issue 22 (left open by fuzz seed 70430's fix): a shard_map body closing over `w`, an argument the spmd vmap
does NOT batch (`in_axes=(0, None)`), reached through a staging function (`@jax.jit` on the function applying
the shard_map, `jax.jit(shard_map(...))`, `jax.checkpoint`, `jax.lax.map`) on an Explicit mesh, with `w` placed
on that mesh: which placements fail, and with which error.

Run: `python safety/measurements/capture_staged_explicit_unbatched_arg.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('x', 'y'))                       # Explicit axes (the default)
    @jax.jit                                                       # FORM jit_block
    def block(x, w):                                               # x (8,) per example, w (8,) unbatched
        return shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=SPEC, out_specs=SPEC, check_vma=cv)(x)
    jax.vmap(lambda x, w: block(x, w), in_axes=(0, None), spmd_axis_name='x')(xs, ws)   # or under jax.jit

FORM: `direct` (no staging: the control), `jit_block`, `jit_shard_map`, `checkpoint`, `lax.map` (as in
capture_staged_explicit_placement.py). SPEC: `P()`, and `P('y')` for the scalar capture only (a (2,) block of
x times the (8,) w is a shape error). XS: xs placed `spmd` (`P('x', e)`, e the spec's
entry), `none` (`P(None, e)`), or `unplaced` (numpy). WS (the unbatched argument, shape (8,)): `P()`
(replicated on the mesh), `P('y')`, `P('x')` (on the spmd axis), or `unplaced` (numpy: the control). CAPTURE:
`w` (free), `w.sum()` (a scalar computed from it), `lifted` (the control: `w` a `P()` operand). Variants:
check_vma True/False, the vmap called eagerly or under `jax.jit`. Reference: numpy.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from _outcome import header, show_group

X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
W = np.linspace(0.5, 2.0, 8, dtype=np.float32)
FORMS = ("direct", "jit_block", "jit_shard_map", "checkpoint", "lax.map")
XS = ("spmd", "none", "unplaced")
WS = ("P()", "P('y')", "P('x')", "unplaced")
CAPTURES = ("w", "w.sum()", "lifted")


def reference(capture):
    if capture == "w.sum()":
        return (X * 2 + 1) * W.sum()
    return (X * 2 + 1) * W[None, :]


def build(mesh, form, spec, capture, cv, jitted):
    """The spmd vmap (`'x'`, `w` unbatched) over a function reaching the capturing shard_map as `form` says."""
    def block(x, w):
        if capture == "lifted":
            shard = jax.shard_map(lambda b, v: (b * 2.0 + 1.0) * v, mesh=mesh, in_specs=(spec, P()),
                                  out_specs=spec, check_vma=cv)
            args = (x, w)
        else:
            s = w.sum() if capture == "w.sum()" else w
            shard = jax.shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=spec, out_specs=spec,
                                  check_vma=cv)
            args = (x,)
        if form == "jit_shard_map":
            shard = jax.jit(shard)
        return shard(*args)

    if form == "jit_block":
        block = jax.jit(block)
    elif form == "checkpoint":
        block = jax.checkpoint(block)

    def apply(x, w):
        if form == "lax.map":
            return jax.lax.map(lambda row: block(row, w), x[None])[0]
        return block(x, w)
    g = jax.vmap(apply, in_axes=(0, None), spmd_axis_name="x")
    return jax.jit(g) if jitted else g


def inputs(mesh, spec, x_how, w_how):
    entry = spec[0] if len(spec) else None
    placed_x = {"spmd": P("x", entry), "none": P(None, entry)}
    placed_w = {"P()": P(), "P('y')": P("y"), "P('x')": P("x")}
    xs = jax.device_put(X, NamedSharding(mesh, placed_x[x_how])) if x_how in placed_x else X
    ws = jax.device_put(W, NamedSharding(mesh, placed_w[w_how])) if w_how in placed_w else W
    return xs, ws


def main() -> None:
    variants = [f"cv={cv} {'jit' if j else 'eager'}" for cv, j in itertools.product((True, False), (False, True))]
    header("an unbatched argument placed on an Explicit mesh, captured through a staging function", variants)
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    for form, spec, x_how, w_how, capture in itertools.product(FORMS, (P("y"), P()), XS, WS, CAPTURES):
        if spec == P("y") and capture != "w.sum()":
            continue  # a (2,) block of x times the whole (8,) w: a shape error, not a measurement
        xs, ws = inputs(mesh, spec, x_how, w_how)
        runs = {f"cv={cv} {'jit' if j else 'eager'}": (lambda cv=cv, j=j: build(mesh, form, spec, capture, cv, j)(xs, ws))
                for cv, j in itertools.product((True, False), (False, True))}
        show_group(f"{form:13} specs={spec!s:7} xs={x_how:8} ws={w_how:8} {capture:8}", runs, reference(capture))


if __name__ == "__main__":
    main()
