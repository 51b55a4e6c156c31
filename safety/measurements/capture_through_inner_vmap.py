"""Measurement behind SPMD003's batched values through an inner vmap (jax 0.10.2, CPU, 8 virtual devices).
Run: python safety/measurements/capture_through_inner_vmap.py

A shard_map body `b * s` closing over `s = w * 2.0`, mesh ('data', 'model') = (2, 4) of Auto axes, in_specs
P() (`block(x, w)`), which `apply(x, w)` maps with an inner `jax.vmap(block, in_axes=(0, INNER))(x, w)`, which
the spmd vmap maps with `jax.vmap(apply, in_axes=(0, OUTER), spmd_axis_name='data')`. The reference is the same
program with a plain outer vmap (no spmd_axis_name). Variants: check_vma True/False, eager and under jit.
Outcome: `s` fails (SPMD003) when the spmd vmap maps `w`, whatever the inner vmap does; runs and matches when
neither vmap maps it with check_vma=False (check_vma=True: H2's `pvary` error, SPMD007), and when only the inner
vmap maps it, check_vma True and False alike. One module reads an operand only the inner vmap maps as batched
(`batched.BatchedValues.batched_walk`'s `inner_batches`: SPMD003, and SPMD007 with check_vma=True; on this Auto
mesh both are false, while committed to an Explicit mesh such a capture fails:
golden/lift-captures/capture_spmd_placed_unmapped_arg_committed_inner_vmap_mapped). Across modules
(`analyzer.Analyzer._batched_parameters`, fuzz/project.py seed 590048) the call's batched parameters are read
through the inner vmap only when it maps no operand the spmd vmap leaves unbatched (else an SPMD910 record).
"""

from _outcome import header, show_group  # noqa: I001 - sets the 8 virtual devices before JAX is imported

import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
XS = (np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) - 50.0) / 64.0
W_SCALAR = np.float32(1.5)
W_ROWS = np.arange(4, dtype=np.float32) / 4.0 + 0.5  # one w per element of the spmd batch
W_INNER = np.arange(4, dtype=np.float32) / 8.0 + 0.25  # one w per element of the inner batch


def program(outer, inner, cv, spmd):
    """The vmapped program of the docstring; `spmd`: with spmd_axis_name='data' (else the reference)."""

    def block(x, w):
        s = w * 2.0
        return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=cv)(x)

    def apply(x, w):
        return jax.vmap(block, in_axes=(0, inner))(x, w)

    kw = {"spmd_axis_name": "data"} if spmd else {}
    return jax.vmap(apply, in_axes=(0, outer), **kw)


CASES = (
    # label, outer in_axes of w, inner in_axes of w, w
    ("w unbatched by both vmaps (outer None, inner None)", None, None, W_SCALAR),
    ("w batched by the spmd vmap, inner None (outer 0, inner None)", 0, None, W_ROWS),
    ("w batched by the spmd vmap and the inner vmap (outer 0, inner 0)", 0, 0, np.tile(W_INNER, (4, 1)) + W_ROWS[:, None]),
    ("w batched by the inner vmap only (outer None, inner 0)", None, 0, W_INNER),
)


def main() -> None:
    header("SPMD003: a shard_map body closing over a value through an inner vmap", ("cv=True/False eager/jit",))
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
