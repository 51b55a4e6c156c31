"""Issue 22 kind 7: `jax.lax.map(g, xs, batch_size=k)` between the spmd vmap and a shard_map, and a `jax.smap`
whose `in_axes` is omitted (inferred from the arguments' shardings).

Run: `python safety/measurements/lax_map_and_smap_infer.py` (8 virtual CPU devices; jax 0.10.2).

Part 1: `mesh = Mesh(devices.reshape(2, 4), ('x', 'y'))` (Auto), batch 4, one example (4, 8),
`jax.vmap(f, spmd_axis_name='x')` with `f(v) = jax.lax.map(g, v, batch_size=K)` and
`g = shard_map(BODY, in_specs=P('y'), out_specs=P('y'), check_vma=cv)` applied to one row (8,). K = None (a
scan), 1, 2, 3 (a remainder) and 4 (one chunk of the whole example); BODY binary `b * 2 + 1` (hazard H2 when
an inner vmap sits between) or unary `jnp.sin(b)`. Also under a plain vmap. Reference: numpy.

Part 2: `jax.smap(lambda b: b * 2 + 1, out_axes=0, axis_name='y')` (in_axes omitted) under
`jax.vmap(f, spmd_axis_name='x')` on `jax.make_mesh((2, 4), ('x', 'y'))` (Explicit, installed by
`jax.set_mesh`), batch 4, one example (8,), the batch placed `P('x', 'y')` (on the spmd axis, examples on
'y'), `P('x', None)`, `P(None, 'y')`, or unplaced; the same smap with `in_axes=0`; under a plain vmap; and on
the Auto `make_mesh`. smap always checks (no check_vma argument): eager and under `jax.jit`. Reference: numpy
`x * 2 + 1` for the plain-vmap rows; for the spmd rows, the plain vmap of the same program and placement when it
runs (an smap whose inferred in_axes is None tiles its output over 'y': shape (4, 32), the program's own
meaning), else numpy.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

from _outcome import header, show_group, value

X1 = (np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) - 50.0) / 40.0
X2 = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 5.0
BODIES = {"b * 2 + 1": (lambda b: b * 2.0 + 1.0, lambda a: a * 2 + 1),
          "jnp.sin(b)": (jnp.sin, np.sin)}


def lax_map_program(body, batch_size, spmd, check_vma, jit):
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    g = jax.shard_map(BODIES[body][0], mesh=mesh, in_specs=P("y"), out_specs=P("y"), check_vma=check_vma)
    f = jax.vmap(lambda v: jax.lax.map(g, v, batch_size=batch_size), spmd_axis_name=spmd)
    return jax.jit(f) if jit else f


def smap_run(axis_types, placement, in_axes, spmd, jit):
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=axis_types)
    kw = {} if in_axes == "omitted" else {"in_axes": in_axes}
    with jax.set_mesh(mesh):
        xs = X2 if placement is None else jax.device_put(X2, NamedSharding(mesh, placement))
        f = lambda v: jax.smap(lambda b: b * 2.0 + 1.0, out_axes=0, axis_name="y", **kw)(v)
        g = jax.vmap(f, spmd_axis_name=spmd)
        return (jax.jit(g) if jit else g)(xs)


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("lax.map(batch_size=k) under the spmd vmap; smap with in_axes omitted", variants)
    print("-- part 1: jax.lax.map between jax.vmap(spmd_axis_name='x') and a shard_map over 'y'")
    for body, batch_size, spmd in itertools.product(BODIES, (None, 1, 2, 3, 4), ("x", None)):
        ref = BODIES[body][1](X1)
        runs = {f"cv={cv} {'jit' if jit else 'eager'}":
                (lambda cv=cv, jit=jit: lax_map_program(body, batch_size, spmd, cv, jit)(X1))
                for cv, jit in itertools.product((True, False), (False, True))}
        show_group(f"BODY {body:10} batch_size={batch_size!s:5} {'spmd x' if spmd else 'plain vmap':10}", runs, ref)
    print("-- part 2: jax.smap over 'y' under jax.vmap(spmd_axis_name='x'); [all] = eager and jit")
    explicit, auto = (AxisType.Explicit,) * 2, (AxisType.Auto,) * 2
    placements = {"P('x', 'y')": P("x", "y"), "P('x', None)": P("x", None), "P(None, 'y')": P(None, "y"),
                  "unplaced": None}
    for (kind, types), in_axes, (pname, placement), spmd in itertools.product(
            (("Explicit", explicit), ("Auto", auto)), ("omitted", 0), placements.items(), ("x", None)):
        runs = {mode: (lambda jit=(mode == "jit"): smap_run(types, placement, in_axes, spmd, jit))
                for mode in ("eager", "jit")}
        ref = X2 * 2 + 1
        if spmd is not None:
            plain = value(lambda: np.asarray(smap_run(types, placement, in_axes, None, False)))
            ref = ref if isinstance(plain, str) else plain
        show_group(f"{kind:8} in_axes={in_axes!s:7} batch {pname:12} {'spmd x' if spmd else 'plain vmap':10}",
                   runs, ref)


if __name__ == "__main__":
    main()
