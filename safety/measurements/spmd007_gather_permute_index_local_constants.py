"""Issue 22 (SPMD007 bodies never measured before): `all_gather`, `ppermute`, `psum_scatter`, `axis_index` and
products with a constant bound inside a function, when an inner `jax.vmap` or `jax.lax.map(g, xs, batch_size=2)`
sits between the spmd vmap (`'x'`) and a shard_map (hazard H2, SPMD007).

Run: `python safety/measurements/spmd007_gather_permute_index_local_constants.py` (8 virtual CPU devices; jax
0.10.2).

The harness is spmd007_body_collectives_constants.py's: Auto meshes `Mesh(devices.reshape(2, 4), ('x', 'y'))`
with specs `P()` and `P('y')` (in_specs = out_specs), and `(2, 2, 2)` over ('x', 'y', 'z') with `P('y')`; batch 8
of examples (4, 8); `jax.vmap(f, spmd_axis_name='x')` with `f(v) = WAY(block, v)`, `block(r) = shard_map(BODY,
...)(r)` applied to one row (8,) (the block `b`: (8,) under `P()`, (8 / |y|,) under `P('y')`). WAY: an inner
`jax.vmap(block)` and `lax.map(block, v, batch_size=2)`; variants check_vma True/False, eager/jit.

Part 1, collectives over `A` in `'y'`, `'z'`: `all_gather(b, A, tiled=True)[0:n]` (sliced back to the block),
`all_gather(b, A, tiled=True)` (whole, out_specs `P()` only: its size differs from the block's),
`all_gather(b, A)` untiled, `jnp.sin(all_gather(b, A, tiled=True))[0:n]`, `all_gather(jnp.sin(b), ...)[0:n]`;
`ppermute(b, A, perm)` with a full cycle over `A` (and a swap of two devices), `jnp.sin(ppermute(...))`,
`ppermute(b, A, ...) ** 2`; `psum_scatter(all_gather(b, A, tiled=True), A, tiled=True)`; `axis_index`: `b +
axis_index(A)`, `b * axis_index(A)`, `jnp.sin(b) + axis_index(A)`, `b + axis_index(A).astype(b.dtype)`,
`b * 0 + axis_index(A)`.
Part 2, products with a constant bound inside a function (module-level constants were measured before): `M`
(n x n) bound in the spmd-vmapped function `f`, in `block` (under the inner vmap), or in a `def` body, to
`np.linspace(...).reshape(n, n)` (numpy: concrete) or `jnp.ones((n, n)) * 0.25` (a jax array made at trace
time: a tracer under jit); `b @ M`, `jnp.dot(b, M)`, `jnp.einsum('i,ij->j', b, M)`, `M @ b`; `b @ jnp.eye(n)`
made inline in the body; and the controls `b * M[0]` (elementwise with a local vector) and `b @ m` with `m`
computed from the spmd vmap's argument (`jnp.outer(v[0], v[0])`, a batched value: SPMD003's case).
Reference: the same program under a plain `jax.vmap`, `check_vma=False`, `batch_size=None` (a scan), eager; a
body whose reference raises prints `reference raises ...` (it is not a valid program without the spmd vmap).
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
MESHES = {"2x4, P()": ((2, 4), ("x", "y"), P()), "2x4, P('y')": ((2, 4), ("x", "y"), P("y")),
          "2x2x2, P('y')": ((2, 2, 2), ("x", "y", "z"), P("y"))}
WAYS = ("inner vmap", "map 2")
SIZES = {"2x4": {"y": 4}, "2x2x2": {"y": 2, "z": 2}}


def cycle(size):
    return [(i, (i + 1) % size) for i in range(size)]


def collective_bodies(axis, size):
    """Part 1: name -> (n -> body) for collectives over `axis` of `size` devices."""
    lax = jax.lax
    a = repr(axis)
    return {
        f"all_gather(b, {a}, tiled=True)[0:n]": lambda n: (lambda b: lax.all_gather(b, axis, tiled=True)[0:n]),
        f"all_gather(b, {a}, tiled=True) (whole)": lambda n: (lambda b: lax.all_gather(b, axis, tiled=True)),
        f"all_gather(b, {a}) (untiled)": lambda n: (lambda b: lax.all_gather(b, axis)),
        f"jnp.sin(all_gather(b, {a}, tiled=True))[0:n]": lambda n: (
            lambda b: jnp.sin(lax.all_gather(b, axis, tiled=True))[0:n]),
        f"all_gather(jnp.sin(b), {a}, tiled=True)[0:n]": lambda n: (
            lambda b: lax.all_gather(jnp.sin(b), axis, tiled=True)[0:n]),
        f"ppermute(b, {a}, cycle)": lambda n: (lambda b: lax.ppermute(b, axis, cycle(size))),
        f"ppermute(b, {a}, swap 0 1)": lambda n: (lambda b: lax.ppermute(b, axis, [(0, 1), (1, 0)])),
        f"jnp.sin(ppermute(b, {a}, cycle))": lambda n: (lambda b: jnp.sin(lax.ppermute(b, axis, cycle(size)))),
        f"ppermute(b, {a}, cycle) ** 2": lambda n: (lambda b: lax.ppermute(b, axis, cycle(size)) ** 2),
        f"psum_scatter(all_gather(b, {a}), {a})": lambda n: (
            lambda b: lax.psum_scatter(lax.all_gather(b, axis, tiled=True), axis, tiled=True)),
        f"b + axis_index({a})": lambda n: (lambda b: b + lax.axis_index(axis)),
        f"b * axis_index({a})": lambda n: (lambda b: b * lax.axis_index(axis)),
        f"jnp.sin(b) + axis_index({a})": lambda n: (lambda b: jnp.sin(b) + lax.axis_index(axis)),
        f"b + axis_index({a}).astype(b.dtype)": lambda n: (lambda b: b + lax.axis_index(axis).astype(b.dtype)),
        f"b * 0 + axis_index({a})": lambda n: (lambda b: b * 0 + lax.axis_index(axis)),
    }


def linspace(n):
    return np.linspace(-1.0, 1.0, n * n, dtype=np.float32).reshape(n, n)


def ones(n):
    return jnp.ones((n, n), dtype=jnp.float32) * 0.25


PRODUCTS = {
    "b @ M": lambda b, m: b @ m,
    "jnp.dot(b, M)": lambda b, m: jnp.dot(b, m),
    "jnp.einsum('i,ij->j', b, M)": lambda b, m: jnp.einsum("i,ij->j", b, m),
    "M @ b": lambda b, m: m @ b,
    "b * M[0] (elementwise, control)": lambda b, m: b * m[0],
}


def program(mesh_key, body_for, way, spmd, check_vma, jit, where="body", make=None):
    """`body_for(n)` -> body (part 1, and the inline forms); or (part 2) `make` builds the constant in `where`:
    "f" (the spmd-vmapped function), "block" (under the inner vmap), "def" (inside the body), "batched"."""
    shape, names, spec = MESHES[mesh_key]
    mesh = Mesh(np.array(jax.devices()).reshape(shape), names)
    n = 8 if spec == P() else 8 // mesh.shape["y"]

    def f(v):
        m_f = make(n) if where == "f" else None
        m_batched = jnp.outer(v[0, :n], v[0, :n]) if where == "batched" else None

        def block(r):
            if where == "block":
                m = make(n)
                body = lambda b: body_for(b, m)
            elif where == "f":
                body = lambda b: body_for(b, m_f)
            elif where == "batched":
                body = lambda b: body_for(b, m_batched)
            elif where == "def":
                def body(b):
                    m = make(n)
                    return body_for(b, m)
            else:
                body = body_for(n)
            return jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma)(r)

        if way.startswith("map"):
            size = way.split()[1]
            return jax.lax.map(block, v, batch_size=None if size == "None" else int(size))
        return jax.vmap(block)(v)

    f = jax.vmap(f, spmd_axis_name=spmd) if spmd else jax.vmap(f)
    return jax.jit(f) if jit else f


def group(label, mesh_key, body_for, way, **kw):
    ref = value(lambda: np.asarray(program(mesh_key, body_for, "map None", None, False, False, **kw)(X)))
    if isinstance(ref, str):
        print(f"{label}  reference {ref}", flush=True)
        return
    runs = {f"cv={cv} {'jit' if jit else 'eager'}":
            (lambda cv=cv, jit=jit: program(mesh_key, body_for, way, "x", cv, jit, **kw)(X))
            for cv, jit in itertools.product((True, False), (False, True))}
    show_group(label, runs, ref)


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("all_gather / ppermute / psum_scatter / axis_index and function-local constants under an inner vmap",
           variants)
    print("-- part 1: collectives")
    for mesh_key, way in itertools.product(MESHES, WAYS):
        for axis, size in SIZES[mesh_key.split(",")[0]].items():
            for name, body_for in collective_bodies(axis, size).items():
                group(f"{mesh_key:14} {name:46} {way:10}", mesh_key, body_for, way)
    print("-- part 2: products with a constant bound inside a function")
    for mesh_key, way in itertools.product(("2x4, P()", "2x4, P('y')"), WAYS):
        for (pname, product), (kind, make), where in itertools.product(
            PRODUCTS.items(), (("np.linspace", linspace), ("jnp.ones", ones)), ("f", "block", "def")
        ):
            label = f"{mesh_key:14} {pname + ', M = ' + kind + ' in ' + where:60} {way:10}"
            group(label, mesh_key, product, way, where=where, make=make)
        eye = lambda n: (lambda b: b @ jnp.eye(n, dtype=b.dtype))
        group(f"{mesh_key:14} {'b @ jnp.eye(n) (inline in the body)':60} {way:10}", mesh_key, eye, way)
        group(f"{mesh_key:14} {'b @ m, m = jnp.outer(v[0], v[0]) (batched)':60} {way:10}", mesh_key,
              PRODUCTS["b @ M"], way, where="batched")


if __name__ == "__main__":
    main()
