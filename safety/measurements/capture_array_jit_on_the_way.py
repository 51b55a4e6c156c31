"""Measurement behind SPMD003's unbatched-array form with a jit between the spmd vmap and the shard_map (jax
0.10.2, CPU, 8 virtual devices; fuzz seed 320304). Run: python safety/measurements/capture_array_jit_on_the_way.py

A shard_map body closes over a module-level array W with `in_specs=P()`, `out_specs=P()` (W unbatched: kind
ARRAY; or the batched block itself captured by a nested body: kind BATCHED), reached from
`jax.vmap(apply, spmd_axis_name=a)` called eagerly on a 2x4 mesh ('x', 'y'), Auto or Explicit (the batch not
placed), for where a jit sits:
- none; around the vmap (`jax.jit(jax.vmap(...))`);
- on the way: a `@jax.jit` on the function applying the shard_map (`block`), on the vmapped function
  (`apply`), a `jax.jit(block)(x)` call inside `apply`;
- around the shard_map (`jax.jit(shard_map(...))`);
and check_vma True / False. Each line: mesh, kind, jit, check_vma, spmd axis, then OK, WRONG or RAISED <error>.
"""
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import itertools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType
from jax.sharding import PartitionSpec as P

W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)


def build(mesh, kind, where, check):
    if kind == "ARRAY":
        def body(b):
            return b * W
        def ref(b):
            return b * np.asarray(W)
    else:
        body = None
        def ref(b):
            return b * b

    def smap(x):
        fn = body if kind == "ARRAY" else (lambda b: b * x)  # BATCHED: the body closes over the block x
        s = jax.shard_map(fn, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=check)
        return jax.jit(s)(x) if where == "around shard_map" else s(x)

    block = jax.jit(smap) if where == "on block" else smap

    def apply(x):
        if where == "jit(block)(x)":
            return jax.jit(block)(x)
        return block(x)

    apply_fn = jax.jit(apply) if where == "on apply" else apply
    return apply_fn, ref


def run(types, kind, where, check, spmd):
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=types)
    fn, ref = build(mesh, kind, where, check)
    xs = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    vm = jax.vmap(fn, spmd_axis_name=spmd)
    if where == "around vmap":
        vm = jax.jit(vm)
    try:
        with jax.set_mesh(mesh) if types[0] is AxisType.Explicit else _null():
            got = np.asarray(vm(jnp.asarray(xs)))
    except Exception as e:  # noqa: BLE001 - the measurement records what JAX raises
        return f"RAISED {type(e).__name__}: {str(e).splitlines()[0][:90]}"
    want = np.stack([ref(x) for x in xs])
    return "OK" if got.shape == want.shape and np.allclose(got, want, atol=1e-5) else f"WRONG {got.shape}"


class _null:
    def __enter__(self):
        return None

    def __exit__(self, *a):
        return False


def main():
    wheres = ["none", "around vmap", "on block", "on apply", "jit(block)(x)", "around shard_map"]
    for types, kind, where, check, spmd in itertools.product(
        [(AxisType.Auto,) * 2, (AxisType.Explicit,) * 2], ["ARRAY", "BATCHED"], wheres, [True, False],
        ["x", "y", ("x", "y")],
    ):
        mesh_name = "Auto" if types[0] is AxisType.Auto else "Explicit"
        print(mesh_name, kind, where, f"check_vma={check}", spmd, run(types, kind, where, check, spmd), flush=True)


if __name__ == "__main__":
    main()
