"""Fuzz seeds 60501, 60518: a shard_map wrapped in `jax.jit` (`jax.jit(shard_map(body, ...))(x)`) whose body
closes over a value the spmd vmap batches, on an Explicit mesh with the batch placed on the spmd axis.

Run: `python safety/measurements/capture_jit_of_shard_map_explicit.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('x', 'y'))                       # Explicit axes (the default)
    def apply(x, w):                                               # x (8,), w () per example
        body = lambda b: b * w        # or `lambda b, w=w: b * w`  # CAPTURE free / default
        return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=SPEC, out_specs=SPEC, check_vma=cv))(x)
    jax.vmap(apply, spmd_axis_name='x')(xs, ws)                    # xs (8, 8), ws (8,)

The batch and `w` placed on `'x'` (`device_put` or `reshard` under `jax.set_mesh`: the same placement), or not
placed (numpy inputs); SPEC `P()` (all-replicated) or `P('y')`; the Auto mesh `Mesh(devices.reshape(2, 4),
('x', 'y'))` as the control (golden/clean/capture_under_jit_of_shard_map). Variants: check_vma True/False,
the vmap called eagerly or under `jax.jit`. Reference: numpy.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from _outcome import header, show_group

X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
W = np.linspace(0.5, 2.0, 8, dtype=np.float32)
REF = X * W[:, None]


def build(mesh, spec, capture, cv, jitted):
    """The spmd vmap over `apply`, whose jitted shard_map body closes over `w` (`capture`)."""
    def apply(x, w):
        if capture == "free":
            body = lambda b: b * w  # noqa: E731
        else:
            body = lambda b, w=w: b * w  # noqa: E731
        return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv))(x)
    g = jax.vmap(apply, spmd_axis_name="x")
    return jax.jit(g) if jitted else g


def main() -> None:
    explicit = jax.make_mesh((2, 4), ("x", "y"))
    auto = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    variants = [f"cv={cv} {'jit' if j else 'eager'}" for cv, j in itertools.product((True, False), (False, True))]
    header("a batched capture in a jax.jit(shard_map(...)) body under the spmd vmap", variants)
    placed = {
        "Explicit placed": (explicit, lambda spec: (
            jax.device_put(X, NamedSharding(explicit, P("x", "y" if spec == P("y") else None))),
            jax.device_put(W, NamedSharding(explicit, P("x"))))),
        "Explicit unplaced": (explicit, lambda spec: (X, W)),
        "Auto": (auto, lambda spec: (X, W)),
    }
    for (kind, (mesh, make)), spec, capture in itertools.product(placed.items(), (P(), P("y")), ("free", "default")):
        x, w = make(spec)
        runs = {f"cv={cv} {'jit' if j else 'eager'}": (lambda cv=cv, j=j: build(mesh, spec, capture, cv, j)(x, w))
                for cv, j in itertools.product((True, False), (False, True))}
        show_group(f"{kind:17} specs={spec!s:7} capture {capture}", runs, REF)


if __name__ == "__main__":
    main()
