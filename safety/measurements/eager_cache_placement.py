"""A hazard for measurements: on an Explicit mesh, an eager call's outcome can depend on earlier calls of the
same function object.

Run: `python safety/measurements/eager_cache_placement.py` (8 virtual CPU devices; jax 0.10.2).

Found while measuring issue 20 (cross_module_add_axis.py). `mesh = jax.make_mesh((1, 2, 4), ('batch', 'data',
'model'))` (Explicit), `step = jax.vmap(forward, in_axes=(0, None), spmd_axis_name='batch')` with `forward` a
shard_map `in_specs=(P('data', None), P(None, 'model'))`, `out_specs=P('data', 'model')`; the batch xs (4, 8,
16) placed `P('batch', 'data', None)` ("placed", runs) or `P(None, 'data', None)` ("unplaced", which raises
the in_specs mismatch when it is the first call). Each SEQUENCE of eager calls runs on one fresh function object
("same") or on a fresh object per call ("fresh": a new `jax.vmap(...)`; one row keeps the vmapped `forward`
shared and makes only the vmap new, which is enough); also a shard_map without a vmap, first called on its in_specs'
placement `P('data', None)` and then on `P(None, None)`. Each line prints the outcome of each call in order.
So every measurement script here builds a new function object for each variant it runs.

Part 2 re-runs the grid of `add_axis_explicit_calls.py` (docs/safety.md, "add-axis on an Explicit mesh"): a
shard_map over `make_mesh((2, 4), ('x', 'y'))` with specs `P('x')` under spmd 'x' (before) and after add-axis,
input (8, 8) placed six ways, eager then jit per placement, in that script's order on ONE function object per
mesh ("reused", as that script does) and on a fresh one per call ("fresh"); a line per call, marked `DIFFERS`
where the two disagree.
"""

from __future__ import annotations

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from _outcome import header, outcome

MESH = jax.make_mesh((1, 2, 4), ("batch", "data", "model"))
XS = (np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7) / 4.0
W = (np.arange(16 * 8, dtype=np.float32).reshape(16, 8) % 5) / 3.0
W_PLACED = jax.device_put(W, NamedSharding(MESH, P(None, "model")))


def make_step():
    def forward(x, w):
        return jax.shard_map(lambda a, b: a @ b, mesh=MESH, in_specs=(P("data", None), P(None, "model")),
                             out_specs=P("data", "model"))(x, w)
    return jax.vmap(forward, in_axes=(0, None), spmd_axis_name="batch")


def _forward(x, w):
    return jax.shard_map(lambda a, b: a @ b, mesh=MESH, in_specs=(P("data", None), P(None, "model")),
                         out_specs=P("data", "model"))(x, w)


def make_step_shared_forward():
    """A new `jax.vmap` object around one shared `forward`."""
    return jax.vmap(_forward, in_axes=(0, None), spmd_axis_name="batch")


def make_plain():
    return jax.shard_map(lambda a: a * 2.0, mesh=MESH, in_specs=P("data", None), out_specs=P("data", None))


def sequence(factory, calls, fresh):
    fn = factory()
    results = []
    for name, args, ref in calls:
        f = factory() if fresh else fn
        results.append(f"{name}: {outcome(lambda: f(*args()), ref)[:60]}")
    return " | ".join(results)


def main() -> None:
    header("eager outcomes on an Explicit mesh that depend on earlier calls of the same function")
    placed = ("placed", lambda: (jax.device_put(XS, NamedSharding(MESH, P("batch", "data", None))), W_PLACED), XS @ W)
    unplaced = ("unplaced", lambda: (jax.device_put(XS, NamedSharding(MESH, P(None, "data", None))), W_PLACED), XS @ W)
    one = XS[0]
    on_spec = ("P('data', None)", lambda: (jax.device_put(one, NamedSharding(MESH, P("data", None))),), one * 2)
    off_spec = ("P(None, None)", lambda: (jax.device_put(one, NamedSharding(MESH, P(None, None))),), one * 2)
    for label, factory, calls in (
            ("spmd vmap, unplaced then placed then unplaced", make_step, (unplaced, placed, unplaced)),
            ("spmd vmap, placed then unplaced", make_step, (placed, unplaced)),
            ("spmd vmap of one shared forward, placed, unplaced", make_step_shared_forward, (placed, unplaced)),
            ("shard_map alone, on its spec then off it", make_plain, (off_spec, on_spec, off_spec))):
        for fresh in (False, True):
            print(f"{label:48} {'fresh' if fresh else 'same ':5}  {sequence(factory, calls, fresh)}", flush=True)
    print("-- part 2: add_axis_explicit_calls.py's grid, one reused function per mesh against a fresh one per call")
    explicit_calls_grid()


def explicit_calls_grid() -> None:
    xs = np.arange(64, dtype=np.float32).reshape(8, 8)
    ref = xs * 2 + 1
    placements = (P(None, "x"), P("x", None), P("y", "x"), P("x", "y"), P(None, None), P("y", None))
    for label, shape, names, spmd in (("before", (2, 4), ("x", "y"), "x"),
                                      ("after add-axis", (1, 2, 4), ("batch", "x", "y"), "batch")):
        mesh = jax.make_mesh(shape, names)

        def mapped_fn(mesh=mesh, spmd=spmd):
            layer = lambda x: jax.shard_map(lambda v: v * 2.0 + 1.0, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)
            return jax.vmap(layer, spmd_axis_name=spmd)

        reused = mapped_fn()
        for place in placements:
            placed = jax.device_put(xs, NamedSharding(mesh, place))
            for mode in ("eager", "jit"):
                wrap = (lambda f: f) if mode == "eager" else jax.jit
                old = outcome(lambda: wrap(reused)(placed), ref)
                new = outcome(lambda: wrap(mapped_fn())(placed), ref)
                mark = "same   " if old == new else "DIFFERS"
                print(f"{label:14} {mode:5} placed {place!s:14} {mark} reused: {old[:70]:70} fresh: {new[:70]}",
                      flush=True)


if __name__ == "__main__":
    main()
