"""Issue 22 (fuzz seed 410389): a plain `jax.vmap` whose batch dimension is placed on no mesh axis, a
partial-manual shard_map (`axis_names={'x'}`, a strict subset of the mesh's axes) with in_specs `(P('x'), P())`
(one block varying over the manual axis, one replicated operand), check_vma=True, and a captured per-example
value `m` (or `v`): what the capture must meet for JAX to run it.

Run: `python safety/measurements/partial_manual_capture_replicated_operand.py` (8 virtual CPU devices; jax 0.10.2).

    def block(x, w, v):
        m = x.mean() + 2.0                                   # CAP `m`; CAP `v`: v, a batched argument
        return jax.shard_map(BODY, mesh=mesh, in_specs=SPECS, out_specs=P('x'), axis_names={'x'},
                             check_vma=cv)(x, w)
    jax.vmap(block)(xs, ws, vs)

Meshes: `jax.make_mesh((2, 2, 2), ('x', 'y', 'z'))` (the seed's) and `jax.make_mesh((2, 4), ('x', 'y'))`
(Explicit). xs (8, 8) placed `P(None, 'x')` (the batch dimension on no axis), ws (8,) (the `P()` operand, a
per-example scalar) placed `P(None)`, vs (8,) placed `P(None)` (committed), the capture `c` read in BODY.
SPECS `(P('x'), P())` (b: the block over 'x', w: replicated; applied to `(x, w)`) unless the row says
`swapped`: `(P(), P('x'))` applied to `(w, x)` (the first parameter `b` is then the replicated scalar, the
second `w` the block over 'x'). Ways: check_vma True/False x eager / `jax.jit(vmap)`.

Bodies (c: the capture): the seed's `((b * 2.0 + 1.0) * w) * c`, `(b * w) * c`, `c * (b * w)`, `(b + w) * c`,
`b * c + w`, `b * c * w`, `b * c` (w unread); c meeting the replicated operand alone: `w * c + b`,
`(w * 2.0) * c + b`, `c * w * b`; c meeting a product of both after an operation of its own: `jnp.exp(c) * (b * w)`;
other steps (fp6's spellings): `jnp.maximum(b, c) * w`, `jnp.abs(b) ** c + w` (c against the block) and
`jnp.maximum(w, c) + b`, `jnp.abs(w) ** c + b` (c against the replicated operand);
under `(P(), P('x'))`: `(b * w) * c` (a product of both: the block is `w` now), `b * c + w` (c meets the
replicated `b` alone), `w * c + b`.

Result (jax 0.10.2), every capture (`m`, `v`), both meshes:
check_vma=True, eager and jit: c as an operand of `*`/`+` whose other operand is a product or sum that reads the
block varying over 'x' runs and matches (`((b * 2.0 + 1.0) * w) * c`, `(b * w) * c`, `c * (b * w)`,
`(b + w) * c`, `b * c + w`, `b * c * w`, `b * c`; under `(P(), P('x'))` `(b * w) * c`, `w * c + b`): what
decides is that the other operand varies over the manual axis, whatever else it reads. c meeting the
replicated operand alone fails, `ValueError: For primitive mul, context mesh ... should match the aval mesh`
(`w * c + b`, `(w * 2.0) * c + b`, `c * w * b`; under `(P(), P('x'))` `b * c + w`), and so does an operation of
its own first (`jnp.exp(c) * (b * w)`: `For primitive exp`). The same for `jnp.maximum` and `**`: c against the
block (`jnp.maximum(b, c) * w`, `jnp.abs(b) ** c + w`) runs and matches, against the replicated operand
(`jnp.maximum(w, c) + b`, `jnp.abs(w) ** c + b`) fails (`For primitive max` / `pow, context mesh ...`). check_vma=False: `out_specs argument must refer to
an axis marked as manual` eagerly, `For primitive mul, context mesh ...` under jit, every body (SPMD008's
hazard; the exemption asks check_vma=True).
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _outcome import header, show_group  # noqa: E402 - sets XLA_FLAGS first

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

MESHES = {
    "(2,2,2) xyz": lambda: jax.make_mesh((2, 2, 2), ('x', 'y', 'z')),
    "(2,4) xy": lambda: jax.make_mesh((2, 4), ('x', 'y')),
}
XS = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
WS = np.linspace(0.5, 2.0, 8, dtype=np.float32)
VS = np.linspace(-1.0, 1.5, 8, dtype=np.float32)

FIRST = (P('x'), P())
SWAPPED = (P(), P('x'))
BODIES = {  # label: (specs, body(b, w, c))
    "((b*2+1)*w)*c [seed]": (FIRST, lambda b, w, c: ((b * 2.0 + 1.0) * w) * c),
    "(b*w)*c": (FIRST, lambda b, w, c: (b * w) * c),
    "c*(b*w)": (FIRST, lambda b, w, c: c * (b * w)),
    "(b+w)*c": (FIRST, lambda b, w, c: (b + w) * c),
    "b*c+w": (FIRST, lambda b, w, c: b * c + w),
    "b*c*w": (FIRST, lambda b, w, c: b * c * w),
    "b*c (w unread)": (FIRST, lambda b, w, c: b * c),
    "w*c+b": (FIRST, lambda b, w, c: w * c + b),
    "(w*2.0)*c+b": (FIRST, lambda b, w, c: (w * 2.0) * c + b),
    "c*w*b": (FIRST, lambda b, w, c: c * w * b),
    "jnp.exp(c)*(b*w)": (FIRST, lambda b, w, c: jnp.exp(c) * (b * w)),
    "jnp.maximum(b,c)*w": (FIRST, lambda b, w, c: jnp.maximum(b, c) * w),
    "jnp.maximum(w,c)+b": (FIRST, lambda b, w, c: jnp.maximum(w, c) + b),
    "jnp.abs(b)**c+w": (FIRST, lambda b, w, c: jnp.abs(b) ** c + w),
    "jnp.abs(w)**c+b": (FIRST, lambda b, w, c: jnp.abs(w) ** c + b),
    "swapped: (b*w)*c": (SWAPPED, lambda b, w, c: (b * w) * c),
    "swapped: b*c+w": (SWAPPED, lambda b, w, c: b * c + w),
    "swapped: w*c+b": (SWAPPED, lambda b, w, c: w * c + b),
}
CAPTURES = {  # label: c from (x, v), computed in the vmapped function
    "m=x.mean()+2": lambda x, v: x.mean() + 2.0,
    "v (batched arg)": lambda x, v: v,
}


def program(mesh, specs, body, capture, cv, jit):
    def block(x, w, v):
        c = capture(x, v)
        return jax.shard_map(lambda b, w: body(b, w, c), mesh=mesh, in_specs=specs, out_specs=P('x'),
                             axis_names={'x'}, check_vma=cv)(*((x, w) if specs == FIRST else (w, x)))
    f = jax.vmap(block)
    f = jax.jit(f) if jit else f
    xs = jax.device_put(jnp.asarray(XS), NamedSharding(mesh, P(None, 'x')))
    ws = jax.device_put(jnp.asarray(WS), NamedSharding(mesh, P(None)))
    vs = jax.device_put(jnp.asarray(VS), NamedSharding(mesh, P(None)))
    return f(xs, ws, vs)


def reference(specs, body, capture):
    rows = []
    for x, w, v in zip(XS, WS, VS):
        c = np.asarray(capture(jnp.asarray(x), jnp.asarray(v)))
        if specs == FIRST:  # b: block of 4 over 'x' (size 2), w: the scalar, whole
            rows.append(np.concatenate([np.asarray(body(x[k * 4:(k + 1) * 4], w, c)) for k in range(2)]))
        else:  # b: the scalar, w: block of 4 over 'x'
            rows.append(np.concatenate([np.asarray(body(w, x[k * 4:(k + 1) * 4], c)) for k in range(2)]))
    return np.stack(rows)


def variants(mesh_name, specs, body, capture):
    return {
        f"cv={cv} {'jit' if jit else 'eager'}": (
            lambda cv=cv, jit=jit: program(MESHES[mesh_name](), specs, body, capture, cv, jit)
        )
        for cv in (True, False) for jit in (False, True)
    }


if __name__ == "__main__":
    header("plain vmap, batch unplaced, partial-manual shard_map with a replicated operand, captured value",
           ["cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit"])
    for mesh_name in MESHES:
        for cap_name, capture in CAPTURES.items():
            for label, (specs, body) in BODIES.items():
                ref = reference(specs, body, capture)
                show_group(f"{mesh_name} {cap_name:16} {label:24}", variants(mesh_name, specs, body, capture), ref)
