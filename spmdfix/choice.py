"""How a run chooses among the fixes of its findings, judged as a set: `chosen_each` / `chosen_together` over each
finding's own choice (`model.choose_fix`), and the fixes a suppressed finding blocks (`without_blocked_fixes`).

A base module beside `model`: the fix engine, the pipeline and the golden harness choose alike through it.
"""

from __future__ import annotations

from dataclasses import replace

from spmdfix.model import Applicability, Finding, Fix, FixId, Refusal, Transform


def chosen_together(picks: list[tuple[Finding, Fix | None]]) -> dict[FixId, Fix]:
    """The fixes a run applies, by id, from each finding's own choice (`choose_fix`), judged as a set
    (`chosen_each`)."""
    chosen: dict[FixId, Fix] = {}
    for fix in chosen_each(picks):
        if fix is not None:
            chosen.setdefault(fix.id, fix)
    return chosen


def chosen_each(picks: list[tuple[Finding, Fix | None]]) -> list[Fix | None]:
    """Per (finding, its own choice): the fix a run applies for it this pass, the choices judged as a set.

    A fix that removes the vmap's `spmd_axis_name` (drop-spmd-axis) cures every finding of its vmap site
    (measured on Auto meshes, docs/safety.md): once it is chosen for one finding, every other finding that
    offers the same fix takes it too, instead of another fix that would be redundant after it (a
    `check_vma=False` or a lifted operand that the plain vmap no longer needs). A safe drop waits, though,
    while another finding offering it chose a safe fix of another transform: the drop comes last in auto's
    order, and the fixes before it that are unsafe only because a finding of the site is left (`plan.judgments
    .judged_together`) may be safe in the next pass, once that safe fix is applied (a capture lifted, then the
    spmd axis renamed: golden/lift-captures/jit_above_vmap_constraint_auto_mesh).
    """
    drops = {fix.id for _, fix in picks if fix is not None and fix.transform == Transform.DROP_SPMD_AXIS}
    waiting = {
        fix.id
        for finding, pick in picks
        if pick is not None and pick.applicability == Applicability.SAFE and pick.id not in drops
        for fix in finding.fixes
        if fix.id in drops and fix.applicability == Applicability.SAFE
    }
    out: list[Fix | None] = []
    for finding, fix in picks:
        if fix is None or fix.id in waiting:
            out.append(None)
            continue
        shared = next((x for x in finding.fixes if x.id in drops and x.id not in waiting), None)
        out.append(shared or fix)
    return out


def without_blocked_fixes(reported: list[Finding], suppressed: list[Finding]) -> list[Finding]:
    """The reported findings without the fixes that would also change a suppressed finding (its fixes share
    the id): `fix` never applies those, so `check` must not offer them either. Each fix taken away becomes a
    refusal naming the suppressed finding, so a finding left with no fix says why (a `# noqa: SPMD001` on
    the in_specs otherwise made the out_specs' SPMD002 look as if no fix existed)."""
    blockers: dict[FixId, Finding] = {}
    for finding in suppressed:
        for fix in finding.fixes:
            blockers.setdefault(fix.id, finding)
    if not blockers:
        return reported
    out = []
    for f in reported:
        blocked = [x for x in f.fixes if x.id in blockers]
        if not blocked:
            out.append(f)
            continue
        refused = tuple(Refusal(x.transform, _blocked_reason(blockers[x.id])) for x in blocked)
        kept = tuple(x for x in f.fixes if x.id not in blockers)
        out.append(replace(f, fixes=kept, refusals=refused + f.refusals))
    return out


def _blocked_reason(suppressed: Finding) -> str:
    return (
        f"it would also change {suppressed.code} ({suppressed.name}), a finding a suppression comment holds; "
        "remove the comment to have both fixed"
    )
