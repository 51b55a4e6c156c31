"""Measurement behind SPMD003's plain-vmap form with the batch dimension placed on no axis, for a captured
per-example scalar under a partial-manual shard_map (jax 0.10.2, CPU, 8 virtual devices; fuzz seed 350567).
Run: python safety/measurements/plain_vmap_unplaced_batch_scalar_partial_manual.py

`jax.vmap(block)` (no spmd_axis_name, eager or under jax.jit) over xs placed on a 2x4 Explicit mesh ('x', 'y')
with `P(None, 'x')`, `P(None, None)` or `P()` (no mesh axis at the batch dimension); block computes
`m = x.mean() + 2.0` and applies a shard_map whose body closes over m, with `axis_names` absent (every axis
manual) or `{'x'}`, specs `P('x')` or `P()`, check_vma True or False. Each line: axis_names, spec, jit,
placement, check_vma, then OK, WRONG or RAISED <error>.

Found: every axis manual: `Closing over inputs to shard_map where the input is sharded on Explicit axes` (or
the in_specs mismatch first); `axis_names={'x'}` with `P('x')` and check_vma=True: runs and matches for every
placement, eager and jitted; with check_vma=False `out_specs ... marked as manual` (eager) or `context mesh`
(jit); with `P()`: `context mesh ... should match the aval mesh`.

Part 2 (`axis_names={'x'}`, `P('x')`, check_vma=True, placements `P(None, 'x')` and `P()`, eager and jitted): what
the body does with the scalar decides. `b * m`, `jnp.where(b > 1.0, b, 0.5 * b) * m`, `jnp.sum(b) * m + b`,
`jnp.maximum(b, m)` run; `b + jnp.mean(m)` and `jnp.exp(m) * b` fail (`For primitive reduce_sum / exp, context
mesh ... should match the aval mesh`): an operation on the captured value alone fails.

Part 3 (fuzz seed 360680; `--parts 3`, or `3b`, `3c` alone): the same plain vmap, xs (8, 8) placed `P(None, 'x')`,
`axis_names={'x'}`, in_specs/out_specs `P('x')` (block of 4), each (capture, body) pair under check_vma True/False
x eager/`jax.jit(vmap)`. Captures c: a batched `w` committed `P(None, ...)` of rank 0, `(1,)`, `(4,)` = the
block, `(3, 4)` above it (the product summed back over axis 0); `jnp.exp(w)` and `x[:4]` computed outside the
body; `x.mean() + 2.0`; an argument the vmap does not map (`in_axes=None`) committed, scalar or `(4,)`. Bodies:
c an operand of `*`, `+`, `-`, `/` with the block in either order, `jnp.sin(b) * c`, `b * c * 2.0`, `b * c + c`,
`jnp.sum(b) * c + b`, `jnp.ones_like(b) * c`, `b[0] * c + b`, `jax.vmap(lambda r: r * 2.0)(b) * c`,
`jax.vmap(lambda r: r + jax.lax.psum(r, 'x'))(b) * c`; an operation of c's own first (`b * jnp.mean(c)`,
`jnp.exp(c) * b`, `b * (c * 2.0)`, `c * 2.0 * b`, `b * -c`); an operand not varying over 'x' (`b.shape[0] * c +
b`, `jax.lax.psum(b, 'x') * c`, `jax.vmap(lambda r: jax.lax.psum(r, 'x'))(b) * c`); other spellings (`jnp.maximum(b, c)`, `jnp.where(b > 0, c, 0.0)`, `jnp.abs(b)
** c`, `b @ c + b`). Part 3b: check_vma=True, `b * c` and `jnp.exp(c) * b` for xs placed `P(None, 'x')`,
`P(None, 'y')`, `P(None, None)`, `P()` or numpy and ws committed `P(None, ...)`, `P()` (`P('y')` for the
unmapped vector), a jnp array or numpy. Part 3c (check_vma=True): every axis manual; specs `P()`; in_specs
`(P('x'), P())` with c meeting the `P('x')` block or the `P()` one; `jax.vmap(jax.jit(apply))`,
`jax.vmap(jax.checkpoint(apply))`; c bound as the body's parameter default (`lambda b, c=c: ...`), `b * c` and
`jnp.exp(c) * b`; c bound by `functools.partial(f, c=c)`, the same two. `--bodies 'NAME;NAME'` runs part 3's rows of those bodies only.

Found (part 3): with check_vma=True every capture runs and matches, eager and jitted, when each of its reads is an
operand of `*`, `+`, `-`, `/` (either order) whose other operand varies with the block (the rows listed first,
every capture source and rank); an operation of its own first fails (`For primitive reduce_sum / exp / mul / neg,
context mesh ... should match the aval mesh`), and so do `b.shape[0] * c` and `psum(b, 'x') * c` (`mul`).
`jnp.maximum`, `jnp.abs(b) ** c`, `b @ c` run; `jnp.where(b > 0, c, 0.0)` runs except for `c = x[:4]`
(`ShardingTypeError: Mesh for all inputs should be equal`). check_vma=False: eagerly `out_specs argument must
refer to an axis marked as manual` throughout, under jit `context mesh ...` (only `jnp.where` runs). Part 3b:
the same outcomes for every committed placement; with every input of c uncommitted (jnp or numpy ws; xs numpy
for `x.mean()`) `jnp.exp(c) * b` runs too. Part 3c: every axis manual `Closing over inputs to shard_map ...
Explicit`; specs `P()` `context mesh ...`; `(P('x'), P())`: c with the `P('x')` block runs, with the `P()` block
`context mesh ...`; through `jax.jit` and `jax.checkpoint` `b * c` runs; bound as a default, as closed over
(`b * c` runs, `jnp.exp(c) * b` fails), and so bound by `functools.partial`. What decides: with check_vma=True
JAX inserts a `pvary` on the capture where a binary operation meets a value varying over the manual axes, and
that cast puts it on the shard_map's (partly manual) context mesh; a primitive applied to the capture before
then sees its aval still on the outer mesh and fails the context-mesh check. A capture from uncommitted inputs
has no mesh in its aval and passes it.
"""
import functools, os, itertools, sys
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _outcome import show_group  # noqa: E402 - part 3's outcome lines
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P, AxisType
mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))

def run(axis_names, spec, jit, placement, cv):
    def block(x):
        m = x.mean() + 2.0
        def body(b):
            return b * m
        kw = dict(mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv)
        if axis_names is not None:
            kw['axis_names'] = axis_names
        return jax.shard_map(body, **kw)(x)
    f = jax.vmap(block)
    if jit: f = jax.jit(f)
    xs = jnp.asarray((np.arange(32, dtype=np.float32).reshape(4, 8) - 10.0) / 8.0)
    xs = jax.device_put(xs, NamedSharding(mesh, placement))
    try:
        r = np.asarray(f(xs))
        ref = np.stack([np.asarray(x) * (np.asarray(x).mean() + 2.0) for x in np.asarray(xs)])
        return "OK" if np.allclose(r, ref, atol=1e-5) else "WRONG"
    except Exception as e:
        return "RAISED " + type(e).__name__ + ": " + str(e).splitlines()[0][:70]

BODIES = {
    "b*m": lambda b, m: b * m,
    "where*m": lambda b, m: jnp.where(b > 1.0, b, 0.5 * b) * m,
    "b+mean(m)": lambda b, m: b + jnp.mean(m),
    "sum(b)*m": lambda b, m: jnp.sum(b) * m + b,
    "exp(m)*b": lambda b, m: jnp.exp(m) * b,
    "max(b,m)": lambda b, m: jnp.maximum(b, m),
}


def run_body(name, jit, placement):
    fn = BODIES[name]

    def block(x):
        m = x.mean() + 2.0
        return jax.shard_map(lambda b: fn(b, m), mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)
    f = jax.jit(jax.vmap(block)) if jit else jax.vmap(block)
    xs = jax.device_put(jnp.asarray((np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0),
                        NamedSharding(mesh, placement))
    try:
        np.asarray(f(xs))
        return "OK"
    except Exception as e:  # noqa: BLE001 - the measurement records what JAX raises
        return "RAISED " + type(e).__name__ + ": " + str(e).splitlines()[0][:70]


# -- part 3 (fuzz seed 360680): which captured values and which bodies ------------------------------------------
N = 4  # the block's length under P('x') on the size-2 axis
X3 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
SOURCES = {  # name: (ws, vmap in_axes of w, the captured value computed in the vmapped function from x, w)
    "w scalar": (np.linspace(0.5, 2.0, 8, dtype=np.float32), 0, lambda x, w: w),
    "w (1,)": (np.linspace(0.5, 2.0, 8, dtype=np.float32).reshape(8, 1), 0, lambda x, w: w),
    "w (N,)=block": (np.linspace(0.5, 2.0, 8 * N, dtype=np.float32).reshape(8, N), 0, lambda x, w: w),
    "w (3,N)>block": (np.linspace(0.5, 2.0, 8 * 3 * N, dtype=np.float32).reshape(8, 3, N), 0, lambda x, w: w),
    "exp(w) outside": (np.linspace(0.5, 2.0, 8, dtype=np.float32), 0, lambda x, w: jnp.exp(w)),
    "x[:N]": (np.linspace(0.5, 2.0, 8, dtype=np.float32), 0, lambda x, w: x[:N]),
    "x.mean()+2": (np.linspace(0.5, 2.0, 8, dtype=np.float32), 0, lambda x, w: x.mean() + 2.0),
    "unmapped scalar": (np.float32(1.5), None, lambda x, w: w),
    "unmapped (N,)": (np.linspace(0.5, 2.0, N, dtype=np.float32), None, lambda x, w: w),
}
RUN_BODIES = {  # the capture c only ever an operand of +, -, *, / whose other operand varies with the block b
    "b*c": lambda b, c: b * c, "c*b": lambda b, c: c * b, "b+c": lambda b, c: b + c, "c+b": lambda b, c: c + b,
    "b-c": lambda b, c: b - c, "c-b": lambda b, c: c - b, "b/c": lambda b, c: b / c, "c/b": lambda b, c: c / (b + 9.0),
    "jnp.sin(b)*c": lambda b, c: jnp.sin(b) * c, "b*c*2.0": lambda b, c: b * c * 2.0,
    "b*c+c": lambda b, c: b * c + c, "jnp.sum(b)*c+b": lambda b, c: jnp.sum(b) * c + b,
    "jnp.ones_like(b)*c": lambda b, c: jnp.ones_like(b) * c, "b[0]*c+b": lambda b, c: b[0] * c + b,
    "vmap(r*2)(b)*c": lambda b, c: jax.vmap(lambda r: r * 2.0)(b) * c,
    "vmap(r+psum(r))(b)*c": lambda b, c: jax.vmap(lambda r: r + jax.lax.psum(r, 'x'))(b) * c,
}
FAIL_BODIES = {  # an operation of c's own first, or an operand that does not vary with the block
    "b*jnp.mean(c)": lambda b, c: b * jnp.mean(c), "jnp.exp(c)*b": lambda b, c: jnp.exp(c) * b,
    "b*(c*2.0)": lambda b, c: b * (c * 2.0), "c*2.0*b": lambda b, c: c * 2.0 * b, "b*-c": lambda b, c: b * -c,
    "b.shape[0]*c+b": lambda b, c: b.shape[0] * c + b, "psum(b,'x')*c": lambda b, c: jax.lax.psum(b, 'x') * c,
    "vmap(psum(r))(b)*c": lambda b, c: jax.vmap(lambda r: jax.lax.psum(r, 'x'))(b) * c,
}
OTHER_BODIES = {  # other spellings: `jnp.where` left reported (it fails for c = x[:N]); the others exempt (fp7)
    "jnp.maximum(b,c)": lambda b, c: jnp.maximum(b, c), "jnp.where(b>0,c,0.0)": lambda b, c: jnp.where(b > 0, c, 0.0),
    "abs(b)**c": lambda b, c: jnp.abs(b) ** c, "b@c+b": lambda b, c: (b @ c) + b,
}
ALL_BODIES = {**RUN_BODIES, **FAIL_BODIES, **OTHER_BODIES}


def put3(a, spec):
    """`a` as given (numpy), a jnp array (spec None) or committed to the mesh with `spec`."""
    if isinstance(spec, str):
        return a
    a = jnp.asarray(a)
    return a if spec is None else jax.device_put(a, NamedSharding(mesh, spec))


def none_spec(a):
    return P(*([None] * np.ndim(a)))


def part3_fn(src, body, cv, jit, specs=P('x'), axis_names=frozenset({'x'}), two=None, staged=None, bound=False):
    derive = SOURCES[src][2]

    def apply(x, w):
        c = derive(x, w)
        kw = dict(mesh=mesh, in_specs=specs, out_specs=P('x'), check_vma=cv)
        if axis_names is not None:
            kw['axis_names'] = set(axis_names)
        if bound == "partial":  # c bound by functools.partial(f, c=c)
            return jax.shard_map(functools.partial(lambda b, c: body(b, c), c=c), **kw)(x)
        if bound:  # c bound as the body's parameter default, not closed over
            return jax.shard_map(lambda b, c=c: body(b, c), **kw)(x)
        if two is None:
            return jax.shard_map(lambda b: body(b, c), **kw)(x)
        return jax.shard_map(lambda b1, b2: two(b1, b2, c), **kw)(x, x)
    f = jax.vmap(staged(apply) if staged else apply, in_axes=(0, SOURCES[src][1]))
    return jax.jit(f) if jit else f


def part3_ref(src, body, two=None):
    ws, ax, derive = SOURCES[src]
    rows = []
    for i, x in enumerate(X3):
        c = derive(jnp.asarray(x), jnp.asarray(ws[i] if ax == 0 else ws))
        if two is not None:
            rows.append(np.concatenate([np.asarray(two(jnp.asarray(x[k * N:(k + 1) * N]), jnp.asarray(x), c)) for k in range(2)]))
            continue
        blocks = []
        for k in range(2):
            b = jnp.asarray(x[k * N:(k + 1) * N])
            total = jnp.asarray(x[:N]) + jnp.asarray(x[N:])  # psum over 'x' of the two blocks
            if body is FAIL_BODIES["psum(b,'x')*c"] or body is FAIL_BODIES["vmap(psum(r))(b)*c"]:
                blocks.append(np.asarray(total * c))
            elif body is RUN_BODIES["vmap(r+psum(r))(b)*c"]:
                blocks.append(np.asarray((b + total) * c))
            else:
                blocks.append(np.asarray(body(b, c)))
        rows.append(np.concatenate(blocks))
    return np.stack(rows)


def fits(src, name):
    """The body makes sense for the capture's shape (and its result is one block)."""
    if src == "w (3,N)>block":
        return name in ("b*c", "c*b", "jnp.exp(c)*b")
    if name == "b@c+b":
        return src in ("w (N,)=block", "x[:N]", "unmapped (N,)")
    return True


def run_part3():
    print("part 3: captures x bodies; xs P(None, 'x'), ws committed P(None, ...); axis_names={'x'}, specs P('x')", flush=True)
    grid = [(cv, jit) for cv in (True, False) for jit in (False, True)]
    only = sys.argv[sys.argv.index("--bodies") + 1].split(";") if "--bodies" in sys.argv else None
    for src, name in itertools.product(SOURCES, ALL_BODIES):
        if not fits(src, name) or only is not None and name not in only:
            continue
        ws, body = SOURCES[src][0], ALL_BODIES[name]
        if src == "w (3,N)>block":  # c (3, N) broadcasts the block; summed back to one block
            body = (lambda inner: lambda b, c: jnp.sum(inner(b, c), axis=0))(body)
        ref = part3_ref(src, body)
        variants = {
            f"cv={cv} {'jit' if jit else 'eager'}":
                (lambda cv=cv, jit=jit, src=src, body=body, ws=ws: part3_fn(src, body, cv, jit)(put3(X3, P(None, 'x')), put3(ws, none_spec(ws))))
            for cv, jit in grid
        }
        show_group(f"3 {src:15} {name:22}", variants, ref)


def run_part3b():
    print("part 3b: placements (check_vma=True; eager, jit); xs and ws committed or not", flush=True)
    for src, (xname, xspec), (wname, wspec), name in itertools.product(
        ("w scalar", "w (N,)=block", "x.mean()+2", "unmapped scalar", "unmapped (N,)"),
        (("P(None,'x')", P(None, 'x')), ("P(None,'y')", P(None, 'y')), ("P(None,None)", P(None, None)), ("P()", P()), ("numpy", "numpy")),
        (("P(None..)", "none"), ("P()", P()), ("P('y')", "y"), ("jnp", None), ("numpy", "numpy")),
        ("b*c", "jnp.exp(c)*b"),
    ):
        ws = SOURCES[src][0]
        if wspec == "y" and src != "unmapped (N,)":
            continue  # `P('y')` fits only the unmapped vector (on a batched ws it would place the batch on 'y')
        wsp = none_spec(ws) if wspec == "none" else P('y') if wspec == "y" else wspec
        body = ALL_BODIES[name]
        variants = {
            ('jit' if jit else 'eager'): (lambda jit=jit, src=src, body=body, ws=ws, xspec=xspec, wsp=wsp: part3_fn(src, body, True, jit)(put3(X3, xspec), put3(ws, wsp)))
            for jit in (False, True)
        }
        show_group(f"3b {src:15} xs {xname:12} ws {wname:9} {name:14}", variants, part3_ref(src, body))


def run_part3c():
    print("part 3c: controls (check_vma=True; eager, jit; xs P(None, 'x'), ws P(None))", flush=True)
    two_first = lambda b1, b2, c: b1 * c + b2[:N]  # noqa: E731 - b1 under P('x'), b2 (the whole row) under P()
    two_second = lambda b1, b2, c: b1 + b2[:N] * c  # noqa: E731
    controls = {
        "every axis manual (no axis_names), b*c": dict(axis_names=None),
        "axis_names={'x'}, specs P(), b*c": dict(specs=P()),
        "in_specs (P('x'), P()): b1*c + b2[:N]": dict(specs=(P('x'), P()), two=two_first),
        "in_specs (P('x'), P()): b1 + b2[:N]*c": dict(specs=(P('x'), P()), two=two_second),
        "jax.vmap(jax.jit(apply)), b*c": dict(staged=jax.jit),
        "jax.vmap(jax.checkpoint(apply)), b*c": dict(staged=jax.checkpoint),
        "bound as a default (lambda b, c=c), b*c": dict(bound=True),
        "bound as a default, jnp.exp(c)*b": dict(bound=True, body=FAIL_BODIES["jnp.exp(c)*b"]),
        "bound by functools.partial(f, c=c), b*c": dict(bound="partial"),
        "bound by functools.partial, jnp.exp(c)*b": dict(bound="partial", body=FAIL_BODIES["jnp.exp(c)*b"]),
    }
    for src, (label, kw) in itertools.product(("w scalar", "w (N,)=block", "unmapped (N,)"), controls.items()):
        ws = SOURCES[src][0]
        if kw.get("two") is not None:
            ref = part3_ref(src, None, kw["two"])
        elif kw.get("specs") == P():
            ref = np.stack([np.asarray(jnp.asarray(x) * SOURCES[src][2](jnp.asarray(x), jnp.asarray(ws[i]))) for i, x in enumerate(X3)]) \
                if src == "w scalar" else None
        else:
            ref = part3_ref(src, RUN_BODIES["b*c"])
        if ref is None:
            continue
        kw = dict(kw)
        body = kw.pop("body", RUN_BODIES["b*c"])
        if body is not RUN_BODIES["b*c"]:
            ref = part3_ref(src, body)
        variants = {
            ('jit' if jit else 'eager'): (lambda jit=jit, src=src, ws=ws, kw=kw, body=body: part3_fn(src, body, True, jit, **kw)(put3(X3, P(None, 'x')), put3(ws, none_spec(ws))))
            for jit in (False, True)
        }
        show_group(f"3c {src:15} {label:40}", variants, ref)


PARTS = sys.argv[sys.argv.index("--parts") + 1].split(",") if "--parts" in sys.argv else ["1", "2", "3"]
if "1" in PARTS:
    for an, spec, jit, pl, cv in itertools.product([None, {'x'}], [P('x'), P()], [False, True], [P(None, 'x'), P(None, None), P()], [True, False]):
        print(an, spec, jit, pl, cv, run(an, spec, jit, pl, cv), flush=True)

if "2" in PARTS:
    print("part 2")
    for name, jit, pl in itertools.product(BODIES, [False, True], [P(None, 'x'), P()]):
        print(name, jit, pl, run_body(name, jit, pl), flush=True)

if "3" in PARTS:
    run_part3()
if "3" in PARTS or "3b" in PARTS:
    run_part3b()
if "3" in PARTS or "3c" in PARTS:
    run_part3c()
