"""Issue 22, the plain-vmap form (after capture_plain_vmap_placed.py): a plain `jax.vmap` (no spmd_axis_name)
over an input placed on an Explicit mesh axis, whose function applies a shard_map closing over a value, in the
spellings that measurement left out.

Run: `python safety/measurements/plain_vmap_placed_spellings.py` (8 virtual CPU devices; jax 0.10.2).

Mesh `jax.make_mesh((2, 4), ('x', 'y'))` (Explicit). xs (8, 8) placed `jax.device_put(xs, NamedSharding(mesh,
P('x', None)))` (`P('x', 'y')` under specs `P('y')`) unless said. The body computes `(b * 2.0 + 1.0) * c` for the
capture c. Variants: check_vma True/False x eager / `jax.jit(vmap)` / `jit(block)` (`jax.vmap(jax.jit(apply))`).

Part 1 (an argument the vmap does not map, placed): `jax.vmap(apply, in_axes=(0, None))(xs, ws)`, ws (8,)
placed `P()`, `P(None)`, `P('y')`, `P('x')` or unplaced; c = `w` (specs `P()`), `w.sum()` (specs `P()` and
`P('y')`), `w[:2]` (specs `P('y')`), `lifted` (w passed as an operand with in_spec `P()`: lift-captures' output).
Part 2 (a closure over a module-level array placed with device_put): W (8,) placed `P('x')`, `P('y')`,
`P(None)`, a plain `jnp` array, numpy; c = `W` (specs `P()`), `W.sum()` (specs `P()`, `P('y')`); `jax.vmap(apply)
(xs)`; and the batch unplaced (control).
Part 3 (an inner vmap in the plain vmap's function before the shard_map): xs (8, 4, 8) placed `P('x', None,
None)` (`P('x', None, 'y')` under `P('y')`); `apply(x, w) = jax.vmap(block, in_axes=(0, IN))(x, w)`, block's
body closing over `w`; IN None (ws (8, 8), the inner vmap passes the outer-batched w whole), IN 0 (ws (8, 4),
w a scalar per inner example: specs `P()` and `P('y')`), and `s = x.sum()` closed over (batched by both vmaps); `lifted` (w an operand with in_spec `P()`).
Part 4 (two meshes): the batch placed on mesh A (above), the shard_map on mesh B: the same axes made again
(`make_mesh((2, 4), ('x', 'y'))`), `make_mesh((4, 2), ('x', 'y'))`, `make_mesh((2, 4), ('a', 'b'))`, an Auto
`Mesh(devices (2, 4), ('x', 'y'))`; body closing over a batched `w` (specs `P()`) and the same body without
the capture (`b * 2.0 + 1.0`, control), and w lifted (an operand with in_spec `P()`).
Part 5 (fuzz seed 310000's form): as part 1 with the batch dimension placed on no axis (xs `P(None, 'x')`,
specs `P('x')`), ws placed `P()`, `P(None)`, `P('y')` or unplaced; c = `w.sum()`, `w[:4]`, or w a scalar
(`np.float32(1.5)`, placed `P()` or not).
Part 7 (fuzz seed 29's form): a batched `w` (in_axes 0, ws placed `P()`, `P(None)` or unplaced) or `jnp.exp(w)`
closed over with the batch dimension placed on no axis (xs `P(None, 'x')`, specs `P('x')`).
Part 6 (jax.random arrays): c = a module-level `jax.random.normal(key, (8,))`, a `jax.random.uniform(key,
(8,))` made in the vmapped function from a module key, a `jax.random.normal(k, (8,))` from a batched key (keys
`jax.random.split(key, 8)` placed `P('x')`, in_axes 0), `np.linspace` (control); specs `P()`.
Part 4 runs each variant in its own process: with a (4, 2) mesh B XLA aborts. Reference: numpy.
`--parts 1,3` runs some parts only.

Result (jax 0.10.2; cv=False eager gives SPMD008's `out_specs argument must refer to an axis marked as manual`
throughout, capture or not): part 1, an argument committed `P()`/`P(None)`/`P('y')` fails `For primitive mul,
context mesh ...` under `P()` and under `P('y')` with cv=False; with cv=True and `P('y')` `w.sum()` runs, `w[:2]`
runs for `P()`/`P(None)` (`P('y')`: `ShardingTypeError`); lifted runs for `P()`/`P(None)`, fails for `P('y')`;
placed `P('x')`: `Unmapped values passed to vmap cannot be sharded along the mesh axis you are vmapping over`;
unplaced runs. Part 2: placed arrays fail (`context mesh ...`; batch unplaced `Closing over inputs to
shard_map`), jnp/numpy arrays run. Part 3: as without the inner vmap; lifted runs. Part 4: the same axes made
again act as one mesh; `(4, 2)` aborts XLA with or without the capture; `('a', 'b')` fails without it; an Auto
mesh refuses the capture (`Closing over inputs`) and runs the lifted operand. Part 5 and part 7: committed
inputs `Closing over inputs to shard_map` in every variant, unplaced run. Part 6: a batched-key array fails,
module-level and unbatched-key arrays run.
"""

from __future__ import annotations

import itertools
import subprocess
import sys

import _outcome  # noqa: F401 - sets the 8 CPU devices before jax loads
import jax
import jax.numpy as jnp
import numpy as np
from _outcome import WIDTH, header, outcome, show_group
from jax.sharding import AxisType, Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

X0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
W0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
X3 = (np.arange(256, dtype=np.float32).reshape(8, 4, 8) - 90.0) / 64.0
MESH = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
WAYS = ("eager", "jit(vmap)", "jit(block)")
KEY = jax.random.key(0)
KEYS = jax.random.split(KEY, 8)
R_NORMAL = jax.random.normal(KEY, (8,))
R_UNIFORM = np.asarray(jax.random.uniform(KEY, (8,)))


def put(a, spec, mesh=MESH):
    """`a` as a jnp array, placed on `mesh` with `spec` (None: not placed)."""
    a = jnp.asarray(a)
    return a if spec is None else jax.device_put(a, NamedSharding(mesh, spec))


def grid(build, args):
    """The six variants: build(check_vma) gives the vmapped function's per-example `apply` and its in_axes."""
    out = {}
    for cv, way in itertools.product((True, False), WAYS):
        def run(cv=cv, way=way):
            apply, in_axes = build(cv)
            f = jax.vmap(jax.jit(apply) if way == "jit(block)" else apply, in_axes=in_axes)
            return (jax.jit(f) if way == "jit(vmap)" else f)(*args())
        out[f"cv={cv} {way}"] = run
    return out


def shard(mesh, spec, cv, body, *operands, in_specs=None):
    return jax.shard_map(body, mesh=mesh, in_specs=spec if in_specs is None else in_specs, out_specs=spec,
                         check_vma=cv)(*operands)


# -- part 1 ----------------------------------------------------------------------------------------------------
def part1(capture, spec):
    def build(cv):
        def apply(x, w):
            if capture == "w":
                return shard(MESH, spec, cv, lambda b: (b * 2.0 + 1.0) * w, x)
            if capture == "w.sum()":
                s = w.sum()
                return shard(MESH, spec, cv, lambda b: (b * 2.0 + 1.0) * s, x)
            if capture == "w[:2]":
                h = w[:2]
                return shard(MESH, spec, cv, lambda b: (b * 2.0 + 1.0) * h, x)
            return shard(MESH, spec, cv, lambda b, c: (b * 2.0 + 1.0) * c, x, w, in_specs=(spec, P()))
        return apply, (0, None)
    return build


def part1_ref(capture):
    if capture == "w.sum()":
        return (X0 * 2 + 1) * W0.sum()
    if capture == "w[:2]":  # each (2,) block of an example times w[:2] (specs P('y'))
        return (X0 * 2 + 1) * np.tile(W0[:2], 4)[None, :]
    return (X0 * 2 + 1) * W0[None, :]


# -- part 5 ----------------------------------------------------------------------------------------------------
def part5(capture):
    """An in_axes=None argument committed to the mesh while the batch dimension is placed on no axis (xs
    `P(None, 'x')`, specs `P('x')`: each (8,) example split over 'x', blocks of 4)."""
    def build(cv):
        def apply(x, w):
            c = w.sum() if capture == "w.sum()" else (w if capture == "w (scalar)" else w[:4])
            return shard(MESH, P("x"), cv, lambda b: (b * 2.0 + 1.0) * c, x)
        return apply, (0, None)
    return build


def run_part5():
    print("-- part 5: an in_axes=None argument placed on the mesh, the batch dimension on no axis (fuzz seed 310000 form)")
    for (wname, wspec), capture in itertools.product(
        (("P()", P()), ("P(None)", P(None)), ("P('y')", P("y")), ("unplaced", None)), ("w.sum()", "w[:4]", "w (scalar)"),
    ):
        if capture == "w (scalar)" and wspec not in (P(), None):
            continue
        w0 = np.float32(1.5) if capture == "w (scalar)" else W0
        args = lambda wspec=wspec, w0=w0: (put(X0, P(None, "x")), put(w0, wspec))
        if capture == "w.sum()":
            ref = (X0 * 2 + 1) * W0.sum()
        elif capture == "w (scalar)":
            ref = (X0 * 2 + 1) * 1.5
        else:
            ref = (X0 * 2 + 1) * np.tile(W0[:4], 2)[None, :]
        show_group(f"5 ws {wname:8} {capture:10}", grid(part5(capture), args), ref)


# -- part 7 ----------------------------------------------------------------------------------------------------
def part7(capture):
    """A batched argument (in_axes 0) closed over while the batch dimension is placed on no axis (xs `P(None,
    'x')`, specs `P('x')`): fuzz seed 29's form (the sample of tests/test_fuzz.py)."""
    def build(cv):
        def apply(x, w):
            c = jnp.exp(w) if capture == "jnp.exp(w)" else w
            return shard(MESH, P("x"), cv, lambda b: (b * 2.0 + 1.0) * c, x)
        return apply, (0, 0)
    return build


def run_part7():
    print("-- part 7: a batched argument closed over, the batch dimension on no axis, ws placed at its batch dimension on"
          " no axis (fuzz seed 29)")
    for (wname, wspec), capture in itertools.product(
        (("P()", P()), ("P(None)", P(None)), ("unplaced", None)), ("w", "jnp.exp(w)"),
    ):
        args = lambda wspec=wspec: (put(X0, P(None, "x")), put(W0, wspec))
        ref = (X0 * 2 + 1) * (np.exp(W0) if capture == "jnp.exp(w)" else W0)[:, None]
        show_group(f"7 ws {wname:8} {capture:10}", grid(part7(capture), args), ref)


# -- part 2 ----------------------------------------------------------------------------------------------------
def part2(w, capture, spec):
    def build(cv):
        def apply(x):
            if capture == "W":
                return shard(MESH, spec, cv, lambda b: (b * 2.0 + 1.0) * w, x)
            return shard(MESH, spec, cv, lambda b: (b * 2.0 + 1.0) * w.sum(), x)
        return apply, 0
    return build


# -- part 3 ----------------------------------------------------------------------------------------------------
def part3(capture, spec):
    def build(cv):
        def block(x, w):
            if capture.startswith("lifted"):
                return shard(MESH, spec, cv, lambda b, c: (b * 2.0 + 1.0) * c, x, w, in_specs=(spec, P()))
            c = x.sum() if capture == "x.sum()" else w
            return shard(MESH, spec, cv, lambda b: (b * 2.0 + 1.0) * c, x)

        def apply(x, w):
            mapped = capture in ("w mapped by the inner vmap", "lifted, w mapped")
            return jax.vmap(block, in_axes=(0, 0 if mapped else None))(x, w)
        return apply, (0, 0)
    return build


def part3_inputs(capture, spec):
    whole = capture in ("w whole (inner in_axes None)", "lifted, w whole")
    ws0 = np.linspace(0.5, 2.0, 32, dtype=np.float32).reshape(8, 4) if not whole \
        else W0[:, None] * np.ones((8, 8), np.float32)
    if whole:
        ref = (X3 * 2 + 1) * ws0[:, None, :]
    elif capture in ("w mapped by the inner vmap", "lifted, w mapped"):
        ref = (X3 * 2 + 1) * ws0[:, :, None]
    else:
        ref = (X3 * 2 + 1) * X3.sum(axis=2, keepdims=True)
    xs_spec = P("x", None, "y") if spec == P("y") else P("x", None, None)
    return (lambda: (put(X3, xs_spec), put(ws0, P("x", None)))), ref


# -- part 4 ----------------------------------------------------------------------------------------------------
MESHES_B = {
    "the same axes made again": lambda: jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2),
    "make_mesh((4, 2), ('x', 'y'))": lambda: jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Explicit,) * 2),
    "make_mesh((2, 4), ('a', 'b'))": lambda: jax.make_mesh((2, 4), ("a", "b"), axis_types=(AxisType.Explicit,) * 2),
    "Auto Mesh((2, 4), ('x', 'y'))": lambda: Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y")),
}


def part4(mesh_b, capture):
    def build(cv):
        def apply(x, w):
            if capture == "lifted":
                return shard(mesh_b, P(), cv, lambda b, c: (b * 2.0 + 1.0) * c, x, w, in_specs=(P(), P()))
            if capture:
                return shard(mesh_b, P(), cv, lambda b: (b * 2.0 + 1.0) * w, x)
            return shard(mesh_b, P(), cv, lambda b: b * 2.0 + 1.0, x)
        return apply, (0, 0)
    return build


# -- part 6 ----------------------------------------------------------------------------------------------------
CONST = np.linspace(0.5, 1.5, 8, dtype=np.float32)


def part6(capture):
    def build(cv):
        def apply(x, k):
            if capture == "module jax.random.normal(key, (8,))":
                c = R_NORMAL
            elif capture == "local jax.random.uniform(KEY, (8,))":
                c = jax.random.uniform(KEY, (8,))
            elif capture == "local jax.random.normal(k, (8,)), k batched":
                c = jax.random.normal(k, (8,))
            else:
                c = CONST
            return shard(MESH, P(), cv, lambda b: (b * 2.0 + 1.0) * c, x)
        return apply, (0, 0)
    return build


def part6_ref(capture):
    if capture == "module jax.random.normal(key, (8,))":
        return (X0 * 2 + 1) * np.asarray(R_NORMAL)[None, :]
    if capture == "local jax.random.uniform(KEY, (8,))":
        return (X0 * 2 + 1) * R_UNIFORM[None, :]
    if capture == "local jax.random.normal(k, (8,)), k batched":
        return (X0 * 2 + 1) * np.stack([np.asarray(jax.random.normal(k, (8,))) for k in KEYS])
    return (X0 * 2 + 1) * CONST[None, :]


CAPTURE4 = {True: "closes over w", False: "no capture", "lifted": "lifted"}


def part4_variant(bname, capture, variant):
    """One variant of part 4, run in its own process (`--part4 NAME CAPTURE VARIANT`): with a (4, 2) mesh B
    XLA aborts the process (`Manual sub-axis isn't supported`)."""
    args = lambda: (put(X0, P("x", None)), put(W0, P("x")))
    ref = (X0 * 2 + 1) * (W0[:, None] if capture else 1.0)
    print(outcome(grid(part4(MESHES_B[bname](), capture), args)[variant], ref), flush=True)


def run_part1():
    print("-- part 1: an in_axes=None argument placed on the mesh")
    rows = [(P(), "w"), (P(), "w.sum()"), (P(), "lifted"), (P("y"), "w.sum()"), (P("y"), "w[:2]")]
    for (wname, wspec), (spec, capture) in itertools.product(
        (("P()", P()), ("P(None)", P(None)), ("P('y')", P("y")), ("P('x')", P("x")), ("unplaced", None)), rows,
    ):
        xs_spec = P("x", "y") if spec == P("y") else P("x", None)
        args = lambda wspec=wspec, xs_spec=xs_spec: (put(X0, xs_spec), put(W0, wspec))
        show_group(f"1 specs={spec!s:8} ws {wname:8} {capture:8}", grid(part1(capture, spec), args),
                   part1_ref(capture))


def run_part2():
    print("-- part 2: a closure over a module-level array placed with device_put")
    for (wname, wspec), capture, spec, batch in itertools.product(
        (("P('x')", P("x")), ("P('y')", P("y")), ("P(None)", P(None)), ("jnp", None), ("numpy", "numpy")),
        ("W", "W.sum()"), (P(), P("y")), ("placed", "unplaced"),
    ):
        if spec == P("y") and capture != "W.sum()":
            continue
        w = W0 if wspec == "numpy" else put(W0, wspec)
        xs_spec = (P("x", "y") if spec == P("y") else P("x", None)) if batch == "placed" else None
        args = lambda xs_spec=xs_spec: (put(X0, xs_spec),)
        ref = (X0 * 2 + 1) * (W0.sum() if capture == "W.sum()" else W0[None, :])
        show_group(f"2 specs={spec!s:8} batch {batch:8} W {wname:8} {capture:8}", grid(part2(w, capture, spec), args),
                   ref)


def run_part3():
    print("-- part 3: an inner vmap before the shard_map")
    for capture, spec in itertools.product(
        ("w whole (inner in_axes None)", "w mapped by the inner vmap", "x.sum()", "lifted, w whole",
         "lifted, w mapped"), (P(), P("y")),
    ):
        if spec == P("y") and capture in ("w whole (inner in_axes None)", "lifted, w whole"):
            continue  # a (2,) block times the whole (8,) w
        args, ref = part3_inputs(capture, spec)
        show_group(f"3 specs={spec!s:8} {capture:30}", grid(part3(capture, spec), args), ref)


def run_part4():
    print("-- part 4: the batch placed on mesh A, the shard_map on mesh B (one process a variant: XLA may abort)")
    variants = [f"cv={cv} {way}" for cv in (True, False) for way in WAYS]
    for bname, capture in itertools.product(MESHES_B, (True, False, "lifted")):
        if capture == "lifted" and "'a'" in bname or capture == "lifted" and "(4, 2)" in bname:
            continue  # fails without the capture
        label = f"4 mesh B {bname:32} {CAPTURE4[capture]:14}"
        results = {}
        for variant in variants:
            done = subprocess.run([sys.executable, __file__, "--part4", bname, str(capture), variant],
                                  capture_output=True, text=True, check=False)
            died = [line for line in done.stderr.splitlines() if "Check failed" in line] or [f"rc {done.returncode}"]
            results[variant] = done.stdout.strip() or f"process died: {died[0][:150]}"
        if len(set(results.values())) == 1:
            print(f"{label + ' [all]':{WIDTH}} {next(iter(results.values()))}", flush=True)
        else:
            for variant, text in results.items():
                print(f"{label + ' [' + variant + ']':{WIDTH}} {text}", flush=True)


def run_part6():
    print("-- part 6: jax.random arrays closed over, specs P()")
    for capture in ("module jax.random.normal(key, (8,))", "local jax.random.uniform(KEY, (8,))",
                    "local jax.random.normal(k, (8,)), k batched", "np.linspace (control)"):
        args = lambda: (put(X0, P("x", None)), jax.device_put(KEYS, NamedSharding(MESH, P("x"))))
        show_group(f"6 {capture:46}", grid(part6(capture), args), part6_ref(capture))


def main():
    if sys.argv[1:2] == ["--part4"]:
        part4_variant(sys.argv[2], {"True": True, "False": False}.get(sys.argv[3], sys.argv[3]), sys.argv[4])
        return
    parts = set(sys.argv[2].split(",")) if sys.argv[1:2] == ["--parts"] else {"1", "2", "3", "4", "5", "6", "7"}
    header("a plain vmap over a batch placed on an Explicit axis: spellings",
           [f"cv={cv} {way}" for cv in (True, False) for way in WAYS])
    for name, run in (("1", run_part1), ("2", run_part2), ("3", run_part3), ("4", run_part4), ("5", run_part5), ("6", run_part6), ("7", run_part7)):
        if name in parts:
            run()


if __name__ == "__main__":
    main()
