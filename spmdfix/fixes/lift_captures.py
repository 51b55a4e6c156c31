"""Transform `lift-captures`: pass captured values into the shard_map as explicit operands with `P()`.

Measured on jax 0.10.2 (docs/safety.md, "lift-captures"): a body that closes over a value batched by the spmd
vmap fails (or, with `in_specs=()`, silently returns a result too large by the mesh size); passing the value
as an extra operand with in_spec `P()` runs and matches the unbatched program, with check_vma=True when the
body broadcasts directly and with check_vma=False even with an inner `jax.vmap`. A non-scalar array the vmap
does not batch, closed over by a body whose specs name no axis, fails under check_vma=True; as a `P()`
operand it runs and matches, eager and under jit. With check_vma=True and an inner vmap in the body the
lifted form still fails (pvary), so the fix is not offered there.

The fix is safe only when both entities it relies on are on the allowlist: the body's own structure (a
`lambda` or plain `def` applied where it is built, maybe through `jax.vmap` wrappers, which get
`in_axes=(0, ..., None)` so they do not map the new operand) and every use of the lifted value in the body
(`analysis.lift.LiftAnalysis.lift_use_problem`); otherwise it is unsafe and says which use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.kinds import AxisType, SpecsForm, UnreadKind
from spmdfix.fixes.edits import unread_what
from spmdfix.model import Applicability, EditKind, Fix, FixId, NodeEdit, Refusal, Transform

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.capture import LiftSite
    from spmdfix.analysis.facts import ReachedFacts

TRANSFORM = Transform.LIFT_CAPTURES


def plan(reached: ReachedFacts, placed: tuple[str, ...] = ()) -> Fix | Refusal:
    """Lift every captured value of one shard_map body: a new trailing parameter of the body, a `P()`
    appended to in_specs (a single spec becomes a tuple), the value appended to the call, and
    `in_axes=(0, ..., None, ...)` on each `jax.vmap` wrapping the body.

    placed: captures whose input a call places on a mesh axis beyond the batch dimension; on a mesh with an
    Explicit axis the lifted `P()` operand then fails (measured with jax 0.10.2 on a 2x4 Explicit mesh, `w`
    placed `P('y', 'x')`: `in_specs passed to shard_map: P(None,) does not match the specs of the input`;
    golden refuse/lift_capture_placed_beyond_batch), so the fix is unsafe there."""
    sm = reached.shard_map
    if not reached.captures:
        return Refusal(TRANSFORM, "the body captures no batched value")
    if sm.body.inner_vmap and sm.check_vma is None:
        # not known to be off: under check_vma=True the lifted form still fails (a refusal, not a guess)
        unknown = unread_what(sm, UnreadKind.CHECK_VMA) or "`check_vma` is not known"
        return Refusal(TRANSFORM, f"the body keeps an inner jax.vmap and {unknown}: under check_vma=True the lifted form still fails")
    if sm.body.inner_vmap and sm.check_vma is not False:
        return Refusal(TRANSFORM, "the body keeps an inner jax.vmap under check_vma=True: the lifted form still fails")
    site: LiftSite | str | None = reached.lift  # a str says why the shard_map cannot be edited
    if site is None or isinstance(site, str):
        return Refusal(TRANSFORM, site or "the shard_map cannot be edited")
    names = [c.name for c in reached.captures]
    specs = [f"{site.spec_callee}()" for _ in names]
    edits = [NodeEdit(site.params, EditKind.PARAM, name) for name in names]
    if site.in_specs_form is SpecsForm.SPEC:
        edits.append(NodeEdit(site.in_specs, EditKind.REPLACE, "(" + ", ".join([site.in_specs_text, *specs]) + ")"))
    else:
        edits += [NodeEdit(site.in_specs, EditKind.INSERT, spec, -1) for spec in specs]
    edits += [NodeEdit(site.call, EditKind.INSERT, name, -1) for name in names]
    if site.vmaps:
        axes = ["0"] * site.arity + ["None"] * len(names)
        in_axes = "in_axes=(" + ", ".join(axes) + ("," if len(axes) == 1 else "") + ")"
        edits += [NodeEdit(span, EditKind.INSERT, in_axes, -1) for span in site.vmaps]
    listed = ", ".join(f"`{n}`" for n in names)
    safe = "an explicit replicated operand is what the closure meant, and runs (measured)"
    unsafe = site.unsafe
    if not unsafe and placed and sm.mesh is not None and sm.mesh.axis_types is not AxisType.AUTO:
        unsafe = (
            f"{', '.join(f'`{n}`' for n in placed)} comes from an input placed on mesh axes beyond its batch "
            "dimension; on an Explicit mesh a `P()` operand does not match that placement"
        )
    return Fix(
        FixId(TRANSFORM, sm.site),
        title=f"Pass {listed} to the shard_map as explicit operand{'s' if len(names) > 1 else ''} with `P()`",
        applicability=Applicability.UNSAFE if unsafe else Applicability.SAFE,
        reason=unsafe or safe,
        node_edits=tuple(edits),
        sites=frozenset({sm.site}),
    )
