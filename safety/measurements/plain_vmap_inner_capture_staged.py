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

Part 2 (task 3 of silence7: values made under `jax.set_mesh`). Mesh as in part 1. MAKE: every `jax.numpy`
constructor spmdfix knows as building an array (`jnp.ones`, `zeros`, `full`, `arange`, `linspace`, `logspace`,
`geomspace`, `eye`, `identity`, `tile`, `stack`, `concatenate`, `hstack`, `vstack`, `array`, `asarray`, the
`_like` ones), `jax.random.normal`/`uniform`, a numpy `np.ones` (control), or `jnp.ones` made before the with
(control).

    with jax.set_mesh(mesh):
        W = MAKE                                 # jnp.ones((8,)), jax.random.normal(key, (8,)), jnp.asarray(w0),
                                                 # jnp.arange(8.0); or made before the with (control)
        xs = jax.sharding.reshard(xs, XS)        # P('x', 'y') (batch on 'x'), P(None, 'x') (a later dimension)
        out = WAY(jax.vmap(lambda x: jax.shard_map(lambda b: b + W.mean(), mesh=mesh, in_specs=SPEC, out_specs=SPEC,
                                                   check_vma=cv)(x)))(xs)

SPEC `P('y')` with xs `P('x', 'y')`, `P('x')` with xs `P(None, 'x')`; also under `spmd_axis_name='x'` (xs `P('x',
'y')`, SPEC `P('y')`), and no vmap at all (`shard_map(...)(x0)` of one example placed `P('x')`). Ways: check_vma
True/False x eager / jit. Reference: numpy.

Part 4: as part 2 (`jnp.ones`, `jax.random.normal`, and a `device_put(w, NamedSharding(mesh, P(None)))` array for
comparison), with a jit on the way: `jax.jit(jax.shard_map(...))` or `jax.vmap(jax.jit(block))`.

Part 3 (run last: it leaves the mesh installed): `jax.set_mesh(mesh)` as a statement, then `jnp.ones`, `jax.random.normal`, `jnp.asarray(w0)` made after
it, captured under a plain vmap with the batch dimension unplaced (xs `P(None, 'x')`, SPEC `P('x')`).

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
MAKERS = {
    "jnp.ones": lambda: jnp.ones((8,), jnp.float32) * 1.5,
    "jax.random.normal": lambda: jax.random.normal(jax.random.key(0), (8,)),
    "jax.random.uniform": lambda: jax.random.uniform(jax.random.key(1), (8,)),
    "jnp.asarray(w0)": lambda: jnp.asarray(W0),
    "jnp.array(w0)": lambda: jnp.array(W0),
    "jnp.array([...])": lambda: jnp.array([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0]),
    "jnp.arange": lambda: jnp.arange(8.0, dtype=jnp.float32),
    "jnp.linspace": lambda: jnp.linspace(0.5, 2.0, 8),
    "jnp.logspace": lambda: jnp.logspace(0.0, 1.0, 8),
    "jnp.geomspace": lambda: jnp.geomspace(1.0, 8.0, 8),
    "jnp.zeros": lambda: jnp.zeros((8,)),
    "jnp.full": lambda: jnp.full((8,), 2.0),
    "jnp.eye": lambda: jnp.eye(8)[0],
    "jnp.identity": lambda: jnp.identity(8)[1],
    "jnp.tile": lambda: jnp.tile(W0[:4], 2),
    "jnp.stack": lambda: jnp.stack([W0[:4], W0[4:]]).ravel(),
    "jnp.concatenate": lambda: jnp.concatenate([W0[:4], W0[4:]]),
    "jnp.hstack": lambda: jnp.hstack([W0[:4], W0[4:]]),
    "jnp.vstack": lambda: jnp.vstack([W0[:4], W0[4:]]).ravel(),
    "jnp.ones_like(w0)": lambda: jnp.ones_like(W0),
    "jnp.zeros_like(w0)": lambda: jnp.zeros_like(W0),
    "jnp.full_like(w0)": lambda: jnp.full_like(W0, 3.0),
    "np.ones (numpy)": lambda: np.ones((8,), np.float32),
    "jnp.ones before the with": lambda: jnp.ones((8,), jnp.float32) * 1.5,
}
MAKES = tuple(MAKERS)


def make_w(make):
    return MAKERS[make]()


def run_2(make, form, cv, way):
    w = make_w(make) if make.endswith("before the with") else None
    with jax.set_mesh(MESH):
        if w is None:
            w = make_w(make)
        if form == "spmd vmap 'x', batch on 'x'":
            xs = jax.sharding.reshard(jnp.asarray(X2), P("x", "y"))
            f = jax.vmap(lambda x: jax.shard_map(lambda b: b + w.mean(), mesh=MESH, in_specs=P("y"), out_specs=P("y"),
                                                 check_vma=cv)(x), spmd_axis_name="x")
            return (jax.jit(f) if way == "jit" else f)(xs)
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
        where = f"sharding {made.sharding}; committed {made.committed}" if hasattr(made, "sharding") else "a numpy array"
        print(f"2 {make:26} {where}")
        for form in ("batch on 'x'", "batch dimension unplaced", "spmd vmap 'x', batch on 'x'", "no vmap"):
            reference = (X2[0] if form == "no vmap" else X2) + w0.mean()
            variants = {
                f"cv={cv} {way}": (lambda m=make, f=form, cv=cv, way=way: run_2(m, f, cv, way))
                for cv in (True, False) for way in WAYS
            }
            show_group(f"2 {make:26} {form:26}", variants, reference)


def run_4(make, stage, form, cv, way):
    with jax.set_mesh(MESH):
        w = (jax.device_put(jnp.asarray(W0), NamedSharding(MESH, P(None))) if make == "device_put P(None)"
             else make_w(make))
        xs_spec, spec = (P("x", "y"), P("y")) if form == "batch on 'x'" else (P(None, "x"), P("x"))
        xs = jax.sharding.reshard(jnp.asarray(X2), xs_spec)

        def block(x):
            sm = jax.shard_map(lambda b: b + w.mean(), mesh=MESH, in_specs=spec, out_specs=spec, check_vma=cv)
            return (jax.jit(sm) if stage == "jax.jit(shard_map)" else sm)(x)

        f = jax.vmap(jax.jit(block) if stage == "jax.jit(block)" else block)
        return (jax.jit(f) if way == "jit" else f)(xs)


def part_4():
    print("-- part 4: as part 2, with a jit on the way: `jax.jit(shard_map(...))` or `jax.jit(block)`")
    for make, stage, form in itertools.product(
        ("jnp.ones", "jax.random.normal", "device_put P(None)"), ("jax.jit(shard_map)", "jax.jit(block)"),
        ("batch on 'x'", "batch dimension unplaced"),
    ):
        w0 = W0 if make == "device_put P(None)" else np.asarray(make_w(make))
        variants = {
            f"cv={cv} {way}": (lambda m=make, st=stage, f=form, cv=cv, way=way: run_4(m, st, f, cv, way))
            for cv in (True, False) for way in WAYS
        }
        show_group(f"4 {make:20} {stage:18} {form:26}", variants, X2 + w0.mean())


def part_3():
    """`jax.set_mesh(mesh)` as a statement (the mesh stays installed): arrays made after it, as in part 2. Run
    last: it installs the mesh for the rest of the process."""
    print("-- part 3: `jax.set_mesh(mesh)` as a statement, then arrays made after it")
    before = jnp.ones((8,), jnp.float32) * 1.5
    jax.set_mesh(MESH)
    for make in ("jnp.ones", "jax.random.normal", "jnp.asarray(w0)"):
        w = make_w(make)
        print(f"3 {make:26} sharding {w.sharding}; committed {w.committed}")
        for form in ("batch dimension unplaced",):
            xs_spec, spec = P(None, "x"), P("x")

            def run(w=w, cv=True, way="eager", spec=spec, xs_spec=xs_spec):
                xs = jax.sharding.reshard(jnp.asarray(X2), xs_spec)
                f = jax.vmap(lambda x: jax.shard_map(lambda b: b + w.mean(), mesh=MESH, in_specs=spec,
                                                     out_specs=spec, check_vma=cv)(x))
                return (jax.jit(f) if way == "jit" else f)(xs)

            variants = {f"cv={cv} {way}": (lambda cv=cv, way=way, w=w: run(w, cv, way)) for cv in (True, False)
                        for way in WAYS}
            show_group(f"3 {make:26} {form:26}", variants, X2 + np.asarray(w).mean())
    print(f"3 made before the statement: committed {before.committed}")


PARTS = {"1": part_1, "2": part_2, "4": part_4, "3": part_3}

if __name__ == "__main__":
    header("a plain vmap over an input placed at a later dimension: a capture through an inner vmap (seed 410072); "
           "values made under jax.set_mesh captured", [f"cv={cv} {way}" for cv in (True, False) for way in WAYS])
    chosen = sys.argv[sys.argv.index("--parts") + 1].split(",") if "--parts" in sys.argv else list(PARTS)
    for name in chosen:
        PARTS[name]()
