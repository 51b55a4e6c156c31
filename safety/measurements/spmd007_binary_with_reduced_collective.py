"""Issue 22 (new-user trial breaker4, p34): under hazard H2 (an inner `jax.vmap` or `jax.lax.map(g, xs,
batch_size=2)` between the spmd vmap and a `check_vma=True` shard_map), which bodies that combine the block with a
collective's result by a binary operator run: `b + jax.lax.psum(b.sum(), 'model')` was reported by SPMD007 and
runs (safety/trials/breaker4/measure_h2_psum_binary.py).

Run: `python safety/measurements/spmd007_binary_with_reduced_collective.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(Auto, Auto))   # also (2, 2, 2) ('data', 'model', 'z')
    def head(x):                                          # x: one head's row (8,)
        return jax.shard_map(BODY, mesh=mesh, in_specs=S, out_specs=S, check_vma=cv)(x)
    f = jax.vmap(lambda v: WAY(head, v), spmd_axis_name='data')   # WAY: jax.vmap(head)(v) or lax.map(head, v, batch_size=2)
    f(xs)  # xs (4, 4, 8), eager or under jax.jit

S: `P('model')` (the block split over 'model', 2 of 8) or `P()` (the whole row; then the collective over 'model'
sums 4 copies). BODY (A = 'model'): the p34 form `psum(b.sum(), A) + b` and its spellings `b + psum(b.sum(), A)`,
`b * psum(b.sum(), A)`, `b - psum(b.sum(), A)`, `b / psum(b.sum(), A)`, `b + psum(jnp.sum(b), A)`, `b +
pmax(b.max(), A)`, `b + pmin(b.min(), A)`, `jnp.sin(b) + psum(b.sum(), A)`, `b + psum(jnp.sin(b).sum(), A)`; then
neighbours: `b + psum(b, A)` (the collective keeps the block's shape), `b + psum(b[0], A)` (a scalar that is not a
reduction), `b + b.sum()` (a reduction without a collective), `b + psum(b.sum(), A) * 2.0` and `(b + psum(b.sum(),
A)) * 2.0` (a further binary step with a constant), `b - pmean(b.mean(), A)` (pmean: measured to fail in p34),
`b + psum(b.sum(), 'data')` (over the spmd axis), on (2, 2, 2) `b + psum(b.sum(), 'z')` (an axis the block is not
split on) and `b + psum(b.sum(), ('model', 'z'))`; controls `b * b`, `b + b`, `b.sum() * b`, `b + jnp.max(b)`,
`jnp.min(b) - b`, `b + b.mean()`, `(b + b.sum()) + psum(b.sum(), A)`, `b + psum(b.sum(), A) + 1.0`,
`b + psum(b.sum() * 2.0, A)`.
Reference: numpy. Ways: inner `jax.vmap` / `lax.map(batch_size=2)` x check_vma True/False x eager/jit.

Result (jax 0.10.2), both specs: a `+`, `-`, `*` or `/` step between the block (or `jnp.sin(b)`) and a scalar it
reduces to with `.sum()`, `.max()`, `.min()`, `jnp.sum`, `jnp.max`, `jnp.min`, bare or under `psum` / `pmax` /
`pmin` over a non-spmd axis, runs and matches every way (the p34 form, every spelling above, `b + psum(b[0], A)`,
`b + b.sum()`, `b.sum() * b`, `b + jnp.max(b)`, `jnp.min(b) - b`, the chain `(b + b.sum()) + psum(b.sum(), A)`;
`b + psum(b.sum(), 'z')` on (2, 2, 2)). With check_vma=True these fail (the inner vmap: `pvary is a
invariant->variant collective`; `lax.map`: `... out_specs which require replication which can't be statically
inferred`) and run with check_vma=False: `b * b`, `b + b`, `b + psum(b, A)` (the block's shape), `b + b.mean()`
(the mean divides by a constant), `b - pmean(b.mean(), A)`, and any step with a constant (`b + psum(b.sum(), A) *
2.0`, `(b + psum(b.sum(), A)) * 2.0`, `b + psum(b.sum(), A) + 1.0`, `b + psum(b.sum() * 2.0, A)`). Over the spmd
axis (`psum(b.sum(), 'data')`): the `pvary` error with check_vma=True (check_vma=False runs; its values are a
different program, no reference). `psum(b.sum(), ('model', 'z'))` under `P('model')`: `jax.lax.psum can only
accept axis_name which corresponds to ...` with check_vma=True (the collective's own error, not H2's).
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _outcome import header, show_group  # noqa: E402 - sets XLA_FLAGS first

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, PartitionSpec as P  # noqa: E402

XS = (np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) + 3.0) / 40.0
psum, pmax, pmin, pmean = jax.lax.psum, jax.lax.pmax, jax.lax.pmin, jax.lax.pmean


def mesh_of(kind):
    if kind == "(2,4)":
        return jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)
    return jax.make_mesh((2, 2, 2), ('data', 'model', 'z'), axis_types=(AxisType.Auto,) * 3)


# name: (body, reference: (the row's blocks, the sum of them) -> the outputs, one per block; None: no reference)
BODIES = {
    "psum(b.sum(),A) + b [p34]": (lambda b: psum(b.sum(), 'model') + b, lambda bs, t: [t + b for b in bs]),
    "b + psum(b.sum(),A)": (lambda b: b + psum(b.sum(), 'model'), lambda bs, t: [b + t for b in bs]),
    "b * psum(b.sum(),A)": (lambda b: b * psum(b.sum(), 'model'), lambda bs, t: [b * t for b in bs]),
    "b - psum(b.sum(),A)": (lambda b: b - psum(b.sum(), 'model'), lambda bs, t: [b - t for b in bs]),
    "b / psum(b.sum(),A)": (lambda b: b / psum(b.sum(), 'model'), lambda bs, t: [b / t for b in bs]),
    "b + psum(jnp.sum(b),A)": (lambda b: b + psum(jnp.sum(b), 'model'), lambda bs, t: [b + t for b in bs]),
    "b + pmax(b.max(),A)": (lambda b: b + pmax(b.max(), 'model'), lambda bs, t: [b + max(x.max() for x in bs) for b in bs]),
    "b + pmin(b.min(),A)": (lambda b: b + pmin(b.min(), 'model'), lambda bs, t: [b + min(x.min() for x in bs) for b in bs]),
    "jnp.sin(b) + psum(b.sum(),A)": (lambda b: jnp.sin(b) + psum(b.sum(), 'model'), lambda bs, t: [np.sin(b) + t for b in bs]),
    "b + psum(jnp.sin(b).sum(),A)": (lambda b: b + psum(jnp.sin(b).sum(), 'model'),
                                     lambda bs, t: [b + sum(np.sin(x).sum() for x in bs) for b in bs]),
    "b + psum(b,A)": (lambda b: b + psum(b, 'model'), lambda bs, t: [b + sum(bs) for b in bs]),
    "b + psum(b[0],A)": (lambda b: b + psum(b[0], 'model'), lambda bs, t: [b + sum(x[0] for x in bs) for b in bs]),
    "b + b.sum()": (lambda b: b + b.sum(), lambda bs, t: [b + b.sum() for b in bs]),
    "b + psum(b.sum(),A) * 2.0": (lambda b: b + psum(b.sum(), 'model') * 2.0, lambda bs, t: [b + t * 2.0 for b in bs]),
    "(b + psum(b.sum(),A)) * 2.0": (lambda b: (b + psum(b.sum(), 'model')) * 2.0, lambda bs, t: [(b + t) * 2.0 for b in bs]),
    "b - pmean(b.mean(),A)": (lambda b: b - pmean(b.mean(), 'model'),
                              lambda bs, t: [b - np.mean([x.mean() for x in bs]) for b in bs]),
    "b + psum(b.sum(),'data') [spmd axis]": (lambda b: b + psum(b.sum(), 'data'), None),
    "b * b": (lambda b: b * b, lambda bs, t: [b * b for b in bs]),
    "b + b": (lambda b: b + b, lambda bs, t: [b + b for b in bs]),
    "b.sum() * b": (lambda b: b.sum() * b, lambda bs, t: [b.sum() * b for b in bs]),
    "b + jnp.max(b)": (lambda b: b + jnp.max(b), lambda bs, t: [b + b.max() for b in bs]),
    "jnp.min(b) - b": (lambda b: jnp.min(b) - b, lambda bs, t: [b.min() - b for b in bs]),
    "b + b.mean()": (lambda b: b + b.mean(), lambda bs, t: [b + b.mean() for b in bs]),
    "(b + b.sum()) + psum(b.sum(),A)": (lambda b: (b + b.sum()) + psum(b.sum(), 'model'),
                                         lambda bs, t: [b + b.sum() + t for b in bs]),
    "b + psum(b.sum(),A) + 1.0": (lambda b: b + psum(b.sum(), 'model') + 1.0, lambda bs, t: [b + t + 1.0 for b in bs]),
    "b + psum(b.sum() * 2.0,A)": (lambda b: b + psum(b.sum() * 2.0, 'model'), lambda bs, t: [b + 2.0 * t for b in bs]),
}
BODIES_3D = {
    "b + psum(b.sum(),'z')": (lambda b: b + psum(b.sum(), 'z'), "z"),
    "b + psum(b.sum(),('model','z'))": (lambda b: b + psum(b.sum(), ('model', 'z')), "model,z"),
}


def program(mesh_kind, body, spec, way, cv, jit):
    mesh = mesh_of(mesh_kind)

    def head(x):
        return jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv)(x)

    if way == "vmap":
        inner = lambda v: jax.vmap(head)(v)  # noqa: E731
    else:
        inner = lambda v: jax.lax.map(head, v, batch_size=2)  # noqa: E731
    f = jax.vmap(inner, spmd_axis_name='data')
    return (jax.jit(f) if jit else f)(jnp.asarray(XS))


def reference(ref, spec, parts):
    """Apply `ref` to each row split into `parts` blocks (P('model')) or to `parts` copies of the whole row (P())."""
    out = np.empty_like(XS)
    for i in range(XS.shape[0]):
        for j in range(XS.shape[1]):
            row = XS[i, j]
            if spec == P('model'):
                bs = np.split(row, parts)
                res = ref(bs, sum(b.sum() for b in bs))
                out[i, j] = np.concatenate(res)
            else:
                bs = [row] * parts
                res = ref(bs, sum(b.sum() for b in bs))
                out[i, j] = res[0]
    return out


def variants(mesh_kind, body, spec):
    return {
        f"{way} cv={cv} {'jit' if jit else 'eager'}": (
            lambda way=way, cv=cv, jit=jit: program(mesh_kind, body, spec, way, cv, jit)
        )
        for way in ("vmap", "lax.map") for cv in (True, False) for jit in (False, True)
    }


if __name__ == "__main__":
    names = [f"{w} cv={c} {j}" for w in ("vmap", "lax.map") for c in (True, False) for j in ("eager", "jit")]
    header("H2: a binary step between the block and a collective's result", names)
    for spec in (P('model'), P()):
        for label, (body, ref) in BODIES.items():
            expected = reference(ref, spec, 4) if ref is not None else None
            show_group(f"(2,4) {str(spec):10} {label:40}", variants("(2,4)", body, spec), expected)
    for label, (body, axes) in BODIES_3D.items():
        spec = P('model')

        def ref3(bs, t, axes=axes):
            # block over 'model' (2 parts); 'z' copies: psum over z doubles, over (model, z) sums both blocks twice
            total = sum(b.sum() for b in bs)
            return [b + (2.0 * b.sum() if axes == "z" else 2.0 * total) for b in bs]
        show_group(f"(2,2,2) {str(spec):8} {label:40}", variants("(2,2,2)", body, spec), reference(ref3, spec, 2))
