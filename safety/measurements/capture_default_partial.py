"""Issue 22 kind 3: a batched value bound to a shard_map body by a parameter default or `functools.partial`.

Run: `python safety/measurements/capture_default_partial.py` (8 virtual CPU devices; jax 0.10.2).

Under `jax.vmap(f, spmd_axis_name='x')` on `Mesh(devices.reshape(2, 4), ('x', 'y'))` (Auto), batch 4, one example
(8,), `f(a)` computes the batched `s = a.mean()` and applies `shard_map(BODY, in_specs=P('y'), out_specs=P('y'))`
to `a` (no spec names the spmd axis). BODY binds `s`:
- closure: `lambda b: b * s` (SPMD003's capture, the comparison);
- default: `lambda b, s=s: b * s`;
- partial keyword: `functools.partial(body, s=s)` with `def body(b, s): return b * s`;
- partial positional: `functools.partial(body_first, s)` with `def body_first(s, b): return b * s`;
- lifted: `shard_map(lambda b, t: b * t, in_specs=(P('y'), P()))(a, s)` (the lift-captures fix, the control).
Eager and under `jax.jit`, both `check_vma` values; also under a plain `jax.vmap` (no spmd_axis_name).
Reference: numpy, `a * a.mean()` per example.
"""

from __future__ import annotations

import functools
import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from _outcome import header, show_group

A = np.linspace(-1.0, 3.0, 32, dtype=np.float32).reshape(4, 8)
REF = A * A.mean(axis=1, keepdims=True)


def body(b, s):
    return b * s


def body_first(s, b):
    return b * s


BINDINGS = {
    "closure       lambda b: b * s": lambda s: lambda b: b * s,
    "default       lambda b, s=s: b * s": lambda s: lambda b, s=s: b * s,
    "partial kw    partial(body, s=s)": lambda s: functools.partial(body, s=s),
    "partial pos   partial(body_first, s)": lambda s: functools.partial(body_first, s),
    "lifted        operand, in_specs P()": None,
}


def program(mesh, binding, spmd, check_vma, jit):
    def f(a):
        s = a.mean()
        if BINDINGS[binding] is None:
            return jax.shard_map(body, mesh=mesh, in_specs=(P("y"), P()), out_specs=P("y"), check_vma=check_vma)(a, s)
        return jax.shard_map(BINDINGS[binding](s), mesh=mesh, in_specs=P("y"), out_specs=P("y"),
                             check_vma=check_vma)(a)

    g = jax.vmap(f, spmd_axis_name=spmd)
    return jax.jit(g) if jit else g


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("a batched value bound to a shard_map body by a default or a partial, under spmd_axis_name='x'", variants)
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    for binding, spmd in itertools.product(BINDINGS, ("x", None)):
        runs = {f"cv={cv} {'jit' if jit else 'eager'}": (lambda cv=cv, jit=jit: program(mesh, binding, spmd, cv, jit)(A))
                for cv, jit in itertools.product((True, False), (False, True))}
        show_group(f"{binding:40} {'spmd x' if spmd else 'plain vmap':10}", runs, REF)


if __name__ == "__main__":
    main()
