"""A hazard for measurements: on an Explicit mesh, an eager call's outcome can depend on earlier calls of the
same function object.

Run: `python safety/measurements/eager_cache_placement.py` (8 virtual CPU devices; jax 0.10.2).

Found while measuring issue 20 (cross_module_add_axis.py). `mesh = jax.make_mesh((1, 2, 4), ('batch', 'data',
'model'))` (Explicit), `step = jax.vmap(forward, in_axes=(0, None), spmd_axis_name='batch')` with `forward` a
shard_map `in_specs=(P('data', None), P(None, 'model'))`, `out_specs=P('data', 'model')`; the batch xs (4, 8,
16) placed `P('batch', 'data', None)` ("placed", runs) or `P(None, 'data', None)` ("unplaced", which raises
the in_specs mismatch when it is the first call). Each SEQUENCE of eager calls runs on one fresh function object
("same") or on a fresh object per call ("fresh"); also a shard_map without a vmap, first called on its in_specs'
placement `P('data', None)` and then on `P(None, None)`. Each line prints the outcome of each call in order.
So every measurement script here builds a new function object for each variant it runs.
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
            ("shard_map alone, on its spec then off it", make_plain, (off_spec, on_spec, off_spec))):
        for fresh in (False, True):
            print(f"{label:48} {'fresh' if fresh else 'same ':5}  {sequence(factory, calls, fresh)}", flush=True)


if __name__ == "__main__":
    main()
