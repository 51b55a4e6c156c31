"""Issue 22 kind 9, the items left open by issue 10: a closure over an array placed on an Explicit axis,
`axis_names` naming the spmd axis on an Explicit mesh with the batch placed, arrays built by `jax.random`
closed over by a body, and the plain-vmap form of the inner-vmap placement kind (fuzz seed 2889).

Run: `python safety/measurements/open_items_issue22_kind9.py` (8 virtual CPU devices; jax 0.10.2).
Every part: eager and under `jax.jit`, both `check_vma` values; mesh 2x4 ('x', 'y') unless said.

Part A (closure over a placed array): one example (8, 4), `shard_map(lambda b: b * w, in_specs=P('y'),
out_specs=P('y'))`, `w` (4,) a module-level array placed by `jax.device_put(W, NamedSharding(mesh, SPEC))`
with SPEC `P('x')`, `P(None)`, or unplaced. Explicit mesh (`jax.make_mesh`): under spmd 'x' with the batch
placed `P('x', 'y')`, under a plain vmap with the batch placed `P(None, 'y')`, and with no vmap (each example
placed `P('y')`, a Python loop). Auto mesh (`Mesh(...)`, batch unplaced) as the comparison. Reference: numpy.

Part B (`axis_names` naming the spmd axis, Explicit mesh): one example (8,), `shard_map(b * 2 + 1,
in_specs=P('y'), out_specs=P('y'), axis_names=NAMES)` under spmd 'x', NAMES `{'x', 'y'}`, `{'y'}` or not given,
the batch placed `P('x', 'y')`, `P('x', None)` or unplaced. Reference: numpy.

Part C (`jax.random` arrays closed over, Auto mesh): one example (8,), `shard_map(lambda b: b * W, in_specs=P(),
out_specs=P())` (all replicated, where an unbatched non-scalar capture fails: docs/safety.md), W built by
`np.linspace` (the known case), `jax.random.normal(key, (8,))`, `jax.random.uniform(key, (8,))` at module level;
`jax.random.normal(key, (8,))` inside the vmapped function with an unbatched key; and with a batched key
(`jax.random.split` keys, in_axes 0). Under spmd 'x', spmd 'y' and a plain vmap. Reference: numpy with the same W.

Part D: fuzz seed 2889 (`fuzz/known_open.py`): `jax.make_mesh((8,), ('x',))`, the input (8, 8, 8) placed
`P(None, 'x', None)`, a plain outer vmap, an inner `jax.vmap` mapping away the placed dimension, then
`shard_map(body, in_specs=P('x'), out_specs=P('x'))` whose body closes over the per-example scalar `w` (placed
`P(None)`, as the seed does); then the same body without `w` (with and without the inner vmap), to tell the
inner vmap's failure from the capture's. Reference: numpy.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

from _outcome import header, show_group

VARIANTS = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")


def grid(run):
    """The four variants of one program: run(check_vma) returns a callable of one bool (jit)."""
    return {f"cv={cv} {'jit' if jit else 'eager'}": (lambda cv=cv, jit=jit: run(cv)(jit))
            for cv, jit in itertools.product((True, False), (False, True))}


def explicit_mesh():
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)


def auto_mesh():
    return Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


# -- part A ------------------------------------------------------------------------------------------------
XA = (np.arange(4 * 8 * 4, dtype=np.float32).reshape(4, 8, 4) - 40.0) / 30.0
WA = np.array([0.5, 1.0, 1.5, 2.0], dtype=np.float32)


def part_a(mesh_kind, w_spec, stage):
    mesh = explicit_mesh() if mesh_kind == "Explicit" else auto_mesh()
    w = jnp.asarray(WA) if w_spec is None else jax.device_put(jnp.asarray(WA), NamedSharding(mesh, w_spec))

    def run(check_vma):
        sm = jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P("y"), out_specs=P("y"), check_vma=check_vma)

        def call(jit):
            g = jax.jit(sm) if jit else sm
            if stage == "no vmap":
                one = [XA[i] if mesh_kind == "Auto" else jax.device_put(XA[i], NamedSharding(mesh, P("y")))
                       for i in range(4)]
                return jnp.stack([g(v) for v in one])
            spmd = "x" if stage == "spmd 'x'" else None
            placement = {"spmd 'x'": P("x", "y"), "plain vmap": P(None, "y")}[stage]
            xs = XA if mesh_kind == "Auto" else jax.device_put(XA, NamedSharding(mesh, placement))
            f = jax.vmap(sm, spmd_axis_name=spmd)
            return (jax.jit(f) if jit else f)(xs)
        return call
    return run


# -- part B ------------------------------------------------------------------------------------------------
XB = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 3.0


def part_b(names, placement):
    mesh = explicit_mesh()

    def run(check_vma):
        kw = {} if names is None else {"axis_names": names}
        sm = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P("y"), out_specs=P("y"),
                           check_vma=check_vma, **kw)
        f = jax.vmap(sm, spmd_axis_name="x")
        xs = XB if placement is None else jax.device_put(XB, NamedSharding(mesh, placement))
        return lambda jit: (jax.jit(f) if jit else f)(xs)
    return run


# -- part C ------------------------------------------------------------------------------------------------
XC = np.linspace(-1.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
KEY = jax.random.key(0)
W_LINSPACE = np.linspace(0.5, 1.5, 8, dtype=np.float32)
W_NORMAL = jax.random.normal(KEY, (8,))
W_UNIFORM = jax.random.uniform(KEY, (8,))
KEYS = jax.random.split(KEY, 4)
CAPTURES = {
    "module W = np.linspace(...)": lambda x, k: W_LINSPACE,
    "module W = jax.random.normal(key, (8,))": lambda x, k: W_NORMAL,
    "module W = jax.random.uniform(key, (8,))": lambda x, k: W_UNIFORM,
    "local jax.random.normal(key, (8,)), key unbatched": lambda x, k: jax.random.normal(KEY, (8,)),
    "local jax.random.normal(k, (8,)), k batched": lambda x, k: jax.random.normal(k, (8,)),
}


def part_c_ref(capture):
    if "k batched" in capture:
        return np.stack([XC[i] * np.asarray(jax.random.normal(KEYS[i], (8,))) for i in range(4)])
    return XC * np.asarray(CAPTURES[capture](None, KEY))


def part_c(capture, spmd):
    mesh = auto_mesh()

    def run(check_vma):
        def f(x, k):
            w = CAPTURES[capture](x, k)
            return jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=check_vma)(x)
        g = jax.vmap(f, in_axes=(0, 0), spmd_axis_name=spmd)
        return lambda jit: (jax.jit(g) if jit else g)(XC, KEYS)
    return run


# -- part D ------------------------------------------------------------------------------------------------
XD = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
WD = np.linspace(0.5, 2.0, 8, dtype=np.float32)
REF_D = np.where(XD > 1.0, XD, 0.5 * XD) * WD[:, None, None] + 8


def part_d(inner_vmap, capture):
    mesh = jax.make_mesh((8,), ("x",))

    def run(check_vma):
        def block(x, w):
            scale = w if capture else 1.0
            body = lambda b: jnp.where(b > 1.0, b, 0.5 * b) * scale + mesh.devices.shape[0]
            return jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=check_vma)(x)

        def apply(x, w):
            return jax.vmap(block, in_axes=(0, None))(x, w) if inner_vmap else block(x, w)
        xs = jax.device_put(jnp.asarray(XD), NamedSharding(mesh, P(None, "x", None)))
        ws = jax.device_put(jnp.asarray(WD), NamedSharding(mesh, P(None)))
        f = jax.vmap(apply, in_axes=(0, 0))
        return lambda jit: (jax.jit(f) if jit else f)(xs, ws)
    return run


def main() -> None:
    header("issue 22 kind 9: the items left open by issue 10", VARIANTS)
    print("-- part A: a closure over an array placed with device_put")
    for mesh_kind, (wname, w_spec), stage in itertools.product(
            ("Explicit", "Auto"), (("P('x')", P("x")), ("P(None)", P(None)), ("unplaced", None)),
            ("spmd 'x'", "plain vmap", "no vmap")):
        show_group(f"{mesh_kind:8} w placed {wname:9} {stage:10}", grid(part_a(mesh_kind, w_spec, stage)), XA * WA)
    print("-- part B: axis_names naming the spmd axis 'x' on an Explicit mesh, under spmd 'x'")
    for (nname, names), (pname, placement) in itertools.product(
            (("{'x', 'y'}", {"x", "y"}), ("{'y'}", {"y"}), ("not given", None)),
            (("P('x', 'y')", P("x", "y")), ("P('x', None)", P("x", None)), ("unplaced", None))):
        show_group(f"axis_names={nname:10} batch {pname:12}", grid(part_b(names, placement)), XB * 2 + 1)
    print("-- part C: arrays closed over by an all-replicated body (in_specs=P(), out_specs=P())")
    for capture, spmd in itertools.product(CAPTURES, ("x", "y", None)):
        label = f"{capture:52} {'spmd ' + repr(spmd) if spmd else 'plain vmap':10}"
        show_group(label, grid(part_c(capture, spmd)), part_c_ref(capture))
    print("-- part D: fuzz seed 2889, a plain outer vmap over an input placed P(None, 'x', None)")
    for inner_vmap, capture in ((True, True), (True, False), (False, False)):
        label = ("inner jax.vmap maps the placed dim away" if inner_vmap else "no inner vmap (shard_map gets the placed dim)")
        label += ", body closes over w" if capture else ", body without w"
        ref = REF_D if capture else np.where(XD > 1.0, XD, 0.5 * XD) + 8
        show_group(f"{label:70}", grid(part_d(inner_vmap, capture)), ref)

if __name__ == "__main__":
    main()
