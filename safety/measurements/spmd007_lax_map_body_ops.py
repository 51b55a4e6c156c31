"""Fuzz seed 110652 (issue 22): which shard_map bodies fail when `jax.lax.map(g, xs, batch_size=k)` sits between
the spmd vmap and a `check_vma=True` shard_map, compared with an inner `jax.vmap` at the same place.

Run: `python safety/measurements/spmd007_lax_map_body_ops.py` (8 virtual CPU devices; jax 0.10.2).

`jax.lax.map` with a `batch_size` is `scan` over `jax.vmap(g)` of chunks, plus one more `jax.vmap(g)` over the
remainder (jax/_src/lax/control_flow/loops.py, `map`). The question is whether its failure (`... was given
out_specs which require replication which can't be statically inferred`) follows the same rule as SPMD007's
inner `jax.vmap` (hazard H2: fails once the body applies a binary primitive; unary-only bodies run).

Meshes (Auto): `Mesh(devices, ('x',))` (seed 110652's 1-D mesh, specs `P()`), and `Mesh(devices.reshape(2, 4),
('x', 'y'))` with specs `P()` and `P('y')` (the non-spmd axis). Batch 8 (the 1-D mesh's size), one example
(4, 8);
`jax.vmap(f, spmd_axis_name='x')` with `f(v) = WAY(g, v)`, `g = shard_map(BODY, in_specs=S, out_specs=S,
check_vma=cv)` applied to one row (8,). WAY: `lax.map` with batch_size None, 1, 2, 3 (a remainder of 1), 4 (one
chunk of the whole example), an inner `jax.vmap(g)`, or `g` applied directly to the example (rows (4, 8)).
BODY: python-scalar multiply and add, integer_pow, `b ** 0.5`, unary ops, `b * b`, `psum` over 'y', a captured
numpy array, a dot with a captured matrix, `dynamic_slice_in_dim` (seed 110652's body), a `np.float32` scalar.
Reference: the same program under a plain `jax.vmap`, `check_vma=False`, `batch_size=None` (a scan), eager.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from _outcome import header, show_group, value
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

X = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
W = np.linspace(0.5, 1.5, 8, dtype=np.float32)
M = np.linspace(-1.0, 1.0, 64, dtype=np.float32).reshape(8, 8)

BODIES = {
    "b * 2.0": lambda b: b * 2.0,
    "b + 1.0": lambda b: b + 1.0,
    "b * 2.0 + 1.0": lambda b: b * 2.0 + 1.0,
    "b * np.float32(2)": lambda b: b * np.float32(2.0),
    "b ** 2": lambda b: b**2,
    "b ** 0.5": lambda b: b**0.5,
    "jnp.sin(b)": jnp.sin,
    "jnp.exp(b)": jnp.exp,
    "-b": lambda b: -b,
    "b * b": lambda b: b * b,
    "b + b": lambda b: b + b,
    "jnp.maximum(b, 0.)": lambda b: jnp.maximum(b, 0.0),
    "psum(b, 'y')": lambda b: jax.lax.psum(b, "y"),
    "b * W (captured)": lambda b: b * W[: b.shape[-1]],
    "b @ M (captured)": lambda b: b @ M[: b.shape[-1], : b.shape[-1]],
    "dyn_slice then ** 2": lambda b: jax.lax.dynamic_slice_in_dim(b, 0, b.shape[-1], axis=-1) ** 2,
    "dyn_slice then * 2 + 1": lambda b: jax.lax.dynamic_slice_in_dim(b, 0, b.shape[-1], axis=-1) * 2.0 + 1.0,
    "dyn_slice": lambda b: jax.lax.dynamic_slice_in_dim(b, 0, b.shape[-1], axis=-1),
    "b[0:n] ** 2": lambda b: b[0 : b.shape[-1]] ** 2,
}
WAYS = ("map None", "map 1", "map 2", "map 3", "map 4", "inner vmap", "direct")
MESHES = {"1-D x, P()": ((8,), ("x",), P()), "2x4, P()": ((2, 4), ("x", "y"), P()),
          "2x4, P('y')": ((2, 4), ("x", "y"), P("y"))}


def program(mesh_key, body, way, spmd, check_vma, jit):
    shape, names, spec = MESHES[mesh_key]
    mesh = Mesh(np.array(jax.devices()).reshape(shape), names)
    g = jax.shard_map(BODIES[body], mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma)
    if way.startswith("map"):
        size = way.split()[1]
        size = None if size == "None" else int(size)
        f = lambda v: jax.lax.map(g, v, batch_size=size)
    elif way == "inner vmap":
        f = jax.vmap(g)
    else:
        f = g
    f = jax.vmap(f, spmd_axis_name=spmd)
    return jax.jit(f) if jit else f


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("shard_map bodies under lax.map(batch_size) / an inner vmap between the spmd vmap and it", variants)
    for mesh_key, body, way in itertools.product(MESHES, BODIES, WAYS):
        if "psum" in body and "y" not in MESHES[mesh_key][1]:
            continue
        ref = value(lambda m=mesh_key, b=body: np.asarray(program(m, b, "map None", None, False, False)(X)))
        runs = {f"cv={cv} {'jit' if jit else 'eager'}":
                (lambda cv=cv, jit=jit, m=mesh_key, b=body, w=way: program(m, b, w, "x", cv, jit)(X))
                for cv, jit in itertools.product((True, False), (False, True))}
        show_group(f"{mesh_key:12} {body:20} {way:10}", runs, ref)


if __name__ == "__main__":
    main()
