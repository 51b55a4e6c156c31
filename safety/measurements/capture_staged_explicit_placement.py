"""Fuzz seed 70430: a shard_map body closing over a value the spmd vmap batches, reached through a staging
function (`@jax.jit` on the function applying the shard_map, `jax.jit(shard_map(...))`, `jax.checkpoint`,
`jax.lax.map`) on an Explicit mesh, the batch NOT placed on the spmd axis: which placements of the captured
value's inputs fail, and with which error.

Run: `python safety/measurements/capture_staged_explicit_placement.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('x', 'y'))                       # Explicit axes (the default)
    @jax.jit                                                       # FORM jit_block (the seed's)
    def block(x, w):                                               # x (8,), w () per example
        s = CAPTURE                                                # w (free or `lambda b, w=w:`), x.mean() + 2.0
        return shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=SPEC, out_specs=SPEC, check_vma=cv)(x)
    jax.vmap(lambda x, w: block(x, w), spmd_axis_name='x')(xs, ws) # xs (8, 8), ws (8,); or under jax.jit

FORM: `direct` (no staging: the control), `jit_block`, `jit_shard_map` (`jax.jit(shard_map(...))(x)`),
`checkpoint` (`jax.checkpoint(block)`), `lax.map` (`jax.lax.map(block_of_row, x[None])[0]`: a scan over one row).
SPEC: `P('x')` (names the spmd axis: SPMD001/002, the seed's), `P('y')`, `P()`. PLACEMENT of xs / ws:
`spmd` (both on `'x'` at the batch dimension: the control of the placed batch), `none` (`P(None, e)` / `P(None)`,
e the spec's entry: the seed's), `replicated` (`P()` both), `none/unplaced` (xs `P(None, e)`, ws numpy),
`unplaced/none` (xs numpy, ws `P(None)`), `unplaced` (both numpy). CAPTURE: `w` (free), `w=w` (a parameter
default), `x.mean()` (computed from the batch), `lifted` (the control: `w` a `P()` operand of the shard_map).
The last section repeats `none` and `unplaced` on the one-axis Explicit mesh `make_mesh((2,), ('x',))` with
specs `P()`. Variants: check_vma True/False, the vmap called eagerly or under `jax.jit`. Reference: numpy.
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
REF = {"x.mean()": (X * 2 + 1) * (X.mean(axis=1, keepdims=True) + 2.0)}
FORMS = ("direct", "jit_block", "jit_shard_map", "checkpoint", "lax.map")
CAPTURES = ("w", "w=w", "x.mean()", "lifted")
PLACEMENTS = ("spmd", "none", "replicated", "none/unplaced", "unplaced/none", "unplaced")


def reference(capture):
    return REF.get(capture, (X * 2 + 1) * W[:, None])


def build(mesh, form, spec, capture, cv, jitted):
    """The spmd vmap (`'x'`) over a function reaching the capturing shard_map as `form` says."""
    def block(x, w):
        if capture == "lifted":
            shard = jax.shard_map(lambda b, v: (b * 2.0 + 1.0) * v, mesh=mesh, in_specs=(spec, P()),
                                  out_specs=spec, check_vma=cv)
            args = (x, w)
        else:
            s = x.mean() + 2.0 if capture == "x.mean()" else w
            body = (lambda b, s=s: (b * 2.0 + 1.0) * s) if capture == "w=w" else (lambda b: (b * 2.0 + 1.0) * s)
            shard = jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv)
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
    g = jax.vmap(apply, spmd_axis_name="x")
    return jax.jit(g) if jitted else g


def inputs(mesh, spec, placement):
    """xs and ws placed as `placement` says (the example dimension of xs on the spec's entry)."""
    entry = spec[0] if len(spec) else None
    placed_x = {"spmd": P("x", entry), "none": P(None, entry), "replicated": P()}
    placed_w = {"spmd": P("x"), "none": P(None), "replicated": P()}
    x_how, _, w_how = placement.partition("/")
    w_how = w_how or x_how
    xs = jax.device_put(X, NamedSharding(mesh, placed_x[x_how])) if x_how in placed_x else X
    ws = jax.device_put(W, NamedSharding(mesh, placed_w[w_how])) if w_how in placed_w else W
    return xs, ws


def show(mesh, label, form, spec, placement, capture):
    xs, ws = inputs(mesh, spec, placement)
    runs = {f"cv={cv} {'jit' if j else 'eager'}": (lambda cv=cv, j=j: build(mesh, form, spec, capture, cv, j)(xs, ws))
            for cv, j in itertools.product((True, False), (False, True))}
    show_group(f"{label}{form:13} specs={spec!s:7} {placement:13} {capture:8}", runs, reference(capture))


def main() -> None:
    variants = [f"cv={cv} {'jit' if j else 'eager'}" for cv, j in itertools.product((True, False), (False, True))]
    header("a batched capture reached through a staging function on an Explicit mesh, by placement", variants)
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    for form, spec, placement, capture in itertools.product(FORMS, (P("x"), P("y"), P()), PLACEMENTS, CAPTURES):
        if placement == "spmd" and spec == P("x"):
            continue  # P('x', 'x') is not a sharding
        show(mesh, "", form, spec, placement, capture)
    one_axis = jax.make_mesh((2,), ("x",))
    for form, placement, capture in itertools.product(FORMS, ("none", "unplaced"), ("w", "lifted")):
        show(one_axis, "(2,) x ", form, P(), placement, capture)


if __name__ == "__main__":
    main()
