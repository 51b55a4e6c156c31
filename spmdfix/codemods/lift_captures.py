"""Transform `lift-captures`: pass captured batched values into the shard_map as explicit operands.

Measured [jax-semantics.md H5; 01 1f]: a body that closes over a value batched by the spmd vmap fails (or,
with `in_specs=()`, silently returns a result too large by the mesh size [01 1i]); passing the value as an
extra operand with in_spec `P()` runs and matches the unbatched program, with check_vma=True when the body
broadcasts directly and with check_vma=False even with an inner `jax.vmap`. With check_vma=True and an inner
vmap in the body the lifted form still fails (pvary), so the fix is not offered there.
"""

from __future__ import annotations

from spmdfix.analysis.facts import ReachedFacts
from spmdfix.analysis.capture import LiftSite
from spmdfix.model import Applicability, Fix, NodeEdit, Refusal, Transform

TRANSFORM = Transform.LIFT_CAPTURES


def plan(reached: ReachedFacts) -> Fix | Refusal:
    """Lift every captured batched value of one shard_map body: a new trailing parameter of the body, a
    `P()` appended to in_specs (a single spec becomes a tuple), and the value appended to the call."""
    sm = reached.shard_map
    if not reached.captures:
        return Refusal(TRANSFORM, "the body captures no batched value")
    if sm.body.inner_vmap and sm.check_vma is not False:
        return Refusal(TRANSFORM, "the body keeps an inner jax.vmap under check_vma=True: the lifted form still fails")
    site = reached.lift
    if not isinstance(site, LiftSite):
        return Refusal(TRANSFORM, site or "the shard_map cannot be edited")
    names = [c.name for c in reached.captures]
    specs = [f"{site.spec_callee}()" for _ in names]
    edits = [NodeEdit(site.params, "param", name) for name in names]
    if site.in_specs_form == "spec":
        edits.append(NodeEdit(site.in_specs, "replace", "(" + ", ".join([site.in_specs_text, *specs]) + ")"))
    else:
        edits += [NodeEdit(site.in_specs, "insert", spec, -1) for spec in specs]
    edits += [NodeEdit(site.call, "insert", name, -1) for name in names]
    listed = ", ".join(f"`{n}`" for n in names)
    return Fix(
        TRANSFORM,
        key=f"lift-captures:{sm.key}",
        title=f"Pass {listed} to the shard_map as explicit operand{'s' if len(names) > 1 else ''} with `P()`",
        applicability=Applicability.SAFE,
        reason="an explicit replicated operand is what the closure meant, and runs (measured)",
        node_edits=tuple(edits),
    )
