"""Issue 22 (fuzz seed 410072; helper silence7): a plain `jax.vmap` (no spmd_axis_name) over an input placed on the
Explicit mesh at a later dimension only, an inner `jax.vmap(block)` between it and the shard_map, block's shard_map
body closing over `m = x.mean() + 2.0` (a value computed from the block's argument); and values made eagerly inside
`with jax.set_mesh(mesh):` captured by a shard_map body.

Run: `python safety/measurements/plain_vmap_inner_capture_staged.py [--parts 1,2]` (8 virtual CPU devices; jax
0.10.2).

Part 1 (seed 410072's form). Mesh `jax.make_mesh((2, 4), ('x', 'y'))` (Explicit by default).

    def block(x):
        m = x.mean() + 2.0
        return SM(lambda b: (b - b.mean()) * m, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=cv)(x)
    def apply(x):
        return jax.vmap(block)(x)
    jax.vmap(apply)(xs)          # eager, or `jax.jit(jax.vmap(apply))` (the seed's `@jax.jit @jax.vmap`)

SM: `jax.shard_map` applied directly, or `jax.jit(jax.shard_map(...))` (the seed's). xs (8, 8, 8) placed
`reshard(xs, P(None, None, 'x'))` under `with jax.set_mesh(mesh)` (the seed's), `device_put(xs, NamedSharding(mesh,
P(None, None, 'x')))`, `device_put(..., P())` (committed, no mesh axis), `P(None, 'y', 'x')` (the dimension the
inner vmap maps placed), or unplaced (made before any mesh is set; called inside `with jax.set_mesh(mesh)`, so that
the shard_map's in_specs check sees an unplaced input). Ways: check_vma True/False x eager / jit of the outer vmap.

Part 2 (task 3 of silence7: values made under `jax.set_mesh`). Mesh as in part 1.

    with jax.set_mesh(mesh):
        W = MAKE                                 # jnp.ones((8,)), jax.random.normal(key, (8,)), jnp.asarray(w0),
                                                 # jnp.arange(8.0); or made before the with (control)
        xs = jax.sharding.reshard(xs, XS)        # P('x', 'y') (batch on 'x'), P(None, 'x') (a later dimension)
        out = WAY(jax.vmap(lambda x: jax.shard_map(lambda b: b + W.mean(), mesh=mesh, in_specs=SPEC, out_specs=SPEC,
                                                   check_vma=cv)(x)))(xs)

SPEC `P('y')` with xs `P('x', 'y')`, `P('x')` with xs `P(None, 'x')`; also no vmap at all (`shard_map(...)(x0)` of
one example placed `P('x')`). Ways: check_vma True/False x eager / jit. Reference: numpy.

Result (jax 0.10.2): see safety/measurements/README.md (the index) and the outcome lines this prints.
"""

from __future__ import annotations

import itertools
import sys

import _outcome  # noqa: F401 - sets the 8 CPU devices before jax loads
import jax
import jax.numpy as jnp
import numpy as np
from _outcome import header, show_group
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

MESH = jax.make_mesh((2, 4), ("x", "y"))
X3 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
WAYS = ("eager", "jit")


# -- part 1 --------------------------------------------------------------------------------------------------
def program_1(jit_sm, cv):
    def block(x):
        m = x.mean() + 2.0
        sm = jax.shard_map(lambda b: (b - b.mean()) * m, mesh=MESH, in_specs=P("x"), out_specs=P("x"), check_vma=cv)
        return (jax.jit(sm) if jit_sm else sm)(x)

    def apply(x):
        return jax.vmap(block)(x)

    return apply


def reference_1():
    blocks = X3.reshape(8, 8, 2, 4)
    centred = blocks - blocks.mean(axis=-1, keepdims=True)
    return (centred.reshape(8, 8, 8)) * (X3.mean(axis=-1, keepdims=True) + 2.0)


def run_1(jit_sm, xs_place, cv, way):
    f = jax.vmap(program_1(jit_sm, cv))
    if way == "jit":
        f = jax.jit(f)
    xs = jnp.asarray(X3)
    with jax.set_mesh(MESH):
        if xs_place == "reshard P(None, None, 'x')":
            xs = jax.sharding.reshard(xs, P(None, None, "x"))
        elif xs_place == "device_put P(None, None, 'x')":
            xs = jax.device_put(xs, NamedSharding(MESH, P(None, None, "x")))
        elif xs_place == "device_put P()":
            xs = jax.device_put(xs, NamedSharding(MESH, P()))
        elif xs_place == "reshard P(None, 'y', 'x')":
            xs = jax.sharding.reshard(xs, P(None, "y", "x"))
        return f(xs)


def part_1():
    print("-- part 1: plain vmap, inner vmap, capture of m = x.mean() + 2.0 (fuzz seed 410072)")
    places = ("reshard P(None, None, 'x')", "device_put P(None, None, 'x')", "device_put P()",
              "reshard P(None, 'y', 'x')", "unplaced")
    for jit_sm, xs_place in itertools.product((False, True), places):
        variants = {
            f"cv={cv} {way}": (lambda j=jit_sm, p=xs_place, cv=cv, way=way: run_1(j, p, cv, way))
            for cv in (True, False) for way in WAYS
        }
        sm = "jax.jit(shard_map)" if jit_sm else "shard_map"
        show_group(f"1 {sm:18} xs {xs_place:30}", variants, reference_1())


# -- part 2 --------------------------------------------------------------------------------------------------
X2 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 20.0) / 16.0
W0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
MAKES = ("jnp.ones", "jax.random.normal", "jnp.asarray(w0)", "jnp.arange", "jnp.ones before the with")


def make_w(make):
    if make in ("jnp.ones", "jnp.ones before the with"):
        return jnp.ones((8,), jnp.float32) * 1.5
    if make == "jax.random.normal":
        return jax.random.normal(jax.random.key(0), (8,))
    if make == "jnp.asarray(w0)":
        return jnp.asarray(W0)
    return jnp.arange(8.0, dtype=jnp.float32)


def run_2(make, form, cv, way):
    w = make_w(make) if make.endswith("before the with") else None
    with jax.set_mesh(MESH):
        if w is None:
            w = make_w(make)
        if form == "no vmap":
            spec = P("x")
            x0 = jax.sharding.reshard(jnp.asarray(X2[0]), P("x"))
            f = jax.shard_map(lambda b: b + w.mean(), mesh=MESH, in_specs=spec, out_specs=spec, check_vma=cv)
            return (jax.jit(f) if way == "jit" else f)(x0)
        xs_spec, spec = (P("x", "y"), P("y")) if form == "batch on 'x'" else (P(None, "x"), P("x"))
        xs = jax.sharding.reshard(jnp.asarray(X2), xs_spec)
        f = jax.vmap(lambda x: jax.shard_map(lambda b: b + w.mean(), mesh=MESH, in_specs=spec, out_specs=spec,
                                             check_vma=cv)(x))
        return (jax.jit(f) if way == "jit" else f)(xs)


def part_2():
    print("-- part 2: a value made eagerly inside `with jax.set_mesh(mesh)` captured by the shard_map body")
    for make in MAKES:
        w0 = np.asarray(make_w(make))
        if make.endswith("before the with"):
            made = make_w(make)
        else:
            with jax.set_mesh(MESH):
                made = make_w(make)
        print(f"2 {make:26} sharding {made.sharding}; committed {made.committed}")
        for form in ("batch on 'x'", "batch dimension unplaced", "no vmap"):
            reference = (X2[0] if form == "no vmap" else X2) + w0.mean()
            variants = {
                f"cv={cv} {way}": (lambda m=make, f=form, cv=cv, way=way: run_2(m, f, cv, way))
                for cv in (True, False) for way in WAYS
            }
            show_group(f"2 {make:26} {form:26}", variants, reference)


PARTS = {"1": part_1, "2": part_2}

if __name__ == "__main__":
    header("a plain vmap over an input placed at a later dimension: a capture through an inner vmap (seed 410072); "
           "values made under jax.set_mesh captured", [f"cv={cv} {way}" for cv in (True, False) for way in WAYS])
    chosen = sys.argv[sys.argv.index("--parts") + 1].split(",") if "--parts" in sys.argv else list(PARTS)
    for name in chosen:
        PARTS[name]()
