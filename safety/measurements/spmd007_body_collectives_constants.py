"""Issue 22 (left open by fuzz seed 110652's fix): which collectives and which products with a captured constant
a shard_map body may apply when an inner `jax.vmap` or `jax.lax.map(g, xs, batch_size=k)` sits between the spmd
vmap and a `check_vma=True` shard_map (hazard H2, SPMD007), next to the unary and binary bodies already measured
(spmd007_lax_map_body_ops.py).

Run: `python safety/measurements/spmd007_body_collectives_constants.py` (8 virtual CPU devices; jax 0.10.2).

Meshes (Auto): `Mesh(devices.reshape(2, 4), ('x', 'y'))` with specs `P()` and `P('y')`, and
`Mesh(devices.reshape(2, 2, 2), ('x', 'y', 'z'))` with specs `P('y')` (a collective over `'z'`, an axis the block
is not split on, next to `'y'`, the one it is). The spmd axis is always `'x'`. Batch 8 of examples (4, 8);
`jax.vmap(f, spmd_axis_name='x')` with `f(v) = WAY(g, v)`, `g = shard_map(BODY, in_specs=S, out_specs=S,
check_vma=cv)` applied to one row (8,) (the block: (8,) under `P()`, (8 / |y|,) under `P('y')`). WAY: an inner
`jax.vmap(g)` and `lax.map` with batch_size 2 (spmd007_lax_map_body_ops.py measured every batch_size to give the
inner vmap's outcome).

BODY, part 1 (collectives): `psum`, `pmean`, `pmax`, `pmin` over `'y'`, `'z'`, `('y', 'z')` and the spmd axis
`'x'`; `all_gather(b, A, tiled=True)` (then a static slice back to the block's size, so the out_specs hold);
`ppermute` (a cycle); `psum_scatter(..., tiled=True)` (after an all_gather); `b + axis_index('y')` (binary);
compositions with unary steps (`jnp.sin(psum(b))`, `psum(jnp.sin(b))`) and with binary ones (`psum(b) * 2.0`,
`psum(b * 2.0)`, `psum(b) + b`).
BODY, part 2 (products with a constant the body closes over): `b @ M`, `jnp.dot(b, M)`, `jnp.matmul(b, M)`,
`jnp.einsum('i,ij->j', b, M)` (also `'a,ab->b'`, `'i,ji->j'`, `'...i,ij->...j'`, implicit `'i,ij'`), `M @ b`,
`jnp.dot(M, b)` with `M` a module `np.linspace` matrix, an
`np.array([[...]])` literal, a module `jnp.ones` (a jax array made at import), `jnp.eye(n)` made in the body;
`b * W` / `b + W` (elementwise, a captured vector); `b @ M + 1.0`, `jnp.sin(b @ M)`, `(b @ M) ** 2`; and `b @ m`
with `m` computed from the spmd vmap's own argument (`m = jnp.outer(v[0], v[0])`: a batched capture, SPMD003's
case). Every matrix is n x n for the block's size n.
Reference: the same program under a plain `jax.vmap`, `check_vma=False`, `batch_size=None` (a scan), eager; a
body whose reference raises (a collective over the spmd axis: without `spmd_axis_name` `'x'` is an ordinary mesh
axis, so its values differ by design) prints `reference raises ...`.
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
M8 = np.linspace(-1.0, 1.0, 64, dtype=np.float32).reshape(8, 8)
M2 = np.linspace(-1.0, 1.0, 4, dtype=np.float32).reshape(2, 2)
M4 = np.linspace(-1.0, 1.0, 16, dtype=np.float32).reshape(4, 4)
A8 = np.array([[float((i * 8 + j) % 5) - 2.0 for j in range(8)] for i in range(8)], dtype=np.float32)
J8 = jnp.ones((8, 8), dtype=jnp.float32) * 0.25
W8 = np.linspace(0.5, 1.5, 8, dtype=np.float32)


def mat(n, kind="linspace"):
    """The captured n x n constant of one kind (a slice made outside the body: the body sees a plain array)."""
    if kind == "literal":
        return A8[:n, :n]
    if kind == "jnp.ones":
        return J8[:n, :n]
    return {8: M8, 4: M4, 2: M2}[n]


def gather_back(axis):
    """all_gather over `axis` (tiled), then the block's own slice back (static bounds)."""
    def body(b):
        g = jax.lax.all_gather(b, axis, tiled=True)
        return g[0 : b.shape[0]]
    return body


def collective_bodies():
    """Part 1: name -> body factory (n -> body), with the mesh keys it applies to."""
    red = {"psum": jax.lax.psum, "pmean": jax.lax.pmean, "pmax": jax.lax.pmax, "pmin": jax.lax.pmin}
    bodies = {}
    for (rname, op), axis in itertools.product(red.items(), ("y", "z", ("y", "z"), "x")):
        bodies[f"{rname}(b, {axis!r})"] = (lambda n, op=op, axis=axis: (lambda b: op(b, axis)), axis)
    for axis in ("y", "z", "x"):
        bodies[f"all_gather(b, {axis!r})[0:n]"] = (lambda n, axis=axis: gather_back(axis), axis)
        bodies[f"ppermute(b, {axis!r}, cycle)"] = (
            lambda n, axis=axis: (lambda b: jax.lax.ppermute(b, axis, [(0, 1), (1, 0)])), axis)
    bodies["psum_scatter(all_gather(b, 'y'), 'y')"] = (
        lambda n: (lambda b: jax.lax.psum_scatter(jax.lax.all_gather(b, "y", tiled=True), "y", tiled=True)), "y")
    bodies["b + axis_index('y')"] = (lambda n: (lambda b: b + jax.lax.axis_index("y")), "y")
    bodies["jnp.sin(psum(b, 'y'))"] = (lambda n: (lambda b: jnp.sin(jax.lax.psum(b, "y"))), "y")
    bodies["psum(jnp.sin(b), 'y')"] = (lambda n: (lambda b: jax.lax.psum(jnp.sin(b), "y")), "y")
    bodies["psum(b, 'y') ** 2"] = (lambda n: (lambda b: jax.lax.psum(b, "y") ** 2), "y")
    bodies["pmax(psum(b, 'y'), 'y')"] = (lambda n: (lambda b: jax.lax.pmax(jax.lax.psum(b, "y"), "y")), "y")
    bodies["psum(b, 'y') * 2.0"] = (lambda n: (lambda b: jax.lax.psum(b, "y") * 2.0), "y")
    bodies["psum(b * 2.0, 'y')"] = (lambda n: (lambda b: jax.lax.psum(b * 2.0, "y")), "y")
    bodies["psum(b, 'y') + b"] = (lambda n: (lambda b: jax.lax.psum(b, "y") + b), "y")
    return bodies


def closing_over(step, kind="linspace"):
    """A body factory: `n -> (lambda b: step(b, m))`, the body closing over `m`, the n x n constant of one kind
    (`kind="vector"`: the first n entries of a vector), made outside the body."""
    def make(n):
        m = W8[:n] if kind == "vector" else mat(n, kind)
        return lambda b: step(b, m)
    return make


def constant_bodies():
    """Part 2: name -> body factory (n -> body)."""
    return {
        "b @ M (np.linspace)": closing_over(lambda b, m: b @ m),
        "b @ M (np.array literal)": closing_over(lambda b, m: b @ m, "literal"),
        "b @ M (module jnp.ones)": closing_over(lambda b, m: b @ m, "jnp.ones"),
        "b @ jnp.eye(n) (made in the body)": lambda n: (lambda b: b @ jnp.eye(n, dtype=b.dtype)),
        "jnp.dot(b, M)": closing_over(lambda b, m: jnp.dot(b, m)),
        "jnp.matmul(b, M)": closing_over(lambda b, m: jnp.matmul(b, m)),
        "jnp.einsum('i,ij->j', b, M)": closing_over(lambda b, m: jnp.einsum("i,ij->j", b, m)),
        "jnp.einsum('a,ab->b', b, M)": closing_over(lambda b, m: jnp.einsum("a,ab->b", b, m)),
        "jnp.einsum('i,ji->j', b, M)": closing_over(lambda b, m: jnp.einsum("i,ji->j", b, m)),
        "jnp.einsum('...i,ij->...j', b, M)": closing_over(lambda b, m: jnp.einsum("...i,ij->...j", b, m)),
        "jnp.einsum('i,ij', b, M) (implicit)": closing_over(lambda b, m: jnp.einsum("i,ij", b, m)),
        "M @ b": closing_over(lambda b, m: m @ b),
        "jnp.dot(M, b)": closing_over(lambda b, m: jnp.dot(m, b)),
        "b @ M (jnp.ones) then jnp.sin": closing_over(lambda b, m: jnp.sin(b @ m), "jnp.ones"),
        "jnp.sin(b @ M)": closing_over(lambda b, m: jnp.sin(b @ m)),
        "(b @ M) ** 2": closing_over(lambda b, m: (b @ m) ** 2),
        "jnp.sin(b) @ M": closing_over(lambda b, m: jnp.sin(b) @ m),
        "b @ M @ M": closing_over(lambda b, m: b @ m @ m),
        "b @ M + 1.0": closing_over(lambda b, m: b @ m + 1.0),
        "b * W (captured vector)": closing_over(lambda b, w: b * w, "vector"),
        "b + W (captured vector)": closing_over(lambda b, w: b + w, "vector"),
        "b @ b (no constant)": lambda n: (lambda b: b @ b),
    }


MESHES = {"2x4, P()": ((2, 4), ("x", "y"), P()), "2x4, P('y')": ((2, 4), ("x", "y"), P("y")),
          "2x2x2, P('y')": ((2, 2, 2), ("x", "y", "z"), P("y"))}
WAYS = ("inner vmap", "map 2")


def program(mesh_key, make_body, way, spmd, check_vma, jit, batched_capture=False):
    shape, names, spec = MESHES[mesh_key]
    mesh = Mesh(np.array(jax.devices()).reshape(shape), names)
    n = 8 if spec == P() else 8 // mesh.shape["y"]

    def f(v):
        if batched_capture:
            m = jnp.outer(v[0, :n], v[0, :n])

            def body(b):
                return b @ m  # the capture is the point
        else:
            body = make_body(n)
        g = jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma)
        if way.startswith("map"):
            size = way.split()[1]
            return jax.lax.map(g, v, batch_size=None if size == "None" else int(size))
        return jax.vmap(g)(v)

    f = jax.vmap(f, spmd_axis_name=spmd)
    return jax.jit(f) if jit else f


def group(label, mesh_key, make_body, way, batched_capture=False):
    ref = value(lambda: np.asarray(program(mesh_key, make_body, "map None", None, False, False, batched_capture)(X)))
    if isinstance(ref, str):
        print(f"{label}  reference {ref}")
    runs = {f"cv={cv} {'jit' if jit else 'eager'}":
            (lambda cv=cv, jit=jit: program(mesh_key, make_body, way, "x", cv, jit, batched_capture)(X))
            for cv, jit in itertools.product((True, False), (False, True))}
    show_group(label, runs, ref)


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("collectives and captured-constant products under an inner vmap / lax.map(batch_size)", variants)
    print("-- part 1: collectives")
    for (name, (make, axis)), mesh_key, way in itertools.product(collective_bodies().items(), MESHES, WAYS):
        axes = set(axis) if isinstance(axis, tuple) else {axis}
        if not axes <= set(MESHES[mesh_key][1]):
            continue
        group(f"{mesh_key:14} {name:42} {way:10}", mesh_key, make, way)
    print("-- part 2: products with a captured constant")
    for (name, make), mesh_key, way in itertools.product(constant_bodies().items(), ("2x4, P()", "2x4, P('y')"), WAYS):
        group(f"{mesh_key:14} {name:42} {way:10}", mesh_key, make, way)
    for mesh_key, way in itertools.product(("2x4, P()", "2x4, P('y')"), WAYS):
        group(f"{mesh_key:14} {'b @ m (m batched: outer(v[0], v[0]))':42} {way:10}", mesh_key, None, way, True)


if __name__ == "__main__":
    main()
