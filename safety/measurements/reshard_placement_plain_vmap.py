"""Issue 22 kind 6: a batch placed on an Explicit axis by `jax.sharding.reshard`, then a plain vmap whose
shard_map names that axis (SPMD006), against the same placement spelled with `device_put`.

Run: `python safety/measurements/reshard_placement_plain_vmap.py` (8 virtual CPU devices; jax 0.10.2).

`mesh = jax.make_mesh((8,), ('S',))` (Explicit, the default), `x` of shape (8, 16), then PLACEMENT, then
`jax.vmap(shard_map(lambda b: b * 2 + 1, in_specs=P('S'), out_specs=P('S')))(x)` (no spmd_axis_name). The mesh
is INSTALLED by `jax.set_mesh(mesh)` as a statement (undone after the run), by `with jax.set_mesh(mesh):`, or
passed as `shard_map(..., mesh=mesh)` with no context mesh. PLACEMENTs: `reshard(x, P('S', None))`,
`reshard(x, NamedSharding(mesh, P('S', None)))`, `device_put(x, NamedSharding(mesh, P('S', None)))`,
`device_put(x, P('S', None))`, and unplaced; plus `P(None, 'S')` (the batch dimension not on 'S', the
move-placement fix) as the control. Eager, under `jax.jit` (the placement outside the jitted vmap) and
"jit+placement" (the placement inside the jitted function), both `check_vma` values. Reference: numpy `x * 2 + 1`.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from _outcome import header, show_group

X = np.arange(8 * 16, dtype=np.float32).reshape(8, 16) / 7.0
REF = X * 2 + 1
PLACEMENTS = {
    "reshard(x, P('S', None))": lambda mesh, x: jax.sharding.reshard(x, P("S", None)),
    "reshard(x, NamedSharding(mesh, P('S', None)))": lambda mesh, x: jax.sharding.reshard(
        x, NamedSharding(mesh, P("S", None))),
    "device_put(x, NamedSharding(mesh, P('S', None)))": lambda mesh, x: jax.device_put(
        x, NamedSharding(mesh, P("S", None))),
    "device_put(x, P('S', None))": lambda mesh, x: jax.device_put(x, P("S", None)),
    "unplaced": lambda mesh, x: x,
    "reshard(x, P(None, 'S'))  [control]": lambda mesh, x: jax.sharding.reshard(x, P(None, "S")),
    "device_put(x, NamedSharding(mesh, P(None, 'S')))  [control]": lambda mesh, x: jax.device_put(
        x, NamedSharding(mesh, P(None, "S"))),
}


def run(install, placement, check_vma, mode):
    mesh = jax.make_mesh((8,), ("S",))
    kw = {"mesh": mesh} if install == "mesh=" else {}
    f = jax.vmap(jax.shard_map(lambda b: b * 2.0 + 1.0, in_specs=P("S"), out_specs=P("S"), check_vma=check_vma, **kw))
    place = PLACEMENTS[placement]
    if mode == "jit+placement":
        g = jax.jit(lambda x: f(place(mesh, x)))
    else:
        g = (lambda x: (jax.jit(f) if mode == "jit" else f)(place(mesh, x)))

    def go():
        return g(jax.numpy.asarray(X))

    if install == "mesh=":
        return go()
    if install == "with set_mesh":
        with jax.set_mesh(mesh):
            return go()
    installed = jax.set_mesh(mesh)  # the statement form; undone so the next run starts without a context mesh
    try:
        return go()
    finally:
        installed.__exit__(None, None, None)


def main() -> None:
    modes = ("eager", "jit", "jit+placement")
    variants = [f"cv={cv} {mode}" for cv, mode in itertools.product((True, False), modes)]
    header("a batch placed by reshard or device_put on Explicit 'S' before a plain vmap of a shard_map over 'S'",
           variants)
    for install, placement in itertools.product(("set_mesh statement", "with set_mesh", "mesh="), PLACEMENTS):
        runs = {f"cv={cv} {mode}": (lambda cv=cv, mode=mode: run(install, placement, cv, mode))
                for cv, mode in itertools.product((True, False), modes)}
        show_group(f"{install:18} {placement:58}", runs, REF)


if __name__ == "__main__":
    main()
