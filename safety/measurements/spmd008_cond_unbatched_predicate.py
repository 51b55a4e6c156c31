"""Issue 22 review item: SPMD008 under `jax.lax.cond` / `jax.lax.switch` on a predicate (index) the spmd vmap does
not batch, next to a batched one, the direct call and `jax.jit`.

Run: `python safety/measurements/spmd008_cond_unbatched_predicate.py` (8 virtual CPU devices; jax 0.10.2).

Part 1 (hazard H4, partial-manual): `mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=Auto or Explicit)`,
`g = shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), axis_names={'y'},
check_vma=cv)` under `jax.vmap(f, spmd_axis_name='x')`, batch 4 of rows (8,) (on the Explicit mesh placed
`P('x', None)`, the placement the eager Explicit form needs). WAY: `g(v)` directly, `jax.jit(g)(v)`,
`lax.cond(True, g, neg, v)` (a literal: unbatched), `lax.cond(K > 0, ...)` with `K` a module constant,
`lax.cond(v.shape[0] > 1, ...)` (static; also `v.ndim == 1`, `len(v) > 1`, `v.shape[-1] >= 8`, `v.shape[0] > K`,
`not v.ndim != 1 and v.shape[0] < 99`, and `lax.switch(len(v) - 8, ...)`), `lax.cond(v.sum() > 0, ...)` (batched), `lax.switch(0, [g, neg], v)`,
`lax.switch(jnp.int32(v.sum() > 0), ...)` (batched). The predicate is true for every example, so the reference is
`x * 2 + 1`.

Part 2 (SPMD008's eager `check_vma=False` case): the same ways with `axis_names` omitted (all axes manual),
specs `P()` and `P('y')`, Explicit mesh, batch placed `P('x', None)`, called eagerly and under jit.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from _outcome import header, show_group
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

X = np.linspace(0.5, 2.0, 32, dtype=np.float32).reshape(4, 8)
K = 3


def neg(v):
    return -v


WAYS = {
    "direct": lambda g, v: g(v),
    "jit": lambda g, v: jax.jit(g)(v),
    "cond(True)": lambda g, v: jax.lax.cond(True, g, neg, v),
    "cond(K > 0)": lambda g, v: jax.lax.cond(K > 0, g, neg, v),
    "cond(v.shape[0] > 1)": lambda g, v: jax.lax.cond(v.shape[0] > 1, g, neg, v),
    "cond(v.ndim == 1)": lambda g, v: jax.lax.cond(v.ndim == 1, g, neg, v),
    "cond(len(v) > 1)": lambda g, v: jax.lax.cond(len(v) > 1, g, neg, v),
    "cond(v.shape[-1] >= 8)": lambda g, v: jax.lax.cond(v.shape[-1] >= 8, g, neg, v),
    "cond(v.shape[0] > K)": lambda g, v: jax.lax.cond(v.shape[0] > K, g, neg, v),
    "cond(not v.ndim != 1 and v.shape[0] < 99)": lambda g, v: jax.lax.cond(not v.ndim != 1 and v.shape[0] < 99, g, neg, v),
    "switch(len(v) - 8)": lambda g, v: jax.lax.switch(len(v) - 8, [g, neg], v),
    "cond(v.sum() > 0) batched": lambda g, v: jax.lax.cond(v.sum() > 0, g, neg, v),
    "switch(0)": lambda g, v: jax.lax.switch(0, [g, neg], v),
    "switch(int(v.sum() < 0)) batched": lambda g, v: jax.lax.switch(jnp.int32(v.sum() < 0), [g, neg], v),
}


def run(kind, spec, axis_names, way, check_vma, jit):
    types = (AxisType.Explicit,) * 2 if kind == "Explicit" else (AxisType.Auto,) * 2
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=types)
    kw = {} if axis_names is None else {"axis_names": axis_names}
    g = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma, **kw)
    f = jax.vmap(lambda v: WAYS[way](g, v), spmd_axis_name="x")
    xs = jax.device_put(X, NamedSharding(mesh, P("x", None))) if kind == "Explicit" else X
    return (jax.jit(f) if jit else f)(xs)


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("SPMD008 under lax.cond / lax.switch on an unbatched predicate", variants)
    ref = X * 2 + 1
    print("-- part 1: axis_names={'y'} (the spmd axis 'x' left out), specs P('y')")
    for kind, way in itertools.product(("Auto", "Explicit"), WAYS):
        runs = {f"cv={cv} {'jit' if jit else 'eager'}":
                (lambda cv=cv, jit=jit, k=kind, w=way: run(k, P("y"), {"y"}, w, cv, jit))
                for cv, jit in itertools.product((True, False), (False, True))}
        show_group(f"{kind:8} {way:42}", runs, ref)
    print("-- part 2: all axes manual, Explicit mesh, batch placed P('x', None)")
    for (sname, spec), way in itertools.product((("P()", P()), ("P('y')", P("y"))), WAYS):
        runs = {f"cv={cv} {'jit' if jit else 'eager'}":
                (lambda cv=cv, jit=jit, s=spec, w=way: run("Explicit", s, None, w, cv, jit))
                for cv, jit in itertools.product((True, False), (False, True))}
        show_group(f"{sname:7} {way:42}", runs, ref)


if __name__ == "__main__":
    main()
