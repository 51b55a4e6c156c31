"""The site-level judgments: what the rules' fixes become once a vmap site's findings are seen together.

A rule judges a fix at one place; these judge it against the rest of its site, each from a measurement:
- a reached shard_map whose body applies another shard_map, or a `jax.smap`, refuses the transforms measured
  to fail there (`refused_at`), at that shard_map and then at the whole site (`refused_for_site`);
- every finding of a vmap with spmd_axis_name offers removing it as its last option (`with_drop_option`),
  safe on a resolved Auto mesh (it cures every finding of the site there, so no judgment below makes it
  unsafe: each finding offers the same fix, and it edits no shard_map);
- a fix that edits a shard_map some place runs without this vmap is unsafe (`other_callers`);
- a strip of a spec entry that the calls on the vmap's path read as other axes is unsafe (`other_readings`);
- a fix that keeps the spmd axis is unsafe while an eager call's batch is not placed on it on an Explicit mesh
  (`eager_unplaced`), or while the walk lost a place on the way (`past_lost`);
- a safe fix that would leave behind a finding whose program then runs wrongly is unsafe (`judged_together`,
  `Blocker`).
Pure: findings in, findings out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spmdfix.fixes import drop_spmd_axis
from spmdfix.analysis.kinds import AxisType
from spmdfix.analysis.uses import is_call, listed
from spmdfix.model import Applicability, Finding, Fix, Refusal, SiteKind, Transform
from spmdfix.perf import record
from spmdfix.rules.spec_collision import NESTED_MEASURED, NESTED_REFUSED, SMAP_REASON, nested_reason

if TYPE_CHECKING:
    from spmdfix.analysis.facts import ReachedFacts, VmapFacts

# smap has no in_specs to extend (lift-captures), no specs to strip and no check_vma to turn off: its specs
# come from in_axes/out_axes, and it always checks (jax/_src/shard_map.py `_smap`).
_SPEC_EDITS = (Transform.STRIP, Transform.LIFT_CAPTURES)
_CHECK_EDITS = (Transform.DISABLE_CHECK_VMA,)
_SMAP_NO_SPECS = (
    "`jax.smap` has no `in_specs`/`out_specs` or `check_vma` to edit: its specs come from `in_axes`/`out_axes` "
    "and `axis_name`, and it always checks"
)


def refused_at(reached: ReachedFacts, findings: list[Finding]) -> list[Finding]:
    """The findings of one reached shard_map with the transforms measured to fail there refused: rename,
    add-axis and strip when its body applies another shard_map (`spec_collision.NESTED_MEASURED`); for a
    `jax.smap`, rename and add-axis (`spec_collision.SMAP_REASON`) and the spec and check_vma edits it has
    nothing to apply to."""
    if reached.shard_map.body.nested_shard_maps:
        findings = [_refused(f, NESTED_REFUSED, nested_reason(reached)) for f in findings]
    api = reached.shard_map.api
    if api.one_manual_axis:
        findings = [_refused(f, (Transform.RENAME, Transform.ADD_AXIS), SMAP_REASON) for f in findings]
    if not api.written_specs:
        findings = [_refused(f, _SPEC_EDITS, _SMAP_NO_SPECS) for f in findings]
    if api.check_flag is None:
        # (after the spec edits: the refusals keep the order strip, lift-captures, disable-check-vma)
        findings = [_refused(f, _CHECK_EDITS, _SMAP_NO_SPECS) for f in findings]
    return findings


def refused_for_site(vmap: VmapFacts, findings: list[Finding]) -> list[Finding]:
    """Every finding of the site with rename and add-axis refused when some reached shard_map has a nested
    one or is a `jax.smap`: they edit the vmap site, so they would run into that shard_map too."""
    nested = any(r.shard_map.body.nested_shard_maps for r in vmap.reached)
    smap = any(r.shard_map.api.one_manual_axis for r in vmap.reached)
    if not (nested or smap):
        return findings
    reason = "a reached shard_map's body applies another shard_map: " + NESTED_MEASURED
    reason = SMAP_REASON if smap else reason
    return [_refused(f, (Transform.RENAME, Transform.ADD_AXIS), reason) for f in findings]


def with_drop_option(vmap: VmapFacts, findings: list[Finding]) -> list[Finding]:
    """Every finding with removing the site's spmd_axis_name (`fixes.drop_spmd_axis`) as its last fix, or
    the reason it is refused."""
    drop = drop_spmd_axis.plan(vmap)
    return [_with_option(f, drop) for f in findings]


def _edited_shard_maps(fix: Fix, vmap: VmapFacts) -> list:
    """The reached shard_maps a fix edits (`Fix.sites`): strip its specs, lift-captures its body and call,
    disable-check-vma its `check_vma`, rename and add-axis its `axis_names` display."""
    return [r for r in vmap.reached if r.shard_map.site in fix.sites]


def other_callers(finding: Finding, vmap: VmapFacts) -> Finding:
    """A fix that edits a shard_map some place runs without this vmap is unsafe, its reason naming those
    places: it is proven for the calls under the vmap only (issue 11; analysis.callers finds them)."""
    fixes = []
    for fix in finding.fixes:
        places = [p for r in _edited_shard_maps(fix, vmap) for p in r.other_callers]
        if places:
            why = _elsewhere_words([p for p in places if is_call(p)], [p for p in places if not is_call(p)])
            reason = why if fix.applicability == Applicability.SAFE else f"{fix.reason}; {why}"
            fix = replace(fix, applicability=Applicability.UNSAFE, reason=reason)
        fixes.append(fix)
    return replace(finding, fixes=tuple(fixes))


def _elsewhere_words(calls: list[str], uses: list[str]) -> str:
    """Why a fix editing a shard_map that runs elsewhere is unsafe: the `calls` that run it without the vmap,
    and the `uses` of what runs it that are no call of it (an attribute read, the callable passed on): the
    shard_map does not run there, but the callable escapes there and may run later, unseen."""
    parts = []
    if calls:
        parts.append("the shard_map it edits also runs without this vmap, and the edit changes it there too: " + listed(calls))
    if uses:
        lead = "what runs the shard_map it edits" if not calls else "what runs it"
        parts.append(
            f"{lead} escapes this vmap at places that do not call it, where the analysis cannot tell whether it "
            "runs later: " + listed(uses)
        )
    return "; ".join(parts)


def other_readings(finding: Finding, vmap: VmapFacts) -> Finding:
    """A strip is unsafe when the shard_map it edits is reached by this vmap through calls that read an
    entry it edits as other axes (`block(x, 'model') + block(x, 'data')` with `P(axis)`:
    `analyzer._unique` keeps one reached shard_map per reading). The edit replaces the entry where it is
    written (`P(axis)` -> `P(None)`), so it strips every reading, and it is proven for the reading it was
    planned from only. Measured (golden refuse/strip_parameter_spec_read_for_two_calls, jax 0.10.2): with a
    `psum` over `'model'` in the body, stripping `'data'` from the `'data'` reading keeps its values, while the
    `'model'` reading, stripped too, gives other values."""
    fixes = []
    for fix in finding.fixes:
        if fix.transform is Transform.STRIP and fix.applicability == Applicability.SAFE:
            edited = {e.span for e in fix.node_edits}
            # (a reading that reads none of the edited entries, `block(x, P('model'))` beside `block(x,
            # P('data'))` with `in_specs=spec`, is not changed by the edit)
            readings = {_entry_reading(r, edited) for r in _edited_shard_maps(fix, vmap)} - {()}
            if len(readings) > 1:
                shown = sorted({names for reading in readings for _, names in reading if names})
                why = (
                    "the shard_map is reached on this vmap's path through calls that read an entry it edits as "
                    f"{' and as '.join(_names_text(n) for n in shown)}: the strip edits the entry where it is "
                    "written, for every one of those calls, and is proven for one of them"
                )
                fix = replace(fix, applicability=Applicability.UNSAFE, reason=why)
        fixes.append(fix)
    return replace(finding, fixes=tuple(fixes))


def _entry_reading(reached: ReachedFacts, spans: set) -> tuple:
    """The axis names each spec entry of `reached` at one of `spans` was read as, in span order."""
    sm = reached.shard_map
    return tuple(sorted(
        (e.span, tuple(e.value.names) if e.value is not None else ())
        for tree in (sm.in_specs, sm.out_specs) for spec in tree.specs for e in spec.entries if e.span in spans
    ))


def _names_text(names: tuple[str, ...]) -> str:
    return repr(names[0]) if len(names) == 1 else repr(names)


# The fixes that keep the spmd axis and the spmd vmap as they are: rename and add-axis move it (they judge the
# callers' placement themselves), drop-spmd-axis removes it.
_KEEP_SPMD_AXIS = (Transform.STRIP, Transform.LIFT_CAPTURES, Transform.DISABLE_CHECK_VMA)


def eager_unplaced(finding: Finding, vmap: VmapFacts) -> Finding:
    """A safe fix that keeps the spmd axis is unsafe when a call of the vmapped function runs eagerly and the
    fixed program still fails there on an Explicit mesh (`jax.make_mesh`'s default); its reason names the call
    and what it lacks.

    Measured on jax 0.10.2 (safety/measurements/eager_explicit_fixes.py):
    - a call whose batch is not placed on the spmd axes, while a reached shard_map's mesh has one of them as
      an Explicit axis: stripped and lifted, the program runs under `jax.jit` and fails eagerly, `in_specs
      passed to shard_map: P('data',) does not match the specs of the input` (under the spmd vmap the
      shard_map's operand must arrive placed on the spmd axis, and no edit inside the vmap changes that);
    - a stripped `with_sharding_constraint` on a mesh with no Auto axis, called eagerly even with the batch
      placed: `P(UNCONSTRAINED, None) cannot contain P.UNCONSTRAINED when no mesh axis_types are Auto`.
    Golden refuse/eager_unplaced_batch_explicit_mesh and refuse/eager_constraint_strip_explicit_mesh.
    """
    unplaced, constraint = _eager_reasons(vmap)
    if unplaced is None and constraint is None:
        return finding
    fixes = []
    for fix in finding.fixes:
        if fix.transform in _KEEP_SPMD_AXIS and fix.applicability == Applicability.SAFE:
            why = unplaced
            if why is None and fix.transform is Transform.STRIP and fix.id.site.kind is SiteKind.CONSTRAINT:
                why = constraint
            if why is not None:
                fix = replace(fix, applicability=Applicability.UNSAFE, reason=why)
        fixes.append(fix)
    return replace(finding, fixes=tuple(fixes))


def past_lost(finding: Finding, vmap: VmapFacts) -> Finding:
    """A safe fix that keeps the spmd axis (strip, lift-captures) is unsafe while the walk from the vmap lost a
    place (an SPMD910 record): code there may apply a collective over the spmd axis, which mixes batch elements
    once the fixed program runs (`check_vma=False`). rename and add-axis move the axis off it, drop-spmd-axis
    removes it. Found by breaker5 (safety/trials/breaker5, q55; golden unfollowed/strip_past_lost_place):
    `HEADS[kind](h)` whose head pmeans over the spmd axis with `check_vma=False`; the strip of the visible
    collision was safe and the fixed program returned wrong values."""
    if not vmap.unresolved:
        return finding
    why = (
        f"the analysis could not follow the way past one place ({vmap.unresolved[0][1]}): a collective over the "
        "spmd axis there would mix batch elements once this fix lets the program run"
    )
    fixes = tuple(
        replace(f, applicability=Applicability.UNSAFE, reason=why)
        if f.transform in _KEEP_SPMD_AXIS and f.applicability == Applicability.SAFE
        else f
        for f in finding.fixes
    )
    return replace(finding, fixes=fixes)


def instance_unread(finding: Finding, vmap: VmapFacts) -> Finding:
    """A safe fix other than drop-spmd-axis is unsafe while a reached shard_map's body is a bound method that
    reads its instance where whether the vmap batches it is not proven (`ReachedFacts.instance_unread`,
    `analysis.method_captures`): a batched value closed over still fails after rename, add-axis, strip or
    lift-captures (SPMD003; a capture left behind, below). drop-spmd-axis is judged by its own rule (on a
    resolved Auto mesh the plain vmap runs a closure over a batched value)."""
    why = next((r.instance_unread for r in vmap.reached if r.instance_unread), "")
    if not why:
        return finding
    fixes = tuple(
        replace(f, applicability=Applicability.UNSAFE, reason=why)
        if f.transform is not Transform.DROP_SPMD_AXIS and f.applicability == Applicability.SAFE
        else f
        for f in finding.fixes
    )
    return replace(finding, fixes=fixes)


def _eager_reasons(vmap: VmapFacts) -> tuple[str | None, str | None]:
    """(why a fix keeping the spmd axis still fails eagerly on an unplaced batch, why a stripped constraint
    fails eagerly), each None when no visible eager call meets it (see `eager_unplaced`)."""
    spmd = tuple(vmap.spmd.names)
    meshes = [r.shard_map.mesh for r in vmap.reached if r.shard_map.mesh is not None]
    explicit = list(dict.fromkeys(a for m in meshes for a in spmd if m.type_of(a) is AxisType.EXPLICIT))
    eager = [call for call in (vmap.calls.calls if vmap.calls is not None else ()) if not call.under_jit]
    if not explicit or not eager:
        return None, None
    unplaced = None
    for call in eager:
        if call.batch_axes != spmd:
            placed = f"P({spmd[0]!r}, ...)" if len(spmd) == 1 else f"P({spmd!r}, ...)"
            unplaced = (
                f"the call at {call.where} runs eagerly and its batch is not visibly placed on the spmd axis "
                f"{', '.join(repr(a) for a in explicit)} of an Explicit mesh (`jax.device_put(..., "
                f"NamedSharding(mesh, {placed}))`): JAX still raises `in_specs passed to shard_map ... does not "
                "match the specs of the input` after this fix"
            )
            break
    constraint = None
    if any(m.axis_types is AxisType.EXPLICIT for m in meshes):
        constraint = (
            f"the call at {eager[0].where} runs eagerly on a mesh with no Auto axis: there the stripped "
            "with_sharding_constraint raises `... cannot contain P.UNCONSTRAINED when no mesh axis_types are Auto`"
        )
    return unplaced, constraint


# eq=False, repr=False: nothing compares, hashes or prints this record, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@record(frozen=True)
class Blocker:
    """A finding of one vmap site that no other fix may leave behind: once the loud errors around it are
    fixed, the program would run on with `outcome` (e.g. SPMD004 under check_vma=False: wrong values)."""

    finding: Finding
    outcome: str


def judged_together(findings: list[Finding], blockers: list[Blocker]) -> list[Finding]:
    """The fixes of one vmap site judged as a set: a safe fix that does not also fix every blocker becomes
    unsafe, its reason naming the finding it would leave and what the program would then do.

    Measured (docs/safety.md): stripping a `with_sharding_constraint` spec while a `psum` over the spmd axis
    remains in a `check_vma=False` body turns the constraint's error into silently wrong values; add-axis
    while the body still closes over a batched value (SPMD003) leaves a ManualAxisType assertion. A fix
    "also fixes" a blocker when the blocker offers the same fix (equal id): rename and add-axis of the vmap
    site cure every finding of the site, a strip of one spec does not.
    """
    if not blockers:
        return findings
    judged = []
    for finding in findings:
        fixes = []
        for fix in finding.fixes:
            left = [b for b in blockers if b.finding is not finding and fix.id not in {x.id for x in b.finding.fixes}]
            if fix.applicability == Applicability.SAFE and left:
                why = "; ".join(f"alone it leaves {b.finding.code}: {b.outcome}" for b in left)
                fix = replace(fix, applicability=Applicability.UNSAFE, reason=why)
            fixes.append(fix)
        judged.append(replace(finding, fixes=tuple(fixes)))
    return judged


def _refused(finding: Finding, transforms, reason: str) -> Finding:
    """`finding` with the fixes of `transforms` turned into refusals giving `reason`."""
    hit = [f for f in finding.fixes if f.transform in transforms]
    old = [r for r in finding.refusals if r.transform in transforms]
    if not hit and not old:
        return finding
    refusals = [r for r in finding.refusals if r.transform not in transforms]
    refusals += [Refusal(t, reason) for t in transforms if any(x.transform == t for x in [*hit, *old])]
    fixes = tuple(f for f in finding.fixes if f.transform not in transforms)
    return replace(finding, fixes=fixes, refusals=tuple(refusals))


def _with_option(finding: Finding, option: Fix | Refusal) -> Finding:
    """`finding` with one more fix (last in auto's order) or refusal."""
    if isinstance(option, Fix):
        return replace(finding, fixes=(*finding.fixes, option))
    return replace(finding, refusals=(*finding.refusals, option))
