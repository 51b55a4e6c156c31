"""Issue 22 (fuzz seeds 23243, 23306): a shard_map body closing over a value the vmapped function reduces to a
scalar from an input placed beyond its batch dimension, on an Explicit mesh with the batch on the spmd axis.

Run: `python safety/measurements/capture_reduced_placed_input.py` (8 virtual CPU devices; jax 0.10.2).

`jax.make_mesh((2, 4), ('x', 'y'))` (Explicit axes), `jax.vmap(apply, spmd_axis_name='y')`, batch 8 of examples
(8, 8); `xs` placed `P('y', 'x', None)` (the batch on the spmd axis, the first example dimension on 'x': beyond
the batch, as the body's `in_specs=P('x')` requires on an Explicit mesh). `apply(x)` computes a value `m` from `x` and
applies `shard_map(lambda b: (b * 2.0 + 1.0) * m, in_specs=P('x'), out_specs=P('x'))` to `x`. `m` is a full
reduction to a scalar (`x.mean() + 2.0`, `jnp.sum(x)`, `x.max() * 0.5`, `jnp.mean(x) + x.min()`), or keeps a
dimension (`x.mean(axis=1)`, `x.mean(axis=0)`, the unreduced `x * 2.0` broadcast against the block), or the
reduction happens inside the body (`jnp.sum(x)` read there, golden refuse/lift_capture_placed_beyond_batch's
form). Eager and under `jax.jit`, both `check_vma` values. Reference: numpy, per example.

Result (jax 0.10.2): with check_vma=True every full reduction to a scalar runs and matches, eager and under jit;
every value that keeps a dimension fails (`For primitive slice / broadcast_in_dim / reduce_sum, context mesh
...`), `x.mean(axis=0)` too. check_vma=False fails for all (eager: `out_specs argument must refer to an axis
marked as manual`; jit: `For primitive ..., context mesh`).
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from _outcome import header, show_group

X0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0

# name -> (what apply computes from x, what the body multiplies its block by given m, numpy per example)
CAPTURES = {
    "m = x.mean() + 2.0": (lambda x: x.mean() + 2.0, lambda m: m, lambda e: e.mean() + 2.0),
    "m = jnp.sum(x)": (lambda x: jnp.sum(x), lambda m: m, lambda e: e.sum()),
    "m = x.max() * 0.5": (lambda x: x.max() * 0.5, lambda m: m, lambda e: e.max() * 0.5),
    "m = jnp.mean(x) + x.min()": (lambda x: jnp.mean(x) + x.min(), lambda m: m, lambda e: e.mean() + e.min()),
    "m = x.mean(axis=1) (rank 1, dim 0 of x)": (lambda x: x.mean(axis=1), lambda m: m[:1, None], lambda e: e.mean(axis=1)[:1, None]),
    "m = x.mean(axis=0) (rank 1)": (lambda x: x.mean(axis=0), lambda m: m, lambda e: e.mean(axis=0)),
    "m = x * 2.0 (unreduced)": (lambda x: x * 2.0, lambda m: m[:1], lambda e: (e * 2.0)[:1]),
    "m = x, jnp.sum(m) in the body": (lambda x: x, lambda m: jnp.sum(m), lambda e: e.sum()),
}


def program(mesh, capture, check_vma, jit):
    make, use, _ = CAPTURES[capture]

    def apply(x):
        m = make(x)
        return jax.shard_map(lambda b: (b * 2.0 + 1.0) * use(m), mesh=mesh, in_specs=P("x"), out_specs=P("x"),
                             check_vma=check_vma)(x)

    f = jax.vmap(apply, spmd_axis_name="y")
    return jax.jit(f) if jit else f


def reference(capture):
    _, _, per_example = CAPTURES[capture]
    return np.stack([(e * 2.0 + 1.0) * per_example(e) for e in X0])


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("a capture reduced from an input placed beyond its batch, Explicit mesh, spmd_axis_name='y'", variants)
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    for capture in CAPTURES:
        runs = {}
        for cv, jit in itertools.product((True, False), (False, True)):
            def run(cv=cv, jit=jit):
                xs = jax.device_put(jnp.asarray(X0), NamedSharding(mesh, P("y", "x", None)))
                return program(mesh, capture, cv, jit)(xs)
            runs[f"cv={cv} {'jit' if jit else 'eager'}"] = run
        show_group(f"{capture:42}", runs, reference(capture))


if __name__ == "__main__":
    main()
