"""Fuzz seed 40027: a plain `jax.vmap` (no spmd_axis_name) over a batch placed on an Explicit mesh axis, reaching a
partial-manual shard_map whose `axis_names` names that axis.

Run: `python safety/measurements/axis_names_placed_plain_vmap.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('data', 'model'))            # Explicit axes
    xs = PLACE(xs)                                              # the batch (8, 8) on 'data' at dimension 0
    shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P(), out_specs=P(), axis_names=NAMES, check_vma=cv)
    jax.vmap(f)(xs)                                             # eager, or under jax.jit

PLACE: `jax.device_put(xs, NamedSharding(mesh, P('data', None)))`, `jax.sharding.reshard(xs, P('data', None))`
under `with jax.set_mesh(mesh)`, or not placed. NAMES: `{'data'}` (the placed axis), `{'model'}`. Reference: numpy.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from _outcome import header, show_group

X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
REF = X - X.mean(axis=1, keepdims=True)


def run(mesh, place, names, check_vma, jitted):
    sm = jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P(), out_specs=P(), axis_names=names,
                       check_vma=check_vma)
    g = jax.vmap(lambda x: sm(x))
    g = jax.jit(g) if jitted else g
    with jax.set_mesh(mesh):
        xs = jax.numpy.asarray(X)
        if place == "device_put":
            xs = jax.device_put(xs, NamedSharding(mesh, P("data", None)))
        elif place == "reshard":
            xs = jax.sharding.reshard(xs, P("data", None))
        return g(xs)


def main() -> None:
    mesh = jax.make_mesh((2, 4), ("data", "model"))
    variants = [f"cv={cv} {'jit' if j else 'eager'}" for cv, j in itertools.product((True, False), (False, True))]
    header("a plain vmap over a placed batch, axis_names naming the placed axis", variants)
    for place, names in itertools.product(("device_put", "reshard", "unplaced"), ({"data"}, {"model"})):
        runs = {f"cv={cv} {'jit' if j else 'eager'}": (lambda cv=cv, j=j: run(mesh, place, names, cv, j))
                for cv, j in itertools.product((True, False), (False, True))}
        show_group(f"{place:10} axis_names={sorted(names)}", runs, REF)


if __name__ == "__main__":
    main()
