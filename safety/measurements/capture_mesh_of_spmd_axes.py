"""Fuzz seed 80604: a shard_map body closing over a value the spmd vmap batches, on an Explicit mesh whose axes
are all spmd axes (`jax.make_mesh((2,), ('x',), axis_types=(AxisType.Explicit,))` under `spmd_axis_name='x'`),
all-replicated specs `P()`, the batch placed on the spmd axis, the vmap under `@jax.jit`.

Run: `python safety/measurements/capture_mesh_of_spmd_axes.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh(SHAPE, NAMES, axis_types=TYPES)
    def apply(x, w):                                   # x (8,), w () per example (w (8,) for "vector")
        s = CAPTURE                                    # w, jnp.exp(w), x.mean() + 2.0, an np.linspace array
        return shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=cv)(x)
    jax.vmap(apply, spmd_axis_name=SPMD)(xs, ws)       # xs (8, 8), ws (8,); or under jax.jit, or
                                                       # @jax.jit over @partial(jax.vmap, ...) (the seed's form)

Meshes: every axis an spmd axis (`(2,)` and `(8,)` over `'x'`, spmd `'x'`; `(2, 4)` over `('x', 'y')`, spmd
`('x', 'y')`), and as controls meshes with an axis besides the spmd one (`(2, 4)` and `(2, 1)` over
`('x', 'y')`, spmd `'x'`; `'y'` Explicit or Auto) and the Auto `(2,)` mesh. The batch and `w` placed on the
spmd axes (`device_put(xs, NamedSharding(mesh, P(SPMD, None)))`, `ws` on `P(SPMD)`), or not placed (numpy).
CAPTURE `lifted` is the control: `w` passed to the body as a `P()` operand instead of closed over.
Forms: `direct` (the shard_map in the vmapped function), `jit_block` (`apply` calls a `@jax.jit` function that
applies the shard_map), `jit_shard_map` (`jax.jit(shard_map(...))(x)`). Variants: check_vma True/False; the
vmap called eagerly, as `jax.jit(jax.vmap(...))`, or with `@jax.jit` stacked above the vmap decorator.
Reference: numpy.
"""

from __future__ import annotations

import itertools
from functools import partial

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

from _outcome import header, show_group

E, A = AxisType.Explicit, AxisType.Auto
X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
W = np.linspace(0.5, 2.0, 8, dtype=np.float32)
W_VECTOR = np.linspace(0.5, 2.0, 64, dtype=np.float32).reshape(8, 8)
ARRAY = np.linspace(0.5, 1.5, 8, dtype=np.float32)
REF = {
    "w": (X * 2 + 1) * W[:, None],
    "vector": (X * 2 + 1) * W_VECTOR,
    "exp(w)": (X * 2 + 1) * np.exp(W)[:, None],
    "x.mean()": (X * 2 + 1) * (X.mean(axis=1, keepdims=True) + 2.0),
    "array": (X * 2 + 1) * ARRAY,
    "lifted": (X * 2 + 1) * W[:, None],
}
# (label, mesh shape, axis names, axis types, spmd_axis_name)
MESHES = (
    ("(2,) x, spmd x", (2,), ("x",), (E,), "x"),
    ("(8,) x, spmd x", (8,), ("x",), (E,), "x"),
    ("(2,4) x,y, spmd (x,y)", (2, 4), ("x", "y"), (E, E), ("x", "y")),
    ("(2,4) x,y, spmd x", (2, 4), ("x", "y"), (E, E), "x"),
    ("(2,1) x,y, spmd x", (2, 1), ("x", "y"), (E, E), "x"),
    ("(2,4) x=E,y=A, spmd x", (2, 4), ("x", "y"), (E, A), "x"),
    ("(2,) x Auto, spmd x", (2,), ("x",), (A,), "x"),
)
ALL_SPMD = {"(2,) x, spmd x", "(8,) x, spmd x", "(2,4) x,y, spmd (x,y)"}


def build(mesh, spmd, form, capture, cv, call):
    """The spmd vmap over `apply`, whose shard_map body closes over `capture` (or takes `w` as an operand,
    `lifted`), reached as `form` says; `call` is eager, jit or jit-above (the decorator spelling)."""
    def block(x, w):
        if capture == "lifted":
            shard = jax.shard_map(lambda b, v: (b * 2.0 + 1.0) * v, mesh=mesh, in_specs=(P(), P()),
                                  out_specs=P(), check_vma=cv)
            args = (x, w)
        else:
            s = {"w": w, "vector": w, "array": ARRAY}.get(capture)
            if capture == "exp(w)":
                s = jnp.exp(w)
            elif capture == "x.mean()":
                s = x.mean() + 2.0
            shard = jax.shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=cv)
            args = (x,)
        if form == "jit_shard_map":
            shard = jax.jit(shard)
        return shard(*args)

    if form == "jit_block":
        block = jax.jit(block)

    if call == "jit-above":
        @jax.jit
        @partial(jax.vmap, spmd_axis_name=spmd)
        def apply(x, w):
            return block(x, w)
        return apply

    def apply(x, w):  # noqa: F811 - the plain spelling
        return block(x, w)
    g = jax.vmap(apply, spmd_axis_name=spmd)
    return jax.jit(g) if call == "jit" else g


def inputs(mesh, spmd, capture, placed):
    """xs and ws, placed on the spmd axes (`P(spmd, None)`, `P(spmd)`) or as numpy arrays."""
    ws = W_VECTOR if capture == "vector" else W
    if not placed:
        return X, ws
    batch = spmd if isinstance(spmd, str) else tuple(spmd)
    w_spec = P(batch, None) if capture == "vector" else P(batch)
    return (jax.device_put(X, NamedSharding(mesh, P(batch, None))), jax.device_put(ws, NamedSharding(mesh, w_spec)))


def main() -> None:
    calls = ("eager", "jit", "jit-above")
    variants = [f"cv={cv} {c}" for cv, c in itertools.product((True, False), calls)]
    header("a batched capture under P() specs on meshes whose axes are all spmd axes, and controls", variants)
    for label, shape, names, types, spmd in MESHES:
        mesh = jax.make_mesh(shape, names, axis_types=types)
        captures = tuple(REF) if label in ALL_SPMD else ("w", "lifted")
        forms = ("direct", "jit_block", "jit_shard_map") if label in ALL_SPMD else ("direct",)
        for form, capture, placed in itertools.product(forms, captures, (True, False)):
            xs, ws = inputs(mesh, spmd, capture, placed)
            runs = {f"cv={cv} {c}": (lambda cv=cv, c=c: build(mesh, spmd, form, capture, cv, c)(xs, ws))
                    for cv, c in itertools.product((True, False), calls)}
            where = "placed" if placed else "unplaced"
            show_group(f"{label:22} {form:13} {capture:8} {where:8}", runs, REF[capture])


if __name__ == "__main__":
    main()
