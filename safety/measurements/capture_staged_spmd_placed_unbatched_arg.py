"""Issue 22 (left open by capture_staged_explicit_unbatched_arg.py): the same programs with the batch placed on the
spmd axis (`xs` on `P('x', e)`), which that script measured to fail (`context mesh ... should match the aval
mesh`) when the unbatched argument `w` is committed to the mesh, while spmdfix reported nothing. Re-run here on
those rows alone, with `w` captured directly and through a direct (unstaged) way as the control.

Run: `python safety/measurements/capture_staged_spmd_placed_unbatched_arg.py` (8 virtual CPU devices; jax 0.10.2).

Programs: `capture_staged_explicit_unbatched_arg.build` (Explicit `make_mesh((2, 4), ('x', 'y'))`, spmd axis
`'x'`, `in_axes=(0, None)`, a body closing over `w` or `w.sum()`, `lifted` the control), FORM `direct`,
`jit_block`, `jit_shard_map`, `checkpoint`, `lax.map`; SPEC `P()` (and `P('y')` for `w.sum()`); xs placed on the
spmd axis only; WS `P()`, `P('y')`, `P('x')` or numpy. Variants: check_vma True/False, eager or under jax.jit.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
from _outcome import header, show_group
from capture_staged_explicit_unbatched_arg import (
    CAPTURES,
    FORMS,
    WS,
    build,
    inputs,
    reference,
)
from jax.sharding import PartitionSpec as P


def main() -> None:
    variants = [f"cv={cv} {'jit' if j else 'eager'}" for cv, j in itertools.product((True, False), (False, True))]
    header("an unbatched argument placed on an Explicit mesh, the batch placed on the spmd axis", variants)
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    for form, spec, w_how, capture in itertools.product(FORMS, (P("y"), P()), WS, CAPTURES):
        if spec == P("y") and capture != "w.sum()":
            continue  # a (2,) block of x times the whole (8,) w: a shape error, not a measurement
        xs, ws = inputs(mesh, spec, "spmd", w_how)
        runs = {
            f"cv={cv} {'jit' if j else 'eager'}": (
                lambda cv=cv, j=j, form=form, spec=spec, capture=capture, xs=xs, ws=ws:
                build(mesh, form, spec, capture, cv, j)(xs, ws)
            )
            for cv, j in itertools.product((True, False), (False, True))
        }
        show_group(f"{form:13} specs={spec!s:7} xs=spmd     ws={w_how:8} {capture:8}", runs, reference(capture))


if __name__ == "__main__":
    main()
