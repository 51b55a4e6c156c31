"""Issue 22 (fuzz seeds 350770, 360247): a plain `jax.vmap` (no spmd_axis_name) whose batch dimension is placed on
no mesh axis, and a shard_map body that closes over a value from an input committed to the Explicit mesh, reached
(A) through an inner `jax.vmap` and (B) in a shard_map nested in another's body.

Run: `python safety/measurements/plain_vmap_committed_capture_inner_nested.py [--parts A,B]` (8 virtual CPU
devices; jax 0.10.2).

Part A (seed 350770's form). Mesh `jax.make_mesh((4, 2), ('data', 'model'))` (Explicit by default).

    def block(x, w):
        s = jnp.exp(w)                                  # CAP: `exp` (s), or `w` itself
        return jax.shard_map(lambda b: (b - pmean(b, 'data')) * s, mesh=mesh, in_specs=P('data'),
                             out_specs=P('data'), check_vma=cv)(x)
    def apply(x, w):
        return jax.vmap(block, in_axes=(0, INNER))(x, w)   # INNER None (the seed's), 0; or `direct`: block(x, w)
    jax.vmap(apply, in_axes=(0, 0))(xs, ws)

xs (8, 8, 8) (`direct`: (8, 8)), ws (8,) (INNER 0: (8, 8)). XS: where xs is placed: `P(None, None, 'data')`
(the seed's: batch and inner dimensions on no axis, the block on 'data'), `P(None, 'model', 'data')` (the inner
vmap's dimension on 'model'), `unplaced` (a plain array; `direct`: `P(None, 'data')` or unplaced). WS (mapped,
in_axes 0): `reshard P(None)` (the seed's, under `with jax.set_mesh(mesh)`, xs placed the same way),
`device_put P(None)`, `device_put P()` (no mesh axis anywhere), `unplaced` (a plain jnp array made before any
mesh is set), `asarray under set_mesh` (`jnp.asarray(ws0)` made inside the `with jax.set_mesh(mesh):` that
places xs with `reshard`), `set_mesh, unplaced` (ws made before, the vmap called inside that `with`).
Ways: check_vma True/False x eager / `jax.jit(vmap)` / `jit(block)` (the inner function jitted:
`jax.vmap(jax.jit(apply))`).

Part B (seed 360247's form). Mesh `jax.make_mesh((2, 4), ('data', 'model'), axis_types=(Explicit, Explicit))`.

    def block(x, w):
        def body(b):
            return ((b - pmean(b, 'model')) * w) + 2
        def outer(x):
            return jax.shard_map(body, in_specs=P('model'), out_specs=P('model'), axis_names={'model'}, check_vma=cv)(x)
        return jax.shard_map(outer, mesh=mesh, in_specs=P('data'), out_specs=P('data'), axis_names={'data'},
                             check_vma=cv)(x)
    jax.vmap(block, in_axes=(0, None))(xs, ws)

xs (4, 8, 8) placed `P(None, ('data', 'model'), None)` (the seed's), `P(None, 'data', None)`, or unplaced; ws a
scalar `np.float32(1.5)` placed `device_put(ws, NamedSharding(mesh, P()))` (the seed's) or unplaced. Forms:
`nested, body beside outer` (the seed's), `nested, body inside outer` (`def outer(x): def body(b): ...`), `not
nested` (control: the one shard_map over both axes, its body closing over w: part 5 of
plain_vmap_placed_spellings.py), `nested, outer closes over w` (the capture in the outer body, `outer(x) =
inner(x) * w`), `nested, w mapped` (ws (4,) placed `P(None)`, in_axes (0, 0): a batched w, part 7's form),
`nested, w lifted` (the inner shard_map takes w as an operand with in_spec `P()`: lift-captures' output; the
outer body still closes over it), `nested, w lifted twice` (both shard_maps take w as an operand, `P()`).
Ways as in part A.

Reference: numpy.

Result (jax 0.10.2; cv=False called eagerly gives SPMD008's `out_specs argument must refer to an axis marked as
manual` wherever a dimension of xs the vmaps map is placed on an axis, and in every nested form of part B):
Part A: xs `P(None, None, 'data')` with ws committed (`reshard P(None)`, `device_put P(None)`, `device_put P()`,
or `asarray under set_mesh`): `NotImplementedError: Closing over inputs to shard_map where the input is sharded on
Explicit axes` in all six variants, `s` or `w`, the inner vmap mapping w or not, and without an inner vmap (`direct`,
`direct, rank 2`: the same with xs `P(None, 'data')` or `P(None, None, 'data')`); ws unplaced (no mesh set): runs
and matches everywhere. `set_mesh, unplaced` (ws a plain array, the vmap called under `jax.set_mesh`): `w` itself
runs, `s = jnp.exp(w)` fails (`Closing over inputs`) when called eagerly and runs under jit (a value computed
eagerly under an Explicit context mesh is committed to it: not read by spmdfix, left open). xs `P(None, 'model',
'data')` (the inner vmap's dimension placed): with the inner vmap passing w whole (INNER None) check_vma=True runs
and matches whatever ws is, check_vma=False fails (eager: SPMD008's error; jit: `For primitive mul, context mesh
...`, committed ws only); with INNER 0 `Mapped away dimension of inputs passed to vmap should be sharded the
same` whatever ws is. xs unplaced: `in_specs passed to shard_map: P('data',) does not match the specs of the input`
(a shard_map input on an Explicit mesh must be placed as its in_specs say), capture or not.
Part B: ws committed: `Closing over inputs to shard_map` eager (check_vma True) and under jit (both check_vma), in
every nested form (body beside or inside `outer`, the outer body closing over w, w mapped and committed `P(None)`),
as without nesting; ws unplaced: runs and matches under jit, and eagerly with check_vma True where xs is placed
as the specs say (`P(None, ('data', 'model'), None)`; otherwise the eager call fails anyway: `in_specs passed to
shard_map: P('data', None, 'model', None) does not match`). `w lifted` (an operand of the nested shard_map, `P()`,
the outer body still closing over w) and `w lifted twice`: run and match under jit, ws placed or not; eagerly
they fail with errors of no capture (`... not evenly divisible by the corresponding mesh axis`, `in_specs ... does
not match`, SPMD008's), so lift-captures of the nested body is not measured to keep values eagerly.
"""

from __future__ import annotations

import itertools
import sys

import _outcome  # noqa: F401 - sets the 8 CPU devices before jax loads
import jax
import jax.numpy as jnp
import numpy as np
from _outcome import header, show_group
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

WAYS = ("eager", "jit(vmap)", "jit(block)")

# -- part A --------------------------------------------------------------------------------------------------
MESH_A = jax.make_mesh((4, 2), ("data", "model"))
XA3 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
XA2 = XA3[:, 0, :]
WA1 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
WA2 = np.linspace(0.5, 2.0, 64, dtype=np.float32).reshape(8, 8)


def centred(x, axis_size, axis=-1):
    """`b - pmean(b, 'data')` per block of `axis_size` along the last dimension, in numpy."""
    shape = x.shape
    blocks = x.reshape(*shape[:-1], axis_size, shape[-1] // axis_size)
    return (blocks - blocks.mean(axis=-2, keepdims=True)).reshape(shape)


def program_a(inner, cap, cv):
    def block(x, w):
        s = jnp.exp(w) if cap == "exp" else w
        body = lambda b: (b - jax.lax.pmean(b, "data")) * s
        spec = P(None, "data") if inner == "direct, rank 2" else P("data")
        return jax.shard_map(body, mesh=MESH_A, in_specs=spec, out_specs=spec, check_vma=cv)(x)

    def apply(x, w):
        if inner in ("direct", "direct, rank 2"):
            return block(x, w)
        return jax.vmap(block, in_axes=(0, inner))(x, w)

    return apply


def reference_a(inner, cap):
    f = np.exp if cap == "exp" else (lambda v: v)
    if inner == "direct":
        return centred(XA2, 4) * f(WA1)[:, None]
    if inner is None or inner == "direct, rank 2":
        return centred(XA3, 4) * f(WA1)[:, None, None]
    return centred(XA3, 4) * f(WA2)[:, :, None]


def run_a(inner, cap, xs_spec, ws_place, cv, way):
    xs0 = XA2 if inner == "direct" else XA3
    ws0 = WA2 if inner == 0 else WA1
    apply = program_a(inner, cap, cv)
    f = jax.vmap(jax.jit(apply) if way == "jit(block)" else apply, in_axes=(0, 0))
    if way == "jit(vmap)":
        f = jax.jit(f)
    xs, ws = jnp.asarray(xs0), jnp.asarray(ws0)
    ws_spec = P(*([None] * ws0.ndim))
    if ws_place in ("reshard P(None)", "asarray under set_mesh", "set_mesh, unplaced"):
        with jax.set_mesh(MESH_A):
            xs = xs if xs_spec is None else jax.sharding.reshard(xs, xs_spec)
            if ws_place == "reshard P(None)":
                ws = jax.sharding.reshard(ws, ws_spec)
            elif ws_place == "asarray under set_mesh":
                ws = jnp.asarray(ws0)
            return f(xs, ws)
    xs = xs if xs_spec is None else jax.device_put(xs, NamedSharding(MESH_A, xs_spec))
    if ws_place == "device_put P(None)":
        ws = jax.device_put(ws, NamedSharding(MESH_A, ws_spec))
    elif ws_place == "device_put P()":
        ws = jax.device_put(ws, NamedSharding(MESH_A, P()))
    return f(xs, ws)


def part_a():
    print("-- part A: an inner vmap between the plain vmap and the shard_map (fuzz seed 350770)")
    inners = (None, 0, "direct", "direct, rank 2")
    caps = ("exp", "w")
    places = ("reshard P(None)", "device_put P(None)", "device_put P()", "unplaced", "asarray under set_mesh",
              "set_mesh, unplaced")
    for inner, cap, ws_place in itertools.product(inners, caps, places):
        if inner == "direct":
            specs = {"P(None, 'data')": P(None, "data"), "unplaced": None}
        elif inner == "direct, rank 2":
            specs = {"P(None, None, 'data')": P(None, None, "data")}
        else:
            specs = {"P(None, None, 'data')": P(None, None, "data"),
                     "P(None, 'model', 'data')": P(None, "model", "data"), "unplaced": None}
        for xs_name, xs_spec in specs.items():
            variants = {
                f"cv={cv} {way}": (
                    lambda i=inner, c=cap, x=xs_spec, w=ws_place, cv=cv, way=way: run_a(i, c, x, w, cv, way)
                )
                for cv in (True, False) for way in WAYS
            }
            inner_name = inner if isinstance(inner, str) else f"inner in_axes=(0, {inner})"
            label = f"A {inner_name:22} s={cap:3} xs {xs_name:24} ws {ws_place:18}"
            show_group(label, variants, reference_a(inner, cap))


# -- part B --------------------------------------------------------------------------------------------------
MESH_B = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Explicit, AxisType.Explicit))
XB = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
WB = np.float32(1.5)
WB1 = np.linspace(0.5, 2.0, 4, dtype=np.float32)
FORMS_B = ("nested, body beside outer", "nested, body inside outer", "not nested", "nested, outer closes over w",
           "nested, w mapped", "nested, w lifted", "nested, w lifted twice")


def program_b(form, cv):
    def block(x, w):
        def body(b):
            return ((b - jax.lax.pmean(b, "model")) * w) + 2.0

        def inner_map(f, *operands, specs=None):
            specs = P("model") if specs is None else specs
            return jax.shard_map(f, in_specs=specs, out_specs=P("model"), axis_names={"model"}, check_vma=cv)(*operands)

        def outer_map(f, *operands, specs=None):
            specs = P("data") if specs is None else specs
            return jax.shard_map(f, mesh=MESH_B, in_specs=specs, out_specs=P("data"), axis_names={"data"},
                                 check_vma=cv)(*operands)

        if form in ("nested, body beside outer", "nested, w mapped"):
            return outer_map(lambda t: inner_map(body, t), x)
        if form == "nested, body inside outer":
            def outer(t):
                def body2(b):
                    return ((b - jax.lax.pmean(b, "model")) * w) + 2.0
                return inner_map(body2, t)
            return outer_map(outer, x)
        if form == "not nested":
            return jax.shard_map(body, mesh=MESH_B, in_specs=P(("data", "model")), out_specs=P(("data", "model")),
                                 check_vma=cv)(x)
        if form == "nested, outer closes over w":
            plain = lambda b: (b - jax.lax.pmean(b, "model")) + 2.0 / w
            return outer_map(lambda t: inner_map(plain, t) * w, x)
        if form == "nested, w lifted":
            lifted = lambda b, c: ((b - jax.lax.pmean(b, "model")) * c) + 2.0
            return outer_map(lambda t: inner_map(lifted, t, w, specs=(P("model"), P())), x)
        lifted = lambda b, c: ((b - jax.lax.pmean(b, "model")) * c) + 2.0
        return outer_map(lambda t, c: inner_map(lifted, t, c, specs=(P("model"), P())), x, w, specs=(P("data"), P()))

    return block


def reference_b(form):
    w = WB1[:, None, None] if form == "nested, w mapped" else WB
    # rows in groups of 4 ('model' within 'data', as both the nesting and `P(('data', 'model'))` split them)
    groups = XB.reshape(4, 2, 4, 8)
    cent = (groups - groups.mean(axis=2, keepdims=True)).reshape(4, 8, 8)
    if form == "nested, outer closes over w":
        return (cent + 2.0 / w) * w
    return cent * w + 2.0


def run_b(form, xs_spec, ws_placed, cv, way):
    block = program_b(form, cv)
    mapped = form == "nested, w mapped"
    f = jax.vmap(jax.jit(block) if way == "jit(block)" else block, in_axes=(0, 0 if mapped else None))
    if way == "jit(vmap)":
        f = jax.jit(f)
    xs = jnp.asarray(XB)
    xs = xs if xs_spec is None else jax.device_put(xs, NamedSharding(MESH_B, xs_spec))
    ws = jnp.asarray(WB1 if mapped else WB)
    if ws_placed:
        ws = jax.device_put(ws, NamedSharding(MESH_B, P(None) if mapped else P()))
    return f(xs, ws)


def part_b():
    print("-- part B: a shard_map nested in another's body closes over an input committed to the mesh "
          "(fuzz seed 360247)")
    specs = {"P(None, ('data', 'model'), None)": P(None, ("data", "model"), None),
             "P(None, 'data', None)": P(None, "data", None), "unplaced": None}
    for form, (xs_name, xs_spec), ws_placed in itertools.product(FORMS_B, specs.items(), (True, False)):
        if form == "not nested" and xs_name == "P(None, 'data', None)":
            continue  # the one shard_map splits the block over both axes
        variants = {
            f"cv={cv} {way}": (lambda fm=form, x=xs_spec, w=ws_placed, cv=cv, way=way: run_b(fm, x, w, cv, way))
            for cv in (True, False) for way in WAYS
        }
        label = f"B {form:28} xs {xs_name:34} ws {'placed' if ws_placed else 'unplaced':8}"
        show_group(label, variants, reference_b(form))


def main():
    parts = set(sys.argv[2].split(",")) if sys.argv[1:2] == ["--parts"] else {"A", "B"}
    header("a plain vmap, batch dimension on no axis: captures of a committed input through an inner vmap and "
           "in a nested shard_map", [f"cv={cv} {way}" for cv in (True, False) for way in WAYS])
    if "A" in parts:
        part_a()
    if "B" in parts:
        part_b()


if __name__ == "__main__":
    main()
