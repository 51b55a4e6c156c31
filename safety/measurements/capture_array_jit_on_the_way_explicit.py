"""Measurement behind SPMD003's unbatched-array form with a jit between the spmd vmap and the shard_map on
Explicit and mixed meshes (jax 0.10.2, CPU, 8 virtual devices). Run:
python safety/measurements/capture_array_jit_on_the_way_explicit.py

As capture_array_jit_on_the_way.py (a shard_map body closing over the module-level array W, `in_specs=P()`,
`out_specs=P()`, reached from an eager `jax.vmap(apply, spmd_axis_name=a)`), on a 2x4 mesh ('x', 'y') of
Explicit axes or of one Explicit and one Auto axis, for where the jit sits (none; `@jax.jit` on the function
applying the shard_map; on the vmapped function; `jax.jit(block)(x)` inside it), check_vma True / False,
spmd 'x' and ('x', 'y'), the batch placed on the spmd axes (`jax.device_put(xs, NamedSharding(mesh,
P(a)))`) or not, called under `jax.set_mesh(mesh)` or not. Each line: mesh, jit, check_vma, spmd, placement,
context, then OK, WRONG or RAISED <error>.

Verdict (measured, 192 lines): with a jit on the way every Explicit-mesh variant runs and matches (placed or
not, any check_vma, with or without set_mesh); on the mixed meshes too, except the batch placed on ('x', 'y'),
which raises `Only one of spmd_axis_name or arrays sharded on Explicit mesh axis type is allowed` (the
placement, not the capture). Without a jit they raise (`ManualAxisType` on the mixed meshes unplaced with
check_vma=True; elsewhere the input placement's `in_specs ... does not match the specs of the input` or
SPMD008's out_specs error with check_vma=False) or run (spmd 'x', batch placed, check_vma=True).
"""
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import itertools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)
MESHES = {
    "Explicit": (AxisType.Explicit, AxisType.Explicit),
    "Explicit+Auto": (AxisType.Explicit, AxisType.Auto),
    "Auto+Explicit": (AxisType.Auto, AxisType.Explicit),
}


def run(types, where, check, spmd, placed, ctx):
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=types)

    def body(b):
        return b * W

    def smap(x):
        return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=check)(x)

    block = jax.jit(smap) if where == "on block" else smap

    def apply(x):
        return jax.jit(block)(x) if where == "jit(block)(x)" else block(x)

    fn = jax.jit(apply) if where == "on apply" else apply
    xs = jnp.asarray((np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0)
    want = np.asarray(xs) * np.asarray(W)
    try:
        if placed:
            xs = jax.device_put(xs, NamedSharding(mesh, P(spmd)))
        if ctx:
            with jax.set_mesh(mesh):
                got = np.asarray(jax.vmap(fn, spmd_axis_name=spmd)(xs))
        else:
            got = np.asarray(jax.vmap(fn, spmd_axis_name=spmd)(xs))
    except Exception as e:  # noqa: BLE001 - the measurement records what JAX raises
        return f"RAISED {type(e).__name__}: {str(e).splitlines()[0][:100]}"
    return "OK" if got.shape == want.shape and np.allclose(got, want, atol=1e-5) else f"WRONG {got.shape}"


def main():
    wheres = ["none", "on block", "on apply", "jit(block)(x)"]
    for (name, types), where, check, spmd, placed, ctx in itertools.product(
        MESHES.items(), wheres, [True, False], ["x", ("x", "y")], [False, True], [False, True]
    ):
        outcome = run(types, where, check, spmd, placed, ctx)
        print(name, where, f"check_vma={check}", spmd, "placed" if placed else "unplaced",
              "set_mesh" if ctx else "-", outcome, flush=True)


if __name__ == "__main__":
    main()
