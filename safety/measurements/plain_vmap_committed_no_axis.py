"""Fuzz seed 380039 (a silence of issue 22): a plain `jax.vmap` (no spmd_axis_name) whose inputs are committed to
an Explicit mesh on no mesh axis at all (`xs` on `P(None, None)`, the batched `ws` on `P(None)`), the shard_map
body closing over `w`: JAX refuses it (`Closing over inputs to shard_map where the input is sharded on Explicit
axes`) while spmdfix, which analysed a plain vmap only when an input names a mesh axis, said nothing. Which
placements decide?

Run: `python safety/measurements/plain_vmap_committed_no_axis.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('x', 'y'))                       # Explicit axes (the default)
    def block(x, w):                                               # x (8,) w () per example
        s = CAPTURE
        return jax.shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=P(), out_specs=P())(x)
    jax.vmap(block)(xs, ws)                                        # or under jax.jit

XS: numpy, committed `P()`, committed `P(None, None)`. WS (batched, shape (8,)): numpy, `P()`, `P(None)`.
CAPTURE: `w` (the per-example value), `w.sum()` (a value computed from it), `none` (the control: `1.0`).
Reference: numpy.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from _outcome import header, show_group
from jax.sharding import NamedSharding, PartitionSpec as P

X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
W = np.linspace(0.5, 2.0, 8, dtype=np.float32)
SPECS = {"P()": P(), "P(None)": P(None), "P(None, None)": P(None, None)}


def put(mesh, a, how):
    return a if how == "numpy" else jax.device_put(a, NamedSharding(mesh, SPECS[how]))


def build(mesh, capture, jitted):
    def block(x, w):
        s = w if capture == "w" else w.sum() if capture == "w.sum()" else 1.0
        return jax.shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=P(), out_specs=P())(x)

    f = jax.vmap(block)
    return jax.jit(f) if jitted else f


def main() -> None:
    header("a plain vmap, inputs committed to an Explicit mesh on no mesh axis, a capture", ["eager", "jit"])
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    for xs_how, ws_how, capture in itertools.product(("numpy", "P()", "P(None, None)"), ("numpy", "P()", "P(None)"),
                                                     ("w", "w.sum()", "none")):
        xs, ws = put(mesh, X, xs_how), put(mesh, W, ws_how)
        reference = (X * 2.0 + 1.0) * (W[:, None] if capture != "none" else 1.0)
        runs = {"eager" if not j else "jit": (lambda j=j, c=capture, xs=xs, ws=ws: build(mesh, c, j)(xs, ws))
                for j in (False, True)}
        show_group(f"xs={xs_how:13} ws={ws_how:8} {capture:8}", runs, reference)


if __name__ == "__main__":
    main()
