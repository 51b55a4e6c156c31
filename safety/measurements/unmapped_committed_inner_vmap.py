"""Fuzz seed 460044 (issue 22): an spmd `jax.vmap` over xs placed on its spmd axis of an Explicit mesh, with
`in_axes=(0, None)`: `w` is not mapped and a call commits it to the mesh (`jax.device_put(w, NamedSharding(mesh,
P()))`). Between the vmapped function and the function defining the shard_map body stands an inner
`jax.vmap(block, in_axes=...)` applied at once to `(x, w)`; the body (specs `P()`) closes over `w`.

Run: `python safety/measurements/unmapped_committed_inner_vmap.py` (8 virtual CPU devices; jax 0.10.2).

    def block(x, w):
        def body(b): return (b - b.mean()) * <w read>
        return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=cv)(x)
    def apply(x, w): return jax.vmap(block, in_axes=INNER)(x, w)
    jax.vmap(apply, in_axes=(0, None), spmd_axis_name='data')(xs, ws)       # xs (4, 8, 8) placed P('data')

Rows: INNER `(0, None)` (w passed whole: the seed) with w a scalar; INNER `(0, 0)` with w (8,) (the inner vmap
maps it: the body reads a row of it); w committed (`device_put(w, NamedSharding(mesh, P()))`) or not; meshes
Explicit and Auto (4, 2) ('data', 'model'); check_vma True/False; eager / `jax.jit` around the spmd vmap.
"""
import os
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

AXES = ("data", "model")


def run(mesh, inner, committed, cv, jit):
    def block(x, w):
        def body(b):
            return (b - b.mean()) * w

        return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=cv)(x)

    def apply(x, w):
        return jax.vmap(block, in_axes=inner)(x, w)

    xs0 = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    ws0 = np.float32(1.5) if inner == (0, None) else np.linspace(0.5, 2.0, 8, dtype=np.float32)
    ref = (xs0 - xs0.mean(-1, keepdims=True)) * (ws0 if inner == (0, None) else ws0[None, :, None])
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P("data", None, None)))
    ws = jnp.asarray(ws0)
    if committed:
        ws = jax.device_put(ws, NamedSharding(mesh, P()))
    f = jax.vmap(apply, in_axes=(0, None), spmd_axis_name="data")
    if jit:
        f = jax.jit(f)
    try:
        got = np.asarray(f(xs, ws))
        return "runs, matches reference" if np.allclose(got, ref, atol=1e-5) else "runs, WRONG values"
    except Exception as err:  # noqa: BLE001
        return f"{type(err).__name__}: {str(err).splitlines()[0][:100]}"


def main():
    meshes = {
        "explicit": jax.make_mesh((4, 2), AXES, axis_types=(AxisType.Explicit,) * 2),
        "auto": jax.make_mesh((4, 2), AXES, axis_types=(AxisType.Auto,) * 2),
    }
    for mesh_name, mesh in meshes.items():
        for inner in ((0, None), (0, 0)):
            for committed in (True, False):
                outcomes = {}
                for cv in (True, False):
                    for jit in (False, True):
                        outcomes[(cv, jit)] = run(mesh, inner, committed, cv, jit)
                if len(set(outcomes.values())) == 1:
                    print(f"{mesh_name:8} inner={inner!s:9} committed={committed!s:5} [all] -> {next(iter(outcomes.values()))}")
                else:
                    for (cv, jit), o in outcomes.items():
                        print(f"{mesh_name:8} inner={inner!s:9} committed={committed!s:5} check_vma={cv!s:5} jit={jit!s:5} -> {o}")


if __name__ == "__main__":
    main()
