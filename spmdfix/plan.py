"""The planner: collisions become findings, each with the fixes that apply and their safety class.

Pure: analysis facts in (`spmdfix.analysis.VmapFacts`), `model.Finding`s out. A finding is one spec entry
that names an spmd axis of a vmap site reaching it; JAX raises for any such entry, batched argument or not
(docs/jax-behaviour.md, "When JAX raises"). The fixes come from the transforms in
`spmdfix.fixes` (rename and add-axis per vmap site, strip per shard_map), each of which decides its own
safety class from the measured rules of docs/safety.md (each with a runnable demonstration in safety/).
Hazard H2 (a `jax.vmap` between the spmd vmap and the shard_map, or in its body, under check_vma=True)
fails before and after every fix (docs/jax-behaviour.md): the finding says so and every fix is unsafe.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from spmdfix import rules
from spmdfix.analysis.facts import CollectiveUse, VmapFacts
from spmdfix.analysis.hazards import batch_on_explicit_axes, batch_on_explicit_spmd_axes, h2_at, has_h2
from spmdfix.fixes import (
    add_mesh_axis,
    disable_check_vma,
    drop_spmd_axis,
    lift_captures,
    move_placement,
    rename_spmd_axis,
    strip_spec_entries,
)
from spmdfix.fixes.edits import backticked
from spmdfix.model import DEFAULT_NEW_AXIS, Applicability, Finding, Fix, Refusal, Related, Transform



def plan_findings(facts: list[VmapFacts], new_axis: str = DEFAULT_NEW_AXIS) -> list[Finding]:
    """Findings for every spec entry that names an spmd axis, sorted by position.

    Input: the analysis facts of one module. Output: one `Finding` per (vmap site, conflicting entry),
    each carrying its applicable fixes (rename, add-axis, strip order) and the refusals of the others.
    """
    findings: list[Finding] = []
    for vmap in facts:
        findings.extend(_vmap_findings(vmap, new_axis))
    findings.sort(key=lambda f: (f.span.path, f.span.start, f.code, f.message))
    return findings


def _explicit_findings(vmap: VmapFacts) -> list[Finding]:
    """SPMD006: specs of reached shard_maps that name an Explicit axis a plain vmap maps away."""
    axes_placed = set(vmap.spmd.names)
    findings = []
    move = move_placement.plan(vmap)
    for reached in vmap.reached:
        sm = reached.shard_map
        if sm.api == "smap":
            continue  # not measured under a plain vmap over a placed batch: no finding, no fix
        fix = strip_spec_entries.plan_explicit(vmap, reached)
        related = (
            Related(f"batch dimension placed on Explicit mesh axis {backticked(vmap.spmd.names)} here", vmap.spmd.span),
            *_related(vmap, reached)[1:],
        )
        for tree in (sm.in_specs, sm.out_specs):
            for entry, axes in tree.entries_naming(axes_placed):
                message = (
                    f"a `jax.vmap` without `spmd_axis_name` maps away Explicit mesh axis {backticked(axes)}, "
                    "on which its input's batch dimension is placed, and a shard_map it reaches names it; "
                    "JAX raises `shard_map in_specs argument must refer to an axis marked as manual`"
                )
                findings.append(_finding(rules.EXPLICIT_AXIS, entry.span, axes, message, [fix, move], related))
        if not any(True for t in (sm.in_specs, sm.out_specs) for _ in t.entries_naming(axes_placed)):
            findings += _eager_explicit_findings(vmap, reached)
    return [_other_callers(f, vmap) for f in findings]


def _vmap_findings(vmap: VmapFacts, new_axis: str) -> list[Finding]:
    if vmap.kind == "explicit":
        return _explicit_findings(vmap)
    h2 = has_h2(vmap)
    # Planned per vmap site, shared by all its findings (cheap: no libcst until a fix is applied).
    site_fixes: list[Fix | Refusal] = [rename_spmd_axis.plan(vmap), add_mesh_axis.plan(vmap, new_axis)]
    findings: list[Finding] = []
    # span of a finding no other fix may leave behind (SPMD004 under check_vma=False, SPMD003) -> what the
    # program would do if it were left
    left_behind: dict = {}
    nested = smap = False
    for reached in vmap.reached:
        part = _spec_findings(vmap, reached, site_fixes, h2)
        captures = _capture_findings(vmap, reached)
        for f, capture in zip(captures, reached.captures):
            left_behind[f.span] = _capture_outcome(capture)
        part += captures
        collectives = _collective_findings(vmap, reached, site_fixes, h2)
        part += [f for f, _ in collectives]
        if reached.shard_map.check_vma is not True:
            for f, use in collectives:
                left_behind[f.span] = f"`{use.name}` over the spmd axis (line {use.line}) running with wrong values under check_vma=False"
        part += _inner_vmap_findings(vmap, reached)
        eager = _eager_explicit_findings(vmap, reached)
        part += eager + _inner_mapped_findings(vmap, reached, bool(eager))
        if reached.shard_map.api != "smap":
            part += _manual_findings(vmap, reached, site_fixes)
        if reached.shard_map.body.nested_shard_maps:
            nested = True
            part += _nested_findings(vmap, reached)
            part = [_refused(f, _NESTED_REFUSED, _nested_reason(reached)) for f in part]
        if reached.shard_map.api == "smap":
            smap = True
            part += _manual_findings(vmap, reached, [])
            part = [_refused(f, (Transform.RENAME, Transform.ADD_AXIS), _SMAP_REASON) for f in part]
            part = [_refused(f, _SMAP_SPEC_EDITS, _SMAP_NO_SPECS) for f in part]
        findings += part
    findings += _constraint_findings(vmap, site_fixes, h2)
    if nested or smap:
        reason = "a reached shard_map's body applies another shard_map: " + _NESTED_MEASURED
        reason = _SMAP_REASON if smap else reason
        findings = [_refused(f, (Transform.RENAME, Transform.ADD_AXIS), reason) for f in findings]
    drop = drop_spmd_axis.plan(vmap)
    findings = [_with_option(f, drop) for f in findings]
    findings = [_other_callers(f, vmap) for f in findings]
    blockers = [
        Blocker(f, left_behind[f.span])
        for f in findings
        if f.code in (rules.COLLECTIVE.code, rules.CAPTURE.code) and f.span in left_behind
    ]
    return judged_together(findings, blockers)


def _edited_shard_maps(fix: Fix, vmap: VmapFacts) -> list:
    """The reached shard_maps a fix edits: strip its specs, lift-captures its body and call,
    disable-check-vma its `check_vma`, rename and add-axis its `axis_names` display."""
    hit = []
    for r in vmap.reached:
        key = r.shard_map.key
        names = r.shard_map.axis_names
        if (
            fix.key.startswith(f"strip:{key}:")
            or fix.key in (f"lift-captures:{key}", f"disable-check-vma:{key}")
            or (names is not None and names.display is not None and any(e.span == names.display for e in fix.node_edits))
        ):
            hit.append(r)
    return hit


def _other_callers(finding: Finding, vmap: VmapFacts) -> Finding:
    """A fix that edits a shard_map some place runs without this vmap is unsafe, its reason naming those
    places: it is proven for the calls under the vmap only (issue 11; analysis.callers finds them)."""
    fixes = []
    for fix in finding.fixes:
        places = [p for r in _edited_shard_maps(fix, vmap) for p in r.other_callers]
        if places:
            why = (
                "the shard_map it edits also runs without this vmap, and the edit changes it there too: "
                + ", ".join(dict.fromkeys(places))
            )
            reason = why if fix.applicability == Applicability.SAFE else f"{fix.reason}; {why}"
            fix = replace(fix, applicability=Applicability.UNSAFE, reason=reason)
        fixes.append(fix)
    return replace(finding, fixes=tuple(fixes))


def _capture_outcome(capture) -> str:
    """What the program does once the other findings of its vmap site are fixed and this capture is not.

    Measured on jax 0.10.2 (safety/add_axis_with_capture_left): a spec collision fixed by add-axis while the
    body still closes over a batched value fails with `AssertionError: ManualAxisType(...)`.
    """
    return f"the capture of `{capture.name}` (line {capture.line}) still fails (a `ManualAxisType` assertion)"


# Measured on jax 0.10.2 (docs/safety.md, "drop-spmd-axis"): an outer shard_map whose body applies another
# shard_map, under any vmap with spmd_axis_name.
_NESTED_MEASURED = (
    "measured, no rename, add-axis or strip runs then (`DuplicateSpecError` eager, a verifier error under "
    "jit); only removing `spmd_axis_name` does"
)
_NESTED_REFUSED = (Transform.RENAME, Transform.ADD_AXIS, Transform.STRIP)
# A `jax.smap` site (api "smap") makes only its own axis manual. Measured on jax 0.10.2 under a vmap over
# that axis: renaming the spmd axis to another mesh axis and adding a size-1 'batch' axis both fail
# (`manual_axis_type ... should be of type Manual` under jit, `must refer to an axis marked as manual` eager);
# only removing spmd_axis_name runs (safety/measure_drop.py).
_SMAP_REASON = (
    "`jax.smap` makes only its own axis manual: measured, renaming the spmd axis or adding a size-1 axis fails "
    "(`manual_axis_type` error); only removing `spmd_axis_name` runs"
)
# smap has no in_specs to extend (lift-captures), no specs to strip and no check_vma to turn off: its specs
# come from in_axes/out_axes, and it always checks (jax/_src/shard_map.py `_smap`).
_SMAP_SPEC_EDITS = (Transform.STRIP, Transform.LIFT_CAPTURES, Transform.DISABLE_CHECK_VMA)
_SMAP_NO_SPECS = (
    "`jax.smap` has no `in_specs`/`out_specs` or `check_vma` to edit: its specs come from `in_axes`/`out_axes` "
    "and `axis_name`, and it always checks"
)


def _manual_findings(vmap: VmapFacts, reached, site_fixes) -> list[Finding]:
    """SPMD008 (hazard H4): a reached partial-manual shard_map (`axis_names={...}`, or a `jax.smap`, whose one
    manual axis is its `axis_name`) that does not make an spmd axis manual.

    The spmd vmap inserts its axis into the specs, which must then be manual. Measured on jax 0.10.2
    (safety/measurements/smap_under_spmd_vmap.py, partial_manual_missing_spmd_axis.py): `shard_map in_specs
    argument must refer to an axis marked as manual` eager, `Axes mentioned in manual_axis_type ... should
    be of type Manual` under jit, on Auto and Explicit meshes, whatever the specs. A plain vmap runs and keeps
    the values. For a shard_map, rename and add-axis (which append their axis to `axis_names`) run and keep
    the values; for an smap they fail (its only manual axis is its own), so they are refused.
    """
    sm = reached.shard_map
    if sm.axis_names is None or sm.axis_names_unknown:
        return []
    missing = [a for a in vmap.spmd.names if a not in sm.axis_names.names]
    if not missing:
        return []
    if sm.api != "smap" and batch_on_explicit_axes(vmap, sm.mesh):
        # The batch placed on an Explicit spmd axis: the shard_map runs with check_vma=True, eager and under
        # jit (measured: safety/measurements/h4_explicit_placed.py; fuzz seed 4357); check_vma=False called
        # eagerly fails, which _eager_explicit_findings reports.
        return []
    manual = sorted(sm.axis_names.names)
    if sm.api == "smap":
        what = f"`jax.smap` over axis {backticked(manual)} makes only that axis manual"
        options: list = [Refusal(t, _SMAP_REASON) for t in (Transform.RENAME, Transform.ADD_AXIS)]
    else:
        what = f"the shard_map's `axis_names` makes only {backticked(manual)} manual"
        options = list(site_fixes)
    message = (
        f"{what}, and the vmap's `spmd_axis_name` axis {backticked(missing)} is not among them; JAX raises "
        "`shard_map in_specs argument must refer to an axis marked as manual` (a `manual_axis_type` error under jit)"
    )
    span = sm.axis_names.written or sm.axis_names.display or sm.span
    return [_finding(rules.NOT_MANUAL, span, missing, message, options, _related(vmap, reached))]


def _eager_explicit_findings(vmap: VmapFacts, reached) -> list[Finding]:
    """SPMD008: `check_vma=False` on a shard_map reached eagerly by an spmd vmap whose batch is placed on the
    Explicit spmd axis.

    Measured on jax 0.10.2 (safety/measurements/explicit_check_vma_false_eager.py): with the batch placed on
    the spmd axis of an Explicit mesh and `check_vma=False`, an eager call raises `shard_map out_specs
    argument must refer to an axis marked as manual` whatever the specs and the body; under `jax.jit` (around
    the vmap, or anywhere between it and the shard_map) it runs and matches, and so does `check_vma=True`.
    """
    sm = reached.shard_map
    calls = vmap.calls
    if vmap.kind == "explicit":
        # a plain vmap over a batch placed on Explicit axes (analysis.placement): measured to fail the same way
        placed = sm.mesh is not None and sm.mesh.axis_types == "explicit" and calls is not None
    else:
        placed = batch_on_explicit_axes(vmap, sm.mesh)
    if sm.check_vma is not False or reached.under_jit or not placed:
        return []
    eager = [c for c in calls.calls if not c.under_jit]
    if not eager:
        return []
    lines = ", ".join(str(c.line) for c in eager)
    message = (
        f"`check_vma=False` on a shard_map reached by a vmap whose batch is placed on Explicit mesh axis "
        f"{backticked(vmap.spmd.names)}{'' if vmap.kind == 'explicit' else ' (its `spmd_axis_name`)'}: called "
        f"eagerly (line {lines}), JAX does not "
        "make that axis manual and raises `shard_map out_specs argument must refer to an axis marked as manual`; "
        "calling it under `jax.jit`, or leaving `check_vma` on, runs"
    )
    span = sm.check_span or sm.span
    return [_finding(rules.NOT_MANUAL, span, list(vmap.spmd.names), message, [], _related(vmap, reached))]


def _inner_mapped_findings(vmap: VmapFacts, reached, eager_reported: bool) -> list[Finding]:
    """SPMD006 / SPMD008: the first `jax.vmap` on the way maps away the per-example dimension that a call of
    the spmd vmap places on an Explicit mesh axis A (`jax.device_put(xs, NamedSharding(mesh, P(None, 'A')))`).

    Measured on jax 0.10.2 (safety/measurements/inner_vmap_explicit_placement.py; fuzz seeds 321, 407): A is
    then not manual in the shard_map, so a spec naming A, or an spmd axis A (which the vmap inserts into the
    specs), raises `shard_map in_specs argument must refer to an axis marked as manual` (eager; under jit the
    same, a `manual_axis_type` error or a DuplicateSpecError), whatever `check_vma`; with neither, a
    `check_vma=False` shard_map called eagerly raises `out_specs argument must refer to an axis marked as
    manual` (under jit it runs). No fix is offered: of the candidates measured (moving or dropping the
    placement, stripping A, dropping spmd_axis_name), none runs in every case.
    """
    sm = reached.shard_map
    calls = vmap.calls
    if not reached.inner_mapped or calls is None or sm.mesh is None or sm.mesh.axis_types != "explicit":
        return []
    placing = [
        (c, names) for c in calls.calls for i in reached.inner_mapped
        if i < len(c.next_dim) and (names := c.next_dim[i])
    ]
    if not placing:
        return []
    axes = sorted({a for _, names in placing for a in names})
    lines = ", ".join(sorted({str(c.line) for c, _ in placing}))
    related = (
        Related(f"input placed on Explicit mesh axis {backticked(axes)} at the dimension after the batch by "
                f"the call here", placing[0][0].span),
        Related("this `jax.vmap` maps that dimension away", reached.inner_vmap),
        *_related(vmap, reached),
    )
    what = (
        f"an inner `jax.vmap` maps away Explicit mesh axis {backticked(axes)}, on which the call (line {lines}) "
        "places the dimension it maps"
    )
    error = "JAX raises `shard_map in_specs argument must refer to an axis marked as manual` (a `manual_axis_type` error under jit)"
    findings = []
    for tree in (sm.in_specs, sm.out_specs):
        for entry, named in tree.entries_naming(set(axes)):
            message = f"{what}, and the shard_map names it; {error}"
            findings.append(_finding(rules.EXPLICIT_AXIS, entry.span, named, message, [], related))
    spmd = [a for a in vmap.spmd.names if a in axes]
    if spmd and not findings:
        message = f"{what}, and the vmap inserts its `spmd_axis_name` {backticked(spmd)} into the shard_map's specs; {error}"
        findings.append(_finding(rules.EXPLICIT_AXIS, sm.span, spmd, message, [], related))
    eager = [c for c, _ in placing if not c.under_jit]
    if not findings and not eager_reported and sm.check_vma is False and not reached.under_jit and eager:
        message = (
            f"`check_vma=False` on a shard_map reached eagerly (line {', '.join(str(c.line) for c in eager)}) "
            f"through an inner `jax.vmap` that maps away Explicit mesh axis {backticked(axes)}, on which the call "
            "places the dimension it maps: JAX does not make the axes manual and raises `shard_map out_specs "
            "argument must refer to an axis marked as manual`; the same call under `jax.jit` runs"
        )
        findings.append(_finding(rules.NOT_MANUAL, sm.check_span or sm.span, axes, message, [], related))
    return findings


def _nested_reason(reached) -> str:
    """Why rename, add-axis and strip are refused for a reached shard_map with a nested one."""
    return "the shard_map's body applies another shard_map: " + _NESTED_MEASURED


def _nested_findings(vmap: VmapFacts, reached) -> list[Finding]:
    """SPMD001 / SPMD002 for spec entries of a shard_map nested in a reached body that name an spmd axis.

    Measured on jax 0.10.2: an outer shard_map over 'x' (axis_names={'x'}) whose body applies a shard_map
    over 'y', under spmd_axis_name='y', fails: `shard_map in_specs argument must refer to an axis marked as
    manual` eager, a `manual_axis_type ... should be of type Manual` error under jit.
    """
    spmd = set(vmap.spmd.names)
    findings = []
    for inner in reached.shard_map.body.nested_shard_maps:
        related = (*_related(vmap, reached), Related("nested shard_map applied here", inner.span))
        for where, tree in (("in_specs", inner.in_specs), ("out_specs", inner.out_specs)):
            rule = rules.IN_SPECS if where == "in_specs" else rules.OUT_SPECS
            for entry, axes in tree.entries_naming(spmd):
                message = (
                    f"vmap `spmd_axis_name` axis {backticked(axes)} appears in `{where}` of a shard_map nested in "
                    "the body of a shard_map the vmapped function reaches; JAX raises `shard_map in_specs argument "
                    "must refer to an axis marked as manual` (a `manual_axis_type` error under jit)"
                )
                refused = [Refusal(t, _nested_reason(reached)) for t in _NESTED_REFUSED]
                findings.append(_finding(rule, entry.span, axes, message, refused, related))
    return findings


# eq=False, repr=False: nothing compares, hashes or prints this record, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@dataclass(frozen=True, slots=True, eq=False, repr=False)
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
    "also fixes" a blocker when the blocker offers the same fix (equal key): rename and add-axis of the vmap
    site cure every finding of the site, a strip of one spec does not.
    """
    if not blockers:
        return findings
    judged = []
    for finding in findings:
        fixes = []
        for fix in finding.fixes:
            left = [b for b in blockers if b.finding is not finding and fix.key not in {x.key for x in b.finding.fixes}]
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


def _finding(rule, span, axes, message, options, related) -> Finding:
    """A finding whose fixes are the `Fix`es among `options` and whose refusals are the rest."""
    return Finding(
        code=rule.code,
        name=rule.name,
        message=message,
        span=span,
        axis=axes[0] if axes else "",
        related=related,
        fixes=tuple(o for o in options if isinstance(o, Fix)),
        refusals=tuple(o for o in options if isinstance(o, Refusal)),
    )


def _spec_findings(vmap: VmapFacts, reached, site_fixes, h2: bool) -> list[Finding]:
    """SPMD001 / SPMD002: a spec entry of a reached shard_map names an spmd axis."""
    spmd = set(vmap.spmd.names)
    sm = reached.shard_map
    strip = None
    findings = []
    for where, tree in (("in_specs", sm.in_specs), ("out_specs", sm.out_specs)):
        for entry, axes in tree.entries_naming(spmd):
            strip = strip or strip_spec_entries.plan(vmap, reached)
            rule = rules.IN_SPECS if where == "in_specs" else rules.OUT_SPECS
            out_only = not set(axes) & sm.in_specs.axes()
            message = _message(axes, where, sm.check_vma, h2, out_only, vmap.shmap_error_disabled)
            if sm.api == "smap":
                message = _smap_message(axes, where, h2, out_only)
            findings.append(_finding(rule, entry.span, axes, message, [*site_fixes, strip], _related(vmap, reached)))
    return findings


def _capture_findings(vmap: VmapFacts, reached) -> list[Finding]:
    """SPMD003: the body closes over a value the spmd vmap batches (hazard H5)."""
    mesh = reached.shard_map.mesh
    if reached.shard_map.check_vma is False and mesh is not None and all(mesh.size_of(a) == 1 for a in vmap.spmd.names):
        # Over size-1 spmd axes a capture runs and matches with check_vma=False, eager and under jit (measured,
        # safety/measurements/capture_size1_spmd_axis.py; fuzz seed 3552); with check_vma=True it still fails.
        return []
    captures = reached.captures
    if reached.shard_map.check_vma is True and batch_on_explicit_spmd_axes(vmap, mesh):
        # The batch placed on the Explicit spmd axes: a capture runs and matches with check_vma=True, eager and
        # under jit (measured, safety/measurements/capture_explicit_mesh.py; fuzz seeds 3314, 3325, 5544):
        # an unbatched array under all-replicated specs, a batched or derived value only when the in_specs name
        # a mesh axis besides the spmd ones; under all-replicated specs a batched capture still fails
        # (`For primitive mul, context mesh ...`, eager and jit). Only a check_vma known to be on: with False
        # (also through a constant) the capture fails (`out_specs argument must refer to an axis marked as manual`).
        # A batched capture also needs its own value placed on nothing but the batch dimension: a captured
        # `w` placed `P('y', 'x')` fails (`For primitive reduce_sum, context mesh ...`; JAX refuses closures
        # over inputs sharded on Explicit axes), so a capture whose arguments are not known is kept.
        sm = reached.shard_map
        names_data_axis = not sm.in_specs.unresolved and bool(sm.in_specs.axes() - set(vmap.spmd.names))
        captures = tuple(
            c for c in captures
            if c.kind != "array" and not (names_data_axis and _placed_on_batch_only(c, vmap))
        )
    findings = []
    for capture in captures:
        if capture.kind == "array":
            message = (
                f"the shard_map body closes over `{capture.name}`, an array the vmap does not batch, while its "
                "specs name no mesh axis and `check_vma=True`; under a vmap with `spmd_axis_name` JAX fails on "
                "it with an internal `AssertionError: ManualAxisType(...)`"
            )
        else:
            message = (
                f"the shard_map body closes over `{capture.name}`, which the vmap with `spmd_axis_name` batches; "
                "JAX fails on it (an internal AssertionError or a lowering error), and with `in_specs=()` "
                "silently returns a result too large by the spmd axis size"
            )
        options = [lift_captures.plan(reached, _placed_beyond_batch(captures, vmap))]
        findings.append(
            _finding(rules.CAPTURE, capture.use, list(vmap.spmd.names), message, options, _related(vmap, reached))
        )
    return findings


def _placed_on_batch_only(capture, vmap: VmapFacts) -> bool:
    """Every call of the vmap places each argument a batched `capture` comes from on no mesh axis beyond its
    batch dimension (`P('y')`, `P('y', None)`); False when that is not known."""
    if capture.params is None or vmap.calls is None:
        return False
    return all(
        i < len(call.off_batch) and call.off_batch[i] == () for call in vmap.calls.calls for i in capture.params
    )


def _placed_beyond_batch(captures, vmap: VmapFacts) -> tuple[str, ...]:
    """The batched captures some call of the vmap places on a mesh axis beyond the batch dimension
    (`jax.device_put(ws, NamedSharding(mesh, P('y', 'x')))`); for a capture whose arguments are not known,
    any argument placed so counts."""
    calls = vmap.calls.calls if vmap.calls is not None else ()
    placed = []
    for capture in captures:
        if capture.kind == "array":
            continue
        if capture.params is None:
            hit = any(axes for call in calls for axes in call.off_batch)
        else:
            hit = any(
                i < len(call.off_batch) and call.off_batch[i] for call in calls for i in capture.params
            )
        if hit:
            placed.append(capture.name)
    return tuple(placed)


def _collective_findings(vmap: VmapFacts, reached, site_fixes, h2: bool) -> list[tuple[Finding, CollectiveUse]]:
    """SPMD004: a collective or axis query over an spmd axis in the body (hazard H1), with its use."""
    spmd = set(vmap.spmd.names)
    findings = []
    for use in reached.shard_map.body.collectives:
        axes = [a.name for a in use.axes.axes if a.name in spmd]
        if not axes or use.call in reached.unbatched_collectives:
            continue  # an operand the vmap does not batch: runs correctly (measured)
        mesh = reached.shard_map.mesh
        if reached.shard_map.check_vma is False and mesh is not None and all(mesh.size_of(a) == 1 for a in axes):
            continue  # over a size-1 axis there is nothing to mix: runs correctly with check_vma=False (measured)
        message = (
            f"`{use.name}` over the vmap's `spmd_axis_name` axis {backticked(axes)} inside a shard_map body; "
            "with `check_vma=True` JAX raises a `pvary` error, with `check_vma=False` the program runs and "
            "mixes batch elements from different shards (wrong values)"
        ) + _h2_note(h2)
        refusal = Refusal(Transform.STRIP, "strip is never offered for a collective over the spmd axis")
        options = [*site_fixes, refusal]
        findings.append((_finding(rules.COLLECTIVE, use.axes.span, axes, message, options, _related(vmap, reached)), use))
    return findings


def _inner_vmap_findings(vmap: VmapFacts, reached) -> list[Finding]:
    """SPMD007: hazard H2, a jax.vmap on the way or in the body while check_vma is on."""
    sm = reached.shard_map
    if not h2_at(vmap, reached):
        # check_vma off, a body of unary primitives only (analysis.primitives), or a batch placed on an
        # Explicit mesh (analysis.hazards.batch_on_explicit_axes): measured to run.
        return []
    message = (
        "`jax.vmap` between a vmap with `spmd_axis_name` and the shard_map it reaches (or inside "
        "its body) while `check_vma=True`: JAX raises a `pvary` error even without a spec collision "
        "(hazard H2); making the spmd vmap the innermost one, or `check_vma=False`, avoids it"
    )
    options = [disable_check_vma.plan(reached)]
    return [
        _finding(rules.INNER_VMAP, span, list(vmap.spmd.names), message, options, _related(vmap, reached))
        for span in (*reached.vmaps, *sm.body.inner_vmaps)
    ]


def _constraint_findings(vmap: VmapFacts, site_fixes, h2: bool) -> list[Finding]:
    """SPMD005: a with_sharding_constraint spec names an spmd axis (JAX raises)."""
    spmd = set(vmap.spmd.names)
    findings = []
    for use in vmap.constraints:
        related = (
            Related(f"`spmd_axis_name` {backticked(vmap.spmd.names)} given here", vmap.spmd.span),
            Related("with_sharding_constraint called here", use.call),
        )
        for entry, axes in use.specs.entries_naming(spmd):
            message = (
                f"vmap `spmd_axis_name` axis {backticked(axes)} appears in a `with_sharding_constraint` spec "
                "inside the vmapped function; JAX raises `vmap spmd_axis_name ... cannot appear in "
                "with_sharding_constraint spec`"
            ) + _h2_note(h2)
            options = [*site_fixes, strip_spec_entries.plan_constraint(vmap, use)]
            findings.append(_finding(rules.CONSTRAINT, entry.span, axes, message, options, related))
    return findings


def _h2_note(h2: bool) -> str:
    if not h2:
        return ""
    return (
        "; note: a `jax.vmap` between the spmd vmap and this shard_map (or in its body) fails under "
        "`check_vma=True` before and after any spec fix (hazard H2)"
    )


def _message(
    axes: list[str], where: str, check_vma: bool | None, h2: bool, out_only: bool, check_disabled: bool = False
) -> str:
    message = (
        f"vmap `spmd_axis_name` axis {backticked(axes)} appears in `{where}` of a shard_map the vmapped "
        f"function reaches; JAX raises `vmap spmd_axis_name cannot appear in shard_map {where}`"
    )
    if check_disabled:
        # Measured with the option set: DuplicateSpecError (the axis twice in one spec), and with
        # check_vma=True also a pvary error, depending on the specs and on jit.
        later = f"a `DuplicateSpecError` (\"P('{axes[0]}', '{axes[0]}') has duplicate entries\")"
        if check_vma is not False:
            later += " or a `pvary is a invariant->variant collective` error"
        message = (
            f"vmap `spmd_axis_name` axis {backticked(axes)} appears in `{where}` of a shard_map the vmapped "
            f"function reaches; this module sets `jax_disable_vmap_shmap_error`, so JAX skips its check and "
            f"fails later with {later}"
        )
    elif where == "out_specs" and out_only and check_vma is not False:
        message += " (with `check_vma=True` an out_specs-only collision surfaces as a `pvary` error)"
    return message + _h2_note(h2)


def _smap_message(axes: list[str], where: str, h2: bool, out_only: bool) -> str:
    """SPMD001/002 on a `jax.smap`: the in_axes/out_axes entry that maps over the spmd axis (measured on jax
    0.10.2: the in_specs error, or for an out_axes-only collision a `pvary` error, smap checking vma)."""
    given = "in_axes" if where == "in_specs" else "out_axes"
    message = (
        f"`jax.smap` maps this `{given}` entry over axis {backticked(axes)}, the vmap's `spmd_axis_name` axis; "
        f"JAX raises `vmap spmd_axis_name cannot appear in shard_map {where}`"
    )
    if where == "out_specs" and out_only:
        message = (
            f"`jax.smap` maps this `{given}` entry over axis {backticked(axes)}, the vmap's `spmd_axis_name` axis; "
            "JAX raises a `pvary is a invariant->variant collective` error"
        )
    return message + _h2_note(h2)


def _related(vmap: VmapFacts, reached) -> tuple[Related, ...]:
    """The spmd_axis_name argument, the call chain, and the shard_map (once, when the chain ends there)."""
    steps = [Related(f"`spmd_axis_name` {backticked(vmap.spmd.names)} given here", vmap.spmd.span), *reached.chain]
    sm = reached.shard_map
    if not reached.chain or reached.chain[-1].span != sm.span:
        steps.append(Related("shard_map constructed here", sm.span))
    return tuple(steps)
