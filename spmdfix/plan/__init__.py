"""The planner: runs the rules at every vmap site and judges each site's fixes together.

Pure: analysis facts in (`spmdfix.analysis.facts.VmapFacts`), `model.Finding`s out, sorted by position. Per
vmap site it plans the fixes the whole site shares (rename and add-axis of a vmap with spmd_axis_name,
move-placement of a plain vmap: `spmdfix.fixes`), runs the registered rule families (`spmdfix.rules`) at each
shard_map the site reaches and then at the site, and applies the site-level judgments
(`spmdfix.plan.judgments`): the refusals measured for nested shard_maps and `jax.smap`, the drop option, fixes
that edit a shard_map other places run, and fixes that would leave a finding behind. Each fix decides its
own safety class from the measured rules of docs/safety.md (each with a runnable demonstration in safety/).
Hazard H2 (a `jax.vmap` between the spmd vmap and the shard_map, or in its body, under check_vma=True)
fails before and after every fix (docs/jax-behaviour.md): the finding says so and every fix is unsafe.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spmdfix import rules
from spmdfix.rules import constraint, explicit_axis
from spmdfix.analysis.kinds import VmapKind
from spmdfix.analysis.hazards import has_h2
from spmdfix.fixes import add_mesh_axis, move_placement, placement, rename_spmd_axis
from spmdfix.model import DEFAULT_NEW_AXIS, Applicability, Finding, Span
from spmdfix.plan.judgments import (
    Blocker,
    eager_unplaced,
    instance_unread,
    judged_together,
    other_callers,
    other_readings,
    past_lost,
    refused_at,
    refused_for_site,
    with_drop_option,
)
from spmdfix.rules.rule import Site

if TYPE_CHECKING:
    from spmdfix.analysis.facts import VmapFacts

__all__ = ["plan_findings"]


def plan_findings(facts: list[VmapFacts], new_axis: str = DEFAULT_NEW_AXIS) -> list[Finding]:
    """Findings for every spec entry that names an spmd axis, sorted by position.

    Input: the analysis facts of one module. Output: one `Finding` per (vmap site, conflicting entry),
    each carrying its applicable fixes (rename, add-axis, strip order) and the refusals of the others.
    """
    findings: list[Finding] = []
    for vmap in facts:
        findings.extend(_vmap_findings(vmap, new_axis))
    findings = _distinct(findings)
    findings.sort(key=lambda f: (f.span.path, f.span.start, f.code, f.message))
    return findings


def _distinct(findings: list[Finding]) -> list[Finding]:
    """`findings` without those equal in every field to one before them (the first kept, order kept). Equal
    findings say and fix the same: code, place, message, related places, each fix with its edits, class and
    reason, each refusal. One spec value used for both `in_specs` and `out_specs` (`rows()` of a helper:
    newuser15) gave SPMD006 twice at its one entry with one message (JAX names `in_specs` in both); two
    findings that differ in anything a user or a fix sees (SPMD001 and SPMD002 of that entry, the vmaps of
    two sites in their related places, a fix's edits) are not equal and stay apart."""
    return list(dict.fromkeys(findings))


def _vmap_findings(vmap: VmapFacts, new_axis: str) -> list[Finding]:
    """The findings of one vmap site, their fixes judged together."""
    if vmap.kind is VmapKind.EXPLICIT:
        return _plain_vmap_findings(vmap)
    # Planned per vmap site, shared by all its findings (cheap: no libcst until a fix is applied).
    site = Site(vmap, has_h2(vmap), (rename_spmd_axis.plan(vmap), add_mesh_axis.plan(vmap, new_axis)))
    findings: list[Finding] = []
    # span of a finding no other fix may leave behind (SPMD004 under check_vma=False, SPMD003) -> what the
    # program would do if it were left
    left_behind: dict[Span, str] = {}
    readings: dict[object, list[list[Finding]]] = {}  # by shard_map site: each reading's findings (`_merged`)
    for reached in vmap.reached:
        part: list[Finding] = []
        for family in rules.PER_SHARD_MAP:
            found = family.check(site, reached)
            if family in rules.LEAVE_BEHIND:
                left_behind.update(family.left_behind(site, reached, found))
            part += found
        readings.setdefault(reached.shard_map.site, []).append(refused_at(reached, part))
    findings += [f for found in readings.values() for f in _merged(found)]
    for family in rules.PER_SITE:
        findings += family.check(site)
    # SPMD005 of a jit's shardings: a fix that leaves it leaves the DuplicateSpecError (rules.constraint)
    jit_left = constraint.left_behind(site)
    left_behind.update(jit_left)
    findings = refused_for_site(vmap, findings)
    findings = with_drop_option(vmap, findings)
    findings = [
        instance_unread(past_lost(eager_unplaced(other_readings(other_callers(f, vmap), vmap), vmap), vmap), vmap)
        for f in findings
    ]
    # SPMD005 of a reshard: only the strip of its entry is offered (rules.constraint.reshard_findings)
    reshards = [past_lost(eager_unplaced(f, vmap), vmap) for f in constraint.reshard_findings(site)]
    blocking = {rule.code for family in rules.LEAVE_BEHIND for rule in family.RULES}
    blockers = [
        Blocker(f, left_behind[f.span])
        for f in findings
        if (f.code in blocking or f.span in jit_left) and f.span in left_behind
    ] + _reshard_blockers(reshards)
    return [_placed(f, vmap) for f in judged_together(findings + reshards, blockers)]


def _merged(readings: list[list[Finding]]) -> list[Finding]:
    """The findings of one shard_map's readings (each reading's list), one per (code, place, message, how many
    of those came before in its reading): a shard_map reached in several readings (`analyzer._unique`:
    `block(x, wide) + block(x, tall)`, two meshes of the same names) gives the same finding once per reading,
    while one reading may give two of one key that differ elsewhere (a spec named twice in in_specs, with
    other related places or fixes; two equal in every field are one: `_distinct`). The one kept offers a fix as
    safe only when every reading does: a fix another reading makes unsafe is taken from it, and one another
    reading does not offer becomes unsafe, naming that reading's refusal."""
    groups: dict[tuple, list[Finding]] = {}
    for found in readings:
        count: dict[tuple, int] = {}
        # (findings equal in every field are one before they are counted: otherwise the second of them would be
        # merged with no other reading's, and its fixes judged with none of them)
        for f in _distinct(found):
            key = (f.code, f.span, f.message)
            count[key] = count.get(key, 0) + 1
            groups.setdefault((*key, count[key]), []).append(f)
    out = []
    for group in groups.values():
        first = group[0]
        fixes = []
        for fix in first.fixes:
            for other in group[1:]:
                same = next((x for x in other.fixes if x.id == fix.id), None)
                if same is None:
                    why = next((r.reason for r in other.refusals if r.transform == fix.transform), "")
                    why = why or "another call on the vmap's path reaches the shard_map where it is not offered"
                    fix = replace(fix, applicability=Applicability.UNSAFE, reason=f"{fix.reason}; {why}")
                elif same.applicability != Applicability.SAFE and fix.applicability == Applicability.SAFE:
                    fix = same
            fixes.append(fix)
        out.append(replace(first, fixes=tuple(fixes)))
    return out


def _reshard_blockers(reshards: list[Finding]) -> list[Blocker]:
    """A reshard finding with no safe fix of its own: a fix that leaves it leaves the `DuplicateSpecError`
    (safety/measurements/reshard_inside_vmap.py), so no other fix of the site is safe alone (fuzz seed 200100:
    a strip of the shard_map's specs, the reshard left raising)."""
    return [
        Blocker(f, "a reshard inside the vmapped function names the axis the batch is placed on and JAX still "
                   "raises `DuplicateSpecError`")
        for f in reshards
        if not any(x.applicability == Applicability.SAFE for x in f.fixes)
    ]


def _plain_vmap_findings(vmap: VmapFacts) -> list[Finding]:
    """The findings of a plain vmap over a batch placed on Explicit axes (`VmapFacts.kind` EXPLICIT), at
    every shard_map it reaches; move-placement is the site's fix, and no spmd_axis_name is there to drop."""
    site = Site(vmap, False, (move_placement.plan(vmap),))
    findings: list[Finding] = []
    # span of a finding no other fix may leave behind (SPMD003's capture: the program still fails) -> what the
    # program would do if it were left
    left_behind: dict[Span, str] = {}
    readings: dict[object, list[list[Finding]]] = {}  # by shard_map site: each reading's findings (`_merged`)
    for reached in vmap.reached:
        part: list[Finding] = []
        for family in rules.PLAIN_VMAP:
            found = family.check(site, reached)
            if family in rules.LEAVE_BEHIND:
                left_behind.update(family.left_behind(site, reached, found))
            part += found
        readings.setdefault(reached.shard_map.site, []).append(part)
    findings += [f for found in readings.values() for f in _merged(found)]
    findings = [instance_unread(other_readings(other_callers(f, vmap), vmap), vmap) for f in findings]
    # SPMD006 of a reshard inside the vmapped function (site-level)
    reshards = explicit_axis.reshard_findings(site)
    blockers = [Blocker(f, left_behind[f.span]) for f in findings if f.span in left_behind]
    return [_placed(f, vmap) for f in judged_together(findings + reshards, blockers + _reshard_blockers(reshards))]


def _placed(finding: Finding, vmap: VmapFacts) -> Finding:
    """`finding` with each fix's reason ending in where it places the batch (`fixes.placement`): last, once
    the site's judgments have set the claims, so that no judgment that rewrites a reason drops it."""
    fixes = []
    for fix in finding.fixes:
        where = placement.sentence(vmap, fix)
        fixes.append(replace(fix, reason=f"{fix.reason}; {where}", placement=where))
    return replace(finding, fixes=tuple(fixes))
