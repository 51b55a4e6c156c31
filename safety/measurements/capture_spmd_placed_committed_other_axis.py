"""Fuzz seed 370317 (a false positive of SPMD003): under a vmap with `spmd_axis_name='x'` and the batch placed on
the Explicit spmd axis, a shard_map whose in_specs name another axis (`P('y')`, check_vma on) closes over `w`,
an argument the vmap does not map (`in_axes=(0, None)`) that the call commits to the mesh. The rule's own
message said such a capture runs "when check_vma=True and the in_specs name a mesh axis besides the spmd ones",
but only the reduced scalar `w.sum()` was measured (capture_staged_spmd_placed_unbatched_arg.py); the fuzz
program captures a 0-d `w` directly. Which committed captures run there?

Run: `python safety/measurements/capture_spmd_placed_committed_other_axis.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('x', 'y'))                   # Explicit axes (the default)
    def block(x, w):                                           # x (8,) per example
        return shard_map(lambda b: (b * 2.0 + 1.0) * CAPTURE, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         check_vma=cv)(x)
    jax.vmap(block, in_axes=(0, None), spmd_axis_name='x')(xs, ws)    # xs on P('x', 'y'); or under jax.jit

FORM: `direct`, `jit_block` (`@jax.jit` on block, as the fuzz program). CAPTURE (W the unbatched argument):
`w0` (W is 0-d, captured itself), `w0*2` (a value computed from the 0-d W), `w[:2]` (W shape (8,), a slice the
size of the block), `w.sum()` (the control measured before). WS: W committed `P()`, `P(None)` (rank 1 only),
`P('y')` (rank 1 only), or `unplaced` (numpy: the control). Variants: check_vma True/False, eager or jit.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from _outcome import header, show_group

X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
W8 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
W0 = np.float32(1.5)
FORMS = ("direct", "jit_block")
CAPTURES = ("w0", "w0*2", "w[:2]", "w.sum()")
WS = ("P()", "P(None)", "P('y')", "unplaced")


def _w(capture):
    return W0 if capture.startswith("w0") else W8


def _captured(capture, w):
    return {"w0": lambda: w, "w0*2": lambda: w * 2.0, "w[:2]": lambda: w[:2], "w.sum()": lambda: w.sum()}[capture]()


def reference(capture):
    w = _w(capture)
    if capture == "w[:2]":
        return (X * 2 + 1) * np.tile(w[:2], 4)[None, :]
    return (X * 2 + 1) * np.float32(_captured(capture, w))


def build(mesh, form, capture, cv, jitted):
    def block(x, w):
        s = _captured(capture, w)
        return jax.shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=P("y"), out_specs=P("y"),
                             check_vma=cv)(x)

    if form == "jit_block":
        block = jax.jit(block)
    g = jax.vmap(block, in_axes=(0, None), spmd_axis_name="x")
    return jax.jit(g) if jitted else g


def main() -> None:
    variants = [f"cv={cv} {'jit' if j else 'eager'}" for cv, j in itertools.product((True, False), (False, True))]
    header("a committed unmapped argument captured under in_specs naming another axis, batch on the spmd axis",
           variants)
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    placements = {"P()": P(), "P(None)": P(None), "P('y')": P("y")}
    xs = jax.device_put(X, NamedSharding(mesh, P("x", "y")))
    for form, capture, w_how in itertools.product(FORMS, CAPTURES, WS):
        w = _w(capture)
        if w.ndim == 0 and w_how in ("P(None)", "P('y')"):
            continue  # a 0-d array has no dimension to place
        ws = jax.device_put(w, NamedSharding(mesh, placements[w_how])) if w_how in placements else w
        runs = {
            f"cv={cv} {'jit' if j else 'eager'}": (lambda cv=cv, j=j, form=form, capture=capture, ws=ws:
                                                   build(mesh, form, capture, cv, j)(xs, ws))
            for cv, j in itertools.product((True, False), (False, True))
        }
        show_group(f"{form:10} {capture:8} ws={w_how:8}", runs, reference(capture))


if __name__ == "__main__":
    main()
