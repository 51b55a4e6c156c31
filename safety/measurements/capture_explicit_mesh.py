"""Measurement behind SPMD003 on Explicit meshes (jax 0.10.2, CPU, 8 virtual devices).
Run: python safety/measurements/capture_explicit_mesh.py [--quick | --extra]

A shard_map body (`in_specs=P(s)`, `out_specs=P(s)` for the data axis s) closes over a value under
`jax.vmap(apply, spmd_axis_name=a)` on a 2x4 mesh ('x', 'y'), for every combination of:
- mesh axis types: both Explicit (`jax.make_mesh` default), both Auto, and mixed (one of each);
- spmd axis a / data axis s: ('y', 'x') and ('x', 'y');
- placement of the vmapped input xs (batch 8, example shape (8,)): `P(a, s)` (batch on the spmd axis, block as
  the specs say), `P(a, None)`, `P(a, None)` for xs only (the captured w left unplaced), not placed, `P(None, s)`;
  the batched w (shape (8,)) is placed `P(a)` when xs is placed on a, otherwise not;
- capture: "batched" (w, in_axes 0), "derived" (s = jnp.exp(w) in the vmapped function), "unbatched" (a scalar
  operand with in_axes None), "array" (a module-level np.linspace array of shape (8,) read by an all-replicated
  body, `in_specs=P()`, whose block is the whole example);
- check_vma True / False; eager / jax.jit.
Result (jax 0.10.2): with the batch placed on the spmd axis (`P(a, s)`; `P(a, None)` where the data axis is
Auto) and check_vma=True, every capture runs and matches, eager and under jit, exactly when the spmd axis is
Explicit, whatever the type of the data axis. An Auto spmd axis fails (ManualAxisType, `manual_axis_type`, or
on a mixed mesh `Closing over inputs to shard_map`); unplaced or `P(None, s)` batches fail (ManualAxisType, or
the in_specs check of an Explicit data axis); check_vma=False fails for batched and derived captures (eager:
`out_specs argument must refer to an axis marked as manual`; jit: `For primitive mul, context mesh`).
`--extra`: a spmd tuple ('x', 'y') with the batch on `P(('x', 'y'), 'z')` runs (check_vma on); a batch on
`P(('y', 'x'))` under spmd 'y' fails (`Only one of spmd_axis_name or arrays sharded on Explicit`); a
partial-manual body (`axis_names={'x'}`) runs.
Each line: mesh, spmd/data axes, placement, capture, check_vma, jit, then OK, WRONG or RAISED <error>.
"""
import itertools
import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

E, A = AxisType.Explicit, AxisType.Auto
MESHES = {"explicit": (E, E), "auto": (A, A), "x=E,y=A": (E, A), "x=A,y=E": (A, E)}
X0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
W0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
ARR = np.linspace(0.5, 1.5, 8, dtype=np.float32)


def run(types, spmd, data, placement, capture, cv, jit):
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=types)
    spec = P() if capture == "array" else P(data)

    def apply(x, w):
        s = jnp.exp(w) if capture == "derived" else w
        if capture == "array":
            body = lambda b: (b * 2.0 + 1.0) * ARR
        else:
            body = lambda b: (b * 2.0 + 1.0) * s
        return jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv)(x)

    unbatched = capture in ("unbatched", "array")
    xs, ws = jnp.asarray(X0), (jnp.asarray(np.float32(1.5)) if unbatched else jnp.asarray(W0))
    entries = {"P(a,s)": (spmd, data), "P(a,None)": (spmd, None), "P(a,None) xs only": (spmd, None),
               "none": None, "P(None,s)": (None, data)}[placement]
    if capture == "array" and entries is not None:
        entries = (entries[0], None)
    if entries is not None:
        xs = jax.device_put(xs, NamedSharding(mesh, P(*entries)))
    if not unbatched and entries is not None and entries[0] == spmd and placement != "P(a,None) xs only":
        ws = jax.device_put(ws, NamedSharding(mesh, P(spmd)))
    f = jax.vmap(apply, in_axes=(0, None) if unbatched else (0, 0), spmd_axis_name=spmd)
    if jit:
        f = jax.jit(f)
    w_ref = {"batched": W0, "derived": np.exp(W0), "unbatched": np.float32(1.5)}
    ref = (X0 * 2 + 1) * (ARR if capture == "array" else np.reshape(w_ref[capture], (-1, 1)))
    try:
        r = f(xs, ws)
        return "OK" if np.allclose(r, ref) else "WRONG"
    except Exception as e:  # noqa: BLE001 (the outcome is what is measured)
        return "RAISED " + type(e).__name__ + ": " + str(e).splitlines()[0][:90] if str(e) else type(e).__name__


def main():
    quick = "--quick" in sys.argv
    meshes = ["explicit"] if quick else list(MESHES)
    placements = ["P(a,s)", "P(a,None)", "P(a,None) xs only", "none", "P(None,s)"]
    for m, (spmd, data), pl, cap, cv, jit in itertools.product(
        meshes, [("y", "x"), ("x", "y")], placements, ["batched", "derived", "unbatched", "array"],
        [True, False], [False, True],
    ):
        print(f"{m:8} spmd={spmd} data={data} {pl:18} {cap:9} check_vma={cv!s:5} jit={jit!s:5}",
              run(MESHES[m], spmd, data, pl, cap, cv, jit), flush=True)


def extra():
    """Two spellings beyond the grid, on Explicit meshes, batch placed on the spmd axes, capture batched:
    a 2x2x2 mesh with the spmd tuple ('x', 'y') and the batch placed `P(('x', 'y'), 'z')` (body specs
    `P('z')`); a spmd axis 'y' placed with `P(('y', 'x'))` (more axes than the spmd axis); and a
    partial-manual shard_map (`axis_names={'x'}`, the spmd axis 'y' left out)."""
    cases = [((2, 2, 2), ("x", "y", "z"), ("x", "y"), (("x", "y"), "z"), P("z"), None),
             ((2, 4), ("x", "y"), "y", (("y", "x"), None), P(), None),
             ((2, 4), ("x", "y"), "y", ("y", "x"), P("x"), {"x"})]
    for shape, names, spmd, entries, spec, manual in cases:
        for cv, jit in itertools.product([True, False], [False, True]):
            mesh = jax.make_mesh(shape, names)
            kw = {"axis_names": manual} if manual else {}

            def apply(x, w, mesh=mesh, spec=spec, kw=kw, cv=cv):
                return jax.shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=spec, out_specs=spec,
                                     check_vma=cv, **kw)(x)

            xs = jax.device_put(jnp.asarray(X0), NamedSharding(mesh, P(*entries)))
            ws = jax.device_put(jnp.asarray(W0), NamedSharding(mesh, P(entries[0])))
            f = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name=spmd)
            f = jax.jit(f) if jit else f
            try:
                out = "OK" if np.allclose(f(xs, ws), (X0 * 2 + 1) * W0[:, None]) else "WRONG"
            except Exception as e:  # noqa: BLE001
                out = "RAISED " + type(e).__name__ + ": " + str(e).splitlines()[0][:90]
            print(f"extra mesh={shape} spmd={spmd} batch=P{entries} specs={spec} axis_names={manual} "
                  f"check_vma={cv} jit={jit}", out, flush=True)


if __name__ == "__main__":
    if "--extra" in sys.argv:
        extra()
    else:
        main()
