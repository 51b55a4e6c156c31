"""Fuzz seed 70093: a batched capture in a shard_map body reached through a higher-order function inside the
spmd vmap (`jax.lax.map(block, x)` with `batch_size=None`, a scan), and the other higher-order functions of the
walk (`jaxapi.HIGHER_ORDER_NAMES`) beside it.

Run: `python safety/measurements/capture_under_staging_hof.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = Mesh(devices.reshape(2, 4), ('x', 'y'))                 # Auto axes
    @partial(jax.vmap, spmd_axis_name='y')                         # a batch of 8 examples
    def apply(x, w):                                               # x (8, 8), w () per example
        def block(xi):                                             # xi (8,)
            m = xi.mean() + 2.0                                    # CAPTURE "inner": computed in the block
            body = lambda b: b * m      # or b * w                 # CAPTURE "outer": the vmapped function's w
            return shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=cv)(xi)
        return HOF(block, x)

Meshes: `Mesh(devices.reshape(2, 4), ('x', 'y'))` (Auto) and `jax.make_mesh((2, 4), ('x', 'y'))` with
Explicit axes, the batch and `w` placed on `'y'` there (and, in a last section, not placed); specs `P('x')` or
all-replicated `P()`.
HOF: `direct` (`jnp.stack([block(r) for r in x])`: no higher-order function, the control), `jit`
(`jax.vmap(jax.jit(block))`-free form: `jnp.stack([jax.jit(block)(r) for r in x])`), `lax.map` (batch_size
None: a scan), `lax.map batch_size=2` (a vmap over chunks), `lax.scan` (block applied to each row, no carry
use), `fori_loop` (rows updated one by one with `x.at[i].set(block(x[i]))`), `cond` (`lax.cond` on a traced
predicate choosing block or block), `switch` (`lax.switch` on the row's parity), `while_loop` (as
fori_loop), `vmap` (`jax.vmap(block)(x)`: an inner vmap, not staged), `checkpoint` (`jnp.stack([jax.checkpoint(block)(r) for r in x])`).
Variants: check_vma True/False, the vmapped function called eagerly or under `jax.jit`. Reference: numpy.
"""

from __future__ import annotations

import itertools
from functools import partial

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

from _outcome import header, show_group

X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
W = np.linspace(0.5, 2.0, 8, dtype=np.float32)
REF = {
    "inner": X * (X.mean(axis=2, keepdims=True) + 2.0),
    "outer": X * W[:, None, None],
}


def hof_apply(hof, block, x):
    """`block` applied to each row of `x` through the higher-order function `hof`."""
    rows = range(x.shape[0])
    if hof == "direct":
        return jnp.stack([block(x[i]) for i in rows])
    if hof == "jit":
        return jnp.stack([jax.jit(block)(x[i]) for i in rows])
    if hof == "checkpoint":
        return jnp.stack([jax.checkpoint(block)(x[i]) for i in rows])
    if hof == "lax.map":
        return jax.lax.map(block, x)
    if hof == "lax.map batch_size=2":
        return jax.lax.map(block, x, batch_size=2)
    if hof == "lax.scan":
        return jax.lax.scan(lambda c, r: (c, block(r)), 0.0, x)[1]
    if hof == "fori_loop":
        return jax.lax.fori_loop(0, x.shape[0], lambda i, acc: acc.at[i].set(block(acc[i])), x)
    if hof == "cond":
        return jnp.stack([jax.lax.cond(x[i].sum() > -1e9, block, block, x[i]) for i in rows])
    if hof == "switch":
        return jnp.stack([jax.lax.switch(jnp.int32(i % 2), [block, block], x[i]) for i in rows])
    if hof == "while_loop":
        step = lambda s: (s[0] + 1, s[1].at[s[0]].set(block(s[1][s[0]])))
        return jax.lax.while_loop(lambda s: s[0] < x.shape[0], step, (0, x))[1]
    if hof == "vmap":
        return jax.vmap(block)(x)
    raise ValueError(hof)


def build(mesh, spec, hof, capture, check_vma, jitted):
    def apply(x, w):
        def block(xi):
            m = xi.mean() + 2.0
            body = (lambda b: b * m) if capture == "inner" else (lambda b: b * w)
            return jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma)(xi)
        return hof_apply(hof, block, x)

    g = partial(jax.vmap, spmd_axis_name="y")(apply)
    return jax.jit(g) if jitted else g


def inputs(kind, mesh, spec):
    """The batch and `w`: as they are on the Auto mesh; on the Explicit mesh placed on the spmd axis `'y'`,
    each row's own dimension as `spec` says (JAX requires an Explicit shard_map input placed as its in_specs)."""
    if kind == "Auto":
        return X, W
    row = "x" if spec == P("x") else None
    return (jax.device_put(X, NamedSharding(mesh, P("y", None, row))),
            jax.device_put(W, NamedSharding(mesh, P("y"))))


def main() -> None:
    meshes = {
        "Auto": Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y")),
        "Explicit": jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Explicit)),
    }
    variants = [f"cv={cv} {'jit' if j else 'eager'}" for cv, j in itertools.product((True, False), (False, True))]
    header("a batched capture reached through a higher-order function inside the spmd vmap", variants)
    hofs = ("direct", "jit", "checkpoint", "lax.map", "lax.map batch_size=2", "lax.scan", "fori_loop", "cond",
            "switch", "while_loop", "vmap")
    for (kind, mesh), spec, hof, capture in itertools.product(
            meshes.items(), (P("x"), P()), hofs, ("inner", "outer")):
        x, w = inputs(kind, mesh, spec)
        runs = {f"cv={cv} {'jit' if j else 'eager'}":
                (lambda cv=cv, j=j: build(mesh, spec, hof, capture, cv, j)(x, w))
                for cv, j in itertools.product((True, False), (False, True))}
        show_group(f"{kind:8} specs={spec!s:7} {hof:21} capture {capture}", runs, REF[capture])
    # The Explicit mesh with the batch and `w` not placed (as they come from numpy).
    mesh = meshes["Explicit"]
    for spec, hof, capture in itertools.product((P("x"), P()), ("direct", "jit", "lax.map", "lax.scan"), ("inner", "outer")):
        runs = {f"cv={cv} {'jit' if j else 'eager'}":
                (lambda cv=cv, j=j: build(mesh, spec, hof, capture, cv, j)(X, W))
                for cv, j in itertools.product((True, False), (False, True))}
        show_group(f"Explicit unplaced specs={spec!s:7} {hof:12} capture {capture}", runs, REF[capture])


if __name__ == "__main__":
    main()
