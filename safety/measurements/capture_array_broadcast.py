"""Measurement behind SPMD003 for an unbatched array closed over by an all-replicated body (jax 0.10.2, CPU, 8
virtual devices). Run: python safety/measurements/capture_array_broadcast.py

A module-level array W (not batched) is read by a shard_map body with `in_specs=P()`, `out_specs=P()`,
`check_vma=True`, under `jax.vmap(apply, spmd_axis_name=a)` on a 2x4 mesh ('x', 'y'), for:
- the per-example block shape b (the body's operand; batch 8) and W's shape: W of lower rank than b (jnp
  broadcasting adds leading dimensions to W), of the same rank (also with size-1 dimensions), of higher rank;
- the body expression: `b * W`, `W * b`, `b + W`, `b - W`, `W / (b * b + 1.0)`, `b * W + W`,
  `(b * 2.0 + 1.0) * W`, `jnp.maximum(b, W)`;
- the mesh: Auto (spmd axis 'x' and 'y'); an Explicit mesh with the batch unplaced, under jit;
- eager / jax.jit.
Each line: mesh, spmd axis, b shape, W shape, expression, jit, then OK, WRONG or RAISED <error>.
"""
import itertools
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType
from jax.sharding import PartitionSpec as P

EXPRS = {
    "b * W": (lambda b, w: b * w),
    "W * b": (lambda b, w: w * b),
    "b + W": (lambda b, w: b + w),
    "b - W": (lambda b, w: b - w),
    "W / (b * b + 1.0)": (lambda b, w: w / (b * b + 1.0)),
    "b * W + W": (lambda b, w: b * w + w),
    "(b * 2.0 + 1.0) * W": (lambda b, w: (b * 2.0 + 1.0) * w),
    "jnp.maximum(b, W)": (lambda b, w: jnp.maximum(b, w)),
}
SHAPES = [((8,), (8,)), ((8, 8), (8,)), ((8, 8, 8), (8,)), ((8, 8, 8), (8, 8)), ((8, 8), (8, 8)),
          ((8, 8), (1, 8)), ((8, 8), (8, 1)), ((8,), (8, 8)), ((8, 8), (2, 8, 8))]


def run(types, spmd, bshape, wshape, name, jit):
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=types)
    w_np = np.linspace(0.5, 1.5, int(np.prod(wshape)), dtype=np.float32).reshape(wshape)
    W = jnp.asarray(w_np)
    op = EXPRS[name]

    def apply(x):
        return jax.shard_map(lambda b: op(b, W), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=True)(x)

    size = 8 * int(np.prod(bshape))
    xs0 = (np.arange(size, dtype=np.float32).reshape((8, *bshape)) - size / 3) / (size / 4)
    f = jax.vmap(apply, spmd_axis_name=spmd)
    f = jax.jit(f) if jit else f
    ref = np.stack([np.asarray(op(jnp.asarray(x), W)) for x in xs0])
    try:
        r = f(jnp.asarray(xs0))
        return "OK" if r.shape == ref.shape and np.allclose(r, ref) else "WRONG"
    except Exception as e:  # noqa: BLE001 (the outcome is what is measured)
        return "RAISED " + type(e).__name__ + ": " + str(e).splitlines()[0][:80]


def main():
    auto, explicit = (AxisType.Auto,) * 2, (AxisType.Explicit,) * 2
    for (bshape, wshape), name, jit in itertools.product(SHAPES, EXPRS, [False, True]):
        if name != "b * W" and (bshape, wshape) not in (((8, 8), (8,)), ((8,), (8,))):
            continue
        for mesh_name, types, spmd in (("auto", auto, "x"), ("auto", auto, "y"), ("explicit", explicit, "x")):
            if mesh_name == "explicit" and not jit:
                continue  # eager fails on the in_specs check of the unplaced input
            print(f"{mesh_name:8} spmd={spmd} b={bshape!s:10} W={wshape!s:10} {name:20} jit={jit!s:5}",
                  run(types, spmd, bshape, wshape, name, jit), flush=True)


if __name__ == "__main__":
    main()
