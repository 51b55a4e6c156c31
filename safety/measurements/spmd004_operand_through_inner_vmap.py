"""Measurement behind SPMD004's unbatched operands through an inner vmap (jax 0.10.2, CPU, 8 virtual devices).
Run: python safety/measurements/spmd004_operand_through_inner_vmap.py

A shard_map body `(b * 2 + 1) * psum(w, 'y')`, mesh ('x', 'y') = (2, 4), in_specs (P('x'), P()), applied by
`block(x, w)`, which `apply(x, w)` maps with an inner `jax.vmap(block, in_axes=(0, INNER))(x, w)`, which the
spmd vmap maps with `jax.vmap(apply, in_axes=(0, OUTER), spmd_axis_name='y')`. Found by the fuzzer (seed
70122: OUTER = INNER = None runs and matches, yet SPMD004 was reported). The reference is the same program
with a plain outer vmap (no spmd_axis_name). Variants: check_vma True/False, eager and under jit.
"""

from _outcome import header, show_group  # noqa: I001 - sets the 8 virtual devices before JAX is imported

import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
XS = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
W_SCALAR = np.float32(1.5)
W_ROWS = np.arange(8, dtype=np.float32) / 4.0 + 0.5  # one w per element of the spmd batch
W_INNER = np.arange(8, dtype=np.float32) / 8.0 + 0.25  # one w per element of the inner batch


def program(outer, inner, cv, spmd):
    """The vmapped program of the docstring; `spmd`: with spmd_axis_name='y' (else the reference)."""

    def body(b, w):
        return (b * 2.0 + 1.0) * jax.lax.psum(w, "y")

    def block(x, w):
        return jax.shard_map(body, mesh=mesh, in_specs=(P("x"), P()), out_specs=P("x"), check_vma=cv)(x, w)

    def apply(x, w):
        return jax.vmap(block, in_axes=(0, inner))(x, w)

    kw = {"spmd_axis_name": "y"} if spmd else {}
    return jax.vmap(apply, in_axes=(0, outer), **kw)


CASES = (
    # label, outer in_axes of w, inner in_axes of w, w
    ("w unbatched by both vmaps (outer None, inner None)", None, None, W_SCALAR),
    ("w batched by the spmd vmap, inner None (outer 0, inner None)", 0, None, W_ROWS),
    ("w batched by the spmd vmap and the inner vmap (outer 0, inner 0)", 0, 0, np.tile(W_INNER, (8, 1)) + W_ROWS[:, None]),
    ("w batched by the inner vmap only (outer None, inner 0)", None, 0, W_INNER),
)


def main() -> None:
    header("SPMD004: psum over the spmd axis of an operand through an inner vmap", ("cv=True/False eager/jit",))
    for label, outer, inner, w in CASES:
        reference = np.asarray(program(outer, inner, False, False)(XS, w))
        variants = {}
        for cv in (True, False):
            f = program(outer, inner, cv, True)
            variants[f"cv={cv} eager"] = lambda f=f: f(XS, w)
            variants[f"cv={cv} jit"] = lambda f=f: jax.jit(f)(XS, w)
        show_group(label, variants, reference)


if __name__ == "__main__":
    main()
