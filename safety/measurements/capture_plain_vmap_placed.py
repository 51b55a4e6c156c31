"""Issue 22 (fuzz seed 250076): a shard_map body's capture under a PLAIN `jax.vmap` (no spmd_axis_name) whose
batch is placed on an Explicit mesh axis. Run: python safety/measurements/capture_plain_vmap_placed.py

Mesh `jax.make_mesh((2, 4), ('x', 'y'))` (Explicit by default; `auto` rows: both axes Auto). The vmapped
`apply(x, w)` (xs: (8, 8), ws: (8,), in_axes (0, 0); `unbatched`: ws an (8,) array with in_axes None) applies
`jax.shard_map(body, mesh=mesh, in_specs=S, out_specs=S, check_vma=cv)(x)` whose body computes
`(b * 2.0 + 1.0) * c` for the capture c:
- `batched`: `w` itself, bound as a closure (`lambda b: ... * w`), a default (`def body(b, w=w)`) or
  `functools.partial(body, w=w)`;
- `derived`: `s = jnp.exp(w)` computed in the vmapped function, closed over;
- `unbatched`: `w` from an argument with in_axes None (an (8,) array), closed over;
- `const`: a module-level `np.linspace` (8,) array, closed over (specs `P()` only: the block must be whole);
- `lifted` (the control, and lift-captures' output): `w` passed as an operand with in_spec `P()`.
S: `P()`, `P('y')` (another axis), `P('x')` (the placed axis: SPMD006's case).
Placement of xs/ws: `device_put` (`NamedSharding(mesh, P('x', None))`, ws `P('x')`), `reshard` (the same specs
through `jax.sharding.reshard` under `with jax.set_mesh(mesh)`, the vmap called inside it), `unplaced` (plain
arrays on the Explicit mesh), and `auto` (device_put on the Auto mesh).
A last block leaves ws unplaced (a plain array) while xs is placed.
Result (jax 0.10.2): batch placed on 'x' (device_put or reshard alike), `P()`: every batched or derived capture,
in every binding, fails (`For primitive mul, context mesh ... should match the aval mesh`; check_vma=False
called eagerly or through checkpoint: `out_specs argument must refer to an axis marked as manual`, SPMD008's
error, which `lifted` gets too), in every way; an `in_axes=None` argument placed `P()` fails alike, unplaced it
runs; the module constant runs. `P('y')` (xs placed `P('x', 'y')`): with check_vma=True every capture runs and
matches, with False it fails (`context mesh` under jit/staging). `P('x')`: `in_specs argument must refer to an
axis marked as manual` (SPMD006), capture or not. `lifted` runs and matches wherever the specs allow (check_vma
True; False under jit). Unplaced batch with `P()`, and the Auto mesh: everything runs and matches. ws unplaced
with `in_axes=0`: `Mapped away dimension of inputs passed to vmap should be sharded the same`.
Variants per line: check_vma True/False x eager / `jax.jit(vmap)` / `jax.jit(shard_map(...))` (the shard_map
wrapped in jit inside the vmapped function) / `jit(block)` (`jax.vmap(jax.jit(apply))`: a jit on the way) / `checkpoint(block)` (`jax.checkpoint` there).
"""

import functools
import itertools

import _outcome  # noqa: F401 - sets the 8 CPU devices before jax loads
import jax
import jax.numpy as jnp
import numpy as np
from _outcome import header, show_group
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

X0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
W0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
CONST = np.linspace(0.5, 1.5, 8, dtype=np.float32)
E, A = AxisType.Explicit, AxisType.Auto
WAYS = ("eager", "jit(vmap)", "jit(shard_map)", "jit(block)", "checkpoint(block)")
SPECS = {"P()": P(), "P('y')": P("y"), "P('x')": P("x")}


def program(capture, spec, cv, way, mesh):
    """The vmapped function for one variant."""
    def shard(body, *operands, in_specs=spec):
        sm = jax.shard_map(body, mesh=mesh, in_specs=in_specs, out_specs=spec, check_vma=cv)
        return (jax.jit(sm) if way == "jit(shard_map)" else sm)(*operands)

    def apply(x, w):
        if capture == "closure":
            return shard(lambda b: (b * 2.0 + 1.0) * w, x)
        if capture == "default":
            def body(b, w=w):
                return (b * 2.0 + 1.0) * w
            return shard(body, x)
        if capture == "partial":
            def body(b, w):
                return (b * 2.0 + 1.0) * w
            return shard(functools.partial(body, w=w), x)
        if capture == "derived":
            s = jnp.exp(w)
            return shard(lambda b: (b * 2.0 + 1.0) * s, x)
        if capture == "unbatched":
            return shard(lambda b: (b * 2.0 + 1.0) * w, x)
        if capture == "const":
            return shard(lambda b: (b * 2.0 + 1.0) * CONST, x)
        # lifted: the operand passed with in_spec P()
        return shard(lambda b, c: (b * 2.0 + 1.0) * c, x, w, in_specs=(spec, P()))

    return apply


def reference(capture):
    if capture == "derived":
        return (X0 * 2 + 1) * np.exp(W0)[:, None]
    if capture == "unbatched":
        return (X0 * 2 + 1) * W0[None, :]
    if capture == "const":
        return (X0 * 2 + 1) * CONST[None, :]
    return (X0 * 2 + 1) * W0[:, None]


def variant(capture, spec, cv, way, placement, ws_placed=True):
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(A, A) if placement == "auto" else (E, E))
    apply = program(capture, SPECS[spec], cv, way, mesh)
    in_axes = (0, None) if capture in ("unbatched", "const") else (0, 0)
    staged = {"jit(block)": jax.jit, "checkpoint(block)": jax.checkpoint}.get(way)
    f = jax.vmap(staged(apply) if staged else apply, in_axes=in_axes)
    if way == "jit(vmap)":
        f = jax.jit(f)
    ws_spec = P() if in_axes[1] is None else P("x")
    # the example dimension placed as the specs say (`P('y')`: on 'y'), the batch on 'x'
    xs_spec = P("x", "y") if spec == "P('y')" else P("x", None)

    def run():
        xs, ws = jnp.asarray(X0), jnp.asarray(W0)
        if placement in ("device_put", "auto"):
            xs = jax.device_put(xs, NamedSharding(mesh, xs_spec))
            ws = jax.device_put(ws, NamedSharding(mesh, ws_spec)) if ws_placed else ws
            return f(xs, ws)
        if placement == "reshard":
            with jax.set_mesh(mesh):
                xs = jax.sharding.reshard(xs, xs_spec)
                ws = jax.sharding.reshard(ws, ws_spec) if ws_placed else ws
                return f(xs, ws)
        return f(xs, ws)  # unplaced

    return run


def main():
    header("capture under a plain vmap, batch placed on an Explicit axis",
           [f"check_vma={cv} {way}" for cv in (True, False) for way in WAYS])
    captures = ["closure", "default", "partial", "derived", "unbatched", "const", "lifted"]
    for placement, spec, capture in itertools.product(
        ["device_put", "reshard", "unplaced", "auto"], list(SPECS), captures
    ):
        if capture in ("const", "unbatched") and spec != "P()":
            continue  # an (8,) array times a block: the block must be the whole example
        variants = {
            f"cv={cv} {way}": variant(capture, spec, cv, way, placement)
            for cv in (True, False) for way in WAYS
        }
        show_group(f"{placement:10} {spec:6} {capture:9}", variants, reference(capture))
    # ws left unplaced (a plain array) while xs is placed: the captured value's own placement
    for placement, spec, capture in itertools.product(
        ["device_put", "reshard"], ["P()", "P('y')"], ["closure", "unbatched", "lifted"]
    ):
        if capture == "unbatched" and spec != "P()":
            continue
        variants = {
            f"cv={cv} {way}": variant(capture, spec, cv, way, placement, ws_placed=False)
            for cv in (True, False) for way in WAYS
        }
        show_group(f"{placement:10} {spec:6} {capture:9} ws unplaced", variants, reference(capture))


if __name__ == "__main__":
    main()
