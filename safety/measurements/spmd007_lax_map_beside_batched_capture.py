"""Fuzz seed 370569 (a false positive of SPMD007): `jax.lax.map(block, x, batch_size=2)` between a vmap with
`spmd_axis_name='x'` and a `check_vma=True` shard_map whose body is `jnp.cumsum(b, axis=-1) * m`, `m = x.mean() +
2.0` a per-example value computed in `block` and closed over: runs and matches, while SPMD007 said it fails
(the body applies a binary primitive). Which bodies run there, and does the batch size matter?

Run: `python safety/measurements/spmd007_lax_map_beside_batched_capture.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = Mesh(devices.reshape(2, 4), ('x', 'y'))                # Auto axes
    def block(x, w):                                               # x (8,) a row of one example (8, 8)
        m = M_OF(x, w)
        return jax.shard_map(lambda b: BODY(b, m), mesh=mesh, in_specs=S, out_specs=S, check_vma=True)(x)
    jax.vmap(lambda x, w: WAY(block, x, w), in_axes=(0, None), spmd_axis_name='x')(xs, ws)

WAY: `jax.lax.map` with batch_size 2 (divides the 8 rows), 3 (a remainder of 2), or an inner `jax.vmap`. M_OF:
`batched` (`x.mean() + 2.0`, batched by the spmd vmap) or `unbatched` (`w.sum()`, `w` an argument the vmap does
not map). S: `P()` and `P('y')`. Reference: the same program with check_vma=False under plain vmaps.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
from _outcome import header, show_group
from jax.sharding import Mesh, PartitionSpec as P

X = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
W = np.linspace(0.5, 2.0, 8, dtype=np.float32)
BODIES = {
    "cumsum(b) * m": lambda b, m: jnp.cumsum(b, axis=-1) * m,
    "b * m": lambda b, m: b * m,
    "m * b": lambda b, m: m * b,
    "b + m": lambda b, m: b + m,
    "b - m": lambda b, m: b - m,
    "b / m": lambda b, m: b / m,
    "b * m * m": lambda b, m: b * m * m,
    "sin(b * m)": lambda b, m: jnp.sin(b * m),
    "b * 2.0 (control)": lambda b, m: b * 2.0,
    "b * b": lambda b, m: b * b,
    "b * 2.0 * m": lambda b, m: b * 2.0 * m,
    "(b + 1.0) * m": lambda b, m: (b + 1.0) * m,
    "b * (m + 1.0)": lambda b, m: b * (m + 1.0),
    "b * W (numpy)": lambda b, m: b * W[: b.shape[-1]],
}
WAYS = ("map 2", "map 3", "inner vmap")
M_OF = {"batched": lambda x, w: x.mean() + 2.0, "unbatched": lambda x, w: w.sum()}


def program(mesh, spec, body, way, m_of, cv):
    def block(x, w):
        m = M_OF[m_of](x, w)
        return jax.shard_map(lambda b: body(b, m), mesh=mesh, in_specs=spec, out_specs=spec, check_vma=cv)(x)

    def apply(x, w):
        if way == "inner vmap":
            return jax.vmap(block, in_axes=(0, None))(x, w)
        return jax.lax.map(lambda row: block(row, w), x, batch_size=int(way.split()[1]))

    return apply


def main() -> None:
    header("binary steps beside a closed-over value under jax.lax.map with batch_size", ["eager"])
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    for spec, (name, body), m_of, way in itertools.product((P(), P("y")), BODIES.items(), M_OF, WAYS):
        if spec == P("y") and "W" in name:
            continue  # a (2,) block times the (8,) W: a shape error, not a measurement
        ref_apply = program(mesh, spec, body, "inner vmap", m_of, False)
        reference = np.asarray(jax.vmap(ref_apply, in_axes=(0, None))(X, W))
        run = program(mesh, spec, body, way, m_of, True)
        show_group(f"{spec!s:8} {name:18} m={m_of:9} {way:10}",
                   {"eager": lambda run=run: jax.vmap(run, in_axes=(0, None), spmd_axis_name="x")(X, W)}, reference)


if __name__ == "__main__":
    main()
