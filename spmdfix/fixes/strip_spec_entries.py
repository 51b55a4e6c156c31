"""Transform `strip`: remove the spmd axes from a shard_map's conflicting PartitionSpec entries.

Measured (docs/jax-behaviour.md, docs/safety.md): values are kept when the axis is removed from in_specs and
out_specs together and the body is elementwise along those dimensions; they change when the body reduces,
scans or reads its block shape, when an out_specs-only collision's output was tiled over the axis, with
any collective over the axis (never offered then), and with a collective over an axis that shares a tuple spec
entry with the stripped axis written before it (`shared_dimension_collectives`). On an Explicit mesh callers'
placed inputs stop matching. Also the strips of a spec inside the vmapped function: a `with_sharding_constraint`'s
(`plan_constraint`) and a `jax.sharding.reshard`'s (`plan_reshard`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.hazards import has_h2
from spmdfix.analysis.kinds import AxisType, UnreadKind, VmapKind
from spmdfix.fixes import edits as c
from spmdfix.model import EditKind, Fix, FixId, NodeEdit, Refusal, SiteId, SiteKind, Transform

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.facts import ConstraintUse, ReachedFacts, ReshardUse, ShardMapFacts, VmapFacts
    from spmdfix.analysis.values import AxisNames

TRANSFORM = Transform.STRIP


def plan(vmap: VmapFacts, reached: ReachedFacts) -> Fix | Refusal:
    """The strip fix of one shard_map reached from one vmap site, or why it is not offered.

    Every entry of its in_specs and out_specs that names an spmd axis loses those axes (`'x'` -> None,
    `('x', 'y')` -> `'y'`), so ranks stay. Safe only for a provably elementwise body, no out_specs-only
    axis, a resolved Auto mesh and fully read specs.
    """
    sm = reached.shard_map
    spmd = set(vmap.spmd.names)
    in_axes = sm.in_specs.axes()
    axes = sorted(spmd & (in_axes | sm.out_specs.axes()))
    collective = spmd & sm.body.collective_axes
    if collective:
        return Refusal(TRANSFORM, f"the shard_map body uses a collective over {c.backticked(sorted(collective))}")
    if sm.axis_names is not None and spmd - sm.axis_names.names:
        # H4: under the spmd vmap a partial-manual shard_map must name every spmd axis in axis_names, specs
        # or not (measured: `must refer to an axis marked as manual` once stripped, fuzz seed 1033).
        missing = sorted(spmd - sm.axis_names.names)
        return Refusal(
            TRANSFORM,
            f"the shard_map's `axis_names` does not name {c.backticked(missing)}: once stripped, JAX still requires "
            "every spmd axis there (`must refer to an axis marked as manual`)",
        )
    edits = _entry_edits([sm.in_specs, sm.out_specs], spmd)
    reasons = []
    if sm.axis_names_unknown:
        reasons.append(c.unread_what(sm, UnreadKind.AXIS_NAMES) or "the shard_map's `axis_names` is not a literal set")
    if reached.strip_blocker:
        reasons.append(reached.strip_blocker)
    if sm.body.collectives_unknown:
        reasons.append(c.unread_what(sm, UnreadKind.COLLECTIVE) or "the body's collectives could not all be read")
    out_only = [a for a in axes if a not in in_axes]
    if out_only:
        reasons.append(f"out_specs-only collision: the output is tiled over {c.backticked(out_only)}")
    if sm.mesh is None:
        reasons.append("the mesh is not resolved")
    elif sm.mesh.axis_types is not AxisType.AUTO:
        reasons.append("the mesh has Explicit (or unknown) axis types: inputs placed for the old specs no longer match")
    if sm.in_specs.unresolved or sm.out_specs.unresolved:
        reasons.append("some specs are built at run time")
    reasons += shared_dimension_collectives(sm, spmd)
    if has_h2(vmap):
        reasons.append("hazard H2 remains")
    else:
        reasons += c.h2_call_reasons(vmap, "strip")
    reasons += c.replica_reasons(vmap)
    return c.classified_fix(
        FixId(TRANSFORM, sm.site, tuple(sorted(spmd))),
        f"Strip {c.backticked(axes)} from the shard_map's `in_specs` and `out_specs`",
        reasons,
        "the body is elementwise along the stripped dimensions",
        edits,
        c.edited_sites(vmap, sm.site, edits),
    )


def _capture_reasons(reached: ReachedFacts) -> list[str]:
    """Why the strip cannot be safe while the body captures a value the plain vmap batches
    (`ReachedFacts.captures`, also a value bound by `functools.partial` or a parameter default, which the
    body allowlist of `analysis.stripbody` sees as a parameter). Measured on jax 0.10.2 (fuzz seed 70217): on
    an Explicit mesh the stripped program still fails, `For primitive mul, context mesh ... should match the
    aval mesh`; the capture is SPMD003, which the strip does not remove."""
    return [
        f"the shard_map body captures `{capture.name}` (line {capture.line}), a value the vmap batches: the "
        "stripped program still fails on it (`context mesh ... should match the aval mesh`)"
        for capture in reached.captures
    ]


def plan_explicit(vmap: VmapFacts, reached: ReachedFacts) -> Fix | Refusal:
    """Strip the Explicit mesh axes a plain vmap maps away from a reached shard_map's specs (SPMD006).

    On an Explicit mesh a shard_map's operand must arrive with exactly its in_spec. Inside the plain vmap
    the placed input arrives as its placement without the batch entry, so the strip runs only when every
    stripped in_spec equals that remainder (measured: `P('x', None)` with `P('x')` -> `P(None)` runs;
    `P('x', 'y')` with `P('x')` -> `P(None)` fails, `does not match the specs of the input`). Also measured
    to fail: `axis_names` still naming the stripped axis (`... to be a subset of mesh.axis_names`), and a
    mesh whose only axes are the stripped ones (eager calls: `does not match the specs of the input`).
    Values: the body allowlist of `spmdfix.analysis.stripbody`; with check_vma=False only under jit.
    """
    sm = reached.shard_map
    axes = set(vmap.spmd.names)
    if axes & sm.body.collective_axes:
        return Refusal(TRANSFORM, f"the shard_map body uses a collective over {c.backticked(sorted(axes))}")
    if sm.axis_names is not None and axes & sm.axis_names.names:
        return Refusal(
            TRANSFORM,
            f"the shard_map's `axis_names` names {c.backticked(sorted(axes & sm.axis_names.names))}, which the vmap "
            "maps away: JAX requires `axis_names` to be a subset of the remaining mesh axes",
        )
    placement = vmap.placement
    if placement is not None and set(placement.mesh.axis_names) <= axes:
        return Refusal(
            TRANSFORM,
            f"the mesh has no axis besides {c.backticked(sorted(axes))}: the stripped shard_map fails when called "
            "eagerly (its operand still arrives placed on the mapped-away axis)",
        )
    rests = {layout for layout in (_stripped_layout(s, axes) for s in sm.in_specs.specs)}
    reasons = []
    if placement is None:
        reasons.append("the input's placement is not known")
    elif len(rests) == 1 and placement.rest() not in rests:
        return Refusal(TRANSFORM, _mismatch(placement, rests.pop()))
    elif len(rests) != 1:
        reasons.append("the shard_map's operands have different in_specs: cannot tell which one the placed input becomes")
    if vmap.calls is None or not vmap.calls.complete or len(vmap.calls.calls) != 1:
        # a vmap decorating a def (`analysis.placement`): its placement was read at one call; the strip
        # was measured for that call only
        reasons.append("the vmap has other calls (or uses) than the one whose placement was read")
    if reached.strip_blocker:
        reasons.append(reached.strip_blocker)
    reasons += _capture_reasons(reached)
    if sm.check_vma is None and c.unread_what(sm, UnreadKind.CHECK_VMA):
        # (not known to be on: the stripped form is measured to fail eagerly under check_vma=False)
        reasons.append(f"{c.unread_what(sm, UnreadKind.CHECK_VMA)}; with check_vma=False the stripped form fails when called eagerly")
    elif sm.check_vma is not True:
        reasons.append("with check_vma=False the stripped form fails when called eagerly")
    if sm.axis_names_unknown:
        reasons.append(c.unread_what(sm, UnreadKind.AXIS_NAMES) or "the shard_map's `axis_names` is not a literal set")
    if sm.in_specs.unresolved or sm.out_specs.unresolved:
        reasons.append("some specs are built at run time")
    reasons += shared_dimension_collectives(sm, axes)
    reasons += c.replica_reasons(vmap)
    edits = _entry_edits([sm.in_specs, sm.out_specs], axes)
    return c.classified_fix(
        FixId(TRANSFORM, sm.site, tuple(sorted(axes))),
        f"Strip {c.backticked(sorted(axes & (sm.in_specs.axes() | sm.out_specs.axes())))} from the shard_map's "
        "`in_specs` and `out_specs`",
        reasons,
        "the body's uses are on the strip allowlist and the stripped in_spec equals the input's placement without "
        "its batch entry",
        edits,
        c.edited_sites(vmap, sm.site, edits),
    )


def shared_dimension_collectives(sm: ShardMapFacts, stripped: set[str]) -> list[str]:
    """Why the strip changes what a body collective combines, one reason per (collective, spec entry).

    Measured (safety/measurements/strip_collective_shared_dimension.py, jax 0.10.2, eager and jit, any
    check_vma): with `P(('x', 'y'))` stripped to `P('y')`, a `pmean`/`psum`/`all_gather`/`axis_index` over
    `'y'` gives wrong values: `'x'` split the dimension before `'y'` did, so once `'x'` is gone each `'y'`
    block holds other elements of it and the collective combines (or numbers) other elements. With the
    stripped axis the entry's last member (`P(('y', 'x'))` -> `P('y')`) or in an entry of its own
    (`P('x', 'y')` -> `P(None, 'y')`) the values match. So a reason is given exactly where a stripped axis is
    a member of a tuple entry, not its last, and a body collective (or axis query) names another member.
    """
    reasons = []
    entries = [e for tree in (sm.in_specs, sm.out_specs) for e, _ in tree.entries_naming(stripped)]
    for collective in sm.body.collectives:
        for entry in entries:
            names = entry.value.names
            major = [a for a in names[:-1] if a in stripped]
            shared = [a for a in collective.axes.names if a in names and a not in stripped]
            if not major or not shared:
                continue
            reason = (
                f"the body's `{collective.name}` over {c.backticked(shared)} (line {collective.line}) works along the "
                f"dimension that {c.backticked(major)} shares with it in the spec entry `{_entry_text(names)}`: once "
                f"{c.backticked(major)} is stripped, each {c.backticked(shared)} block holds other elements of that "
                "dimension and the collective combines other elements"
            )
            if reason not in reasons:
                reasons.append(reason)
    return reasons


def _entry_text(names: tuple[str, ...]) -> str:
    return "(" + ", ".join(repr(n) for n in names) + ")"


def _stripped_layout(spec, axes: set[str]) -> tuple[tuple[str, ...], ...]:
    """A spec's axes per dimension once `axes` are stripped, trailing unsharded dims dropped."""
    dims = [tuple(a for a in (e.value.names if e.value else ()) if a not in axes) for e in spec.entries]
    while dims and not dims[-1]:
        dims.pop()
    return tuple(dims)


def _mismatch(placement, layout) -> str:
    def show(dims):
        return "P(" + ", ".join("None" if not d else repr(d[0]) if len(d) == 1 else repr(d) for d in dims) + ")"

    return (
        f"inside the vmap the placed input arrives as {show(placement.rest())} but the stripped in_spec would be "
        f"{show(layout)}: on an Explicit mesh JAX raises `in_specs ... does not match the specs of the input`"
    )


def plan_constraint(vmap: VmapFacts, use: ConstraintUse) -> Fix:
    """Strip the spmd axes from a with_sharding_constraint's spec (SPMD005).

    A sharding constraint places data, it does not change values (the runtime golden case
    strip/fam_constraint_entry), so this is safe unless the spec could not be fully read, its value is used
    elsewhere too (`ConstraintUse.shared`), or hazard H2 applies; `plan.judgments.judged_together` may still make it
    unsafe when it would leave an SPMD004 behind.
    """
    spmd = set(vmap.spmd.names)
    axes = sorted(spmd & use.specs.axes())
    reasons = ["some specs are built at run time"] if use.specs.unresolved else []
    if use.shared:
        reasons.append(f"the stripped spec is also used by {', '.join(use.shared)}: the strip would change that use too")
    if has_h2(vmap):
        reasons.append("hazard H2 remains")
    else:
        # the reached shard_maps keep their specs and the spmd vmap an axis they do not name: the program
        # rename's allowlist is measured in (safety/measurements/h2_call_allowlist.py)
        reasons += c.h2_call_reasons(vmap, "rename")
    # The constraint's site is its call's offset alone, as its key always was (`model.SiteId`).
    site = SiteId(SiteKind.CONSTRAINT, use.call.start)
    return c.classified_fix(
        FixId(TRANSFORM, site, tuple(sorted(spmd))),
        f"Strip {c.backticked(axes)} from the with_sharding_constraint spec",
        reasons,
        "a sharding constraint does not change values",
        _entry_edits([use.specs], spmd),
        frozenset({site}),
    )


def plan_reshard(vmap: VmapFacts, use: ReshardUse, axes: set[str]) -> Fix:
    """Strip `axes` (the Explicit axes the batch is placed on) from a `jax.sharding.reshard`'s spec inside the
    vmapped function (SPMD005, SPMD006).

    A reshard places data, it does not change values: measured on jax 0.10.2
    (safety/measurements/reshard_inside_vmap.py), `P('x') -> P(None)`, `P(('x', 'y')) -> P('y')`, rank 2
    `P('x', 'y') -> P(None, 'y')`, bare or in `NamedSharding(mesh, ...)`, with the batch placed on Explicit
    `'x'` under a plain vmap or `spmd_axis_name='x'`, run and match, eager and under jit. Safe unless the spec
    could not be fully read, its value is used elsewhere too (`ReshardUse.shared`), hazard H2 applies, or (a
    plain vmap) a reached shard_map body closes over a value the vmap batches (`_capture_reasons`).
    """
    named = sorted(axes & use.specs.axes())
    reasons = ["some specs are built at run time"] if use.specs.unresolved else []
    if use.shared:
        reasons.append(f"the stripped spec is also used by {', '.join(use.shared)}: the strip would change that use too")
    if use.other_callers:
        from spmdfix.analysis.uses import listed  # (the analysis' scopes: not imported with the rules' table)

        reasons.append(
            f"the function holding the reshard is also run by {listed(use.other_callers)}, not under this vmap: "
            "the strip would change the placement it gives there too"
        )
    if vmap.kind is not VmapKind.EXPLICIT and has_h2(vmap):
        reasons.append("hazard H2 remains")
    elif vmap.kind is not VmapKind.EXPLICIT:
        reasons += c.h2_call_reasons(vmap, "rename")  # (as for a constraint's strip: the specs are kept)
    if vmap.kind is VmapKind.EXPLICIT:
        # Under a plain vmap over a batch placed on an Explicit axis, a reached body closing over a value the vmap
        # batches can still fail once the reshard runs (fuzz seed 240052: `check_vma=False`, `m = x.mean() +
        # 2.0`, `For primitive mul, context mesh ... should match the aval mesh` after the strip), and no rule
        # reports that capture under a plain vmap: the strip is not shown to leave a running program.
        for reached in vmap.reached:
            reasons += _capture_reasons(reached)
    site = SiteId(SiteKind.RESHARD, use.call.start)
    return c.classified_fix(
        FixId(TRANSFORM, site, tuple(sorted(axes))),
        f"Strip {c.backticked(named)} from the reshard's spec",
        reasons,
        "a reshard places data and does not change values (measured)",
        _entry_edits([use.specs], axes),
        frozenset({site}),
    )


def _entry_edits(trees, spmd: set[str]) -> list[NodeEdit]:
    return [
        NodeEdit(entry.span, EditKind.REPLACE, stripped(entry.value, spmd))
        for tree in trees
        for entry, _ in tree.entries_naming(spmd)
    ]


def stripped(value: AxisNames, remove: set[str]) -> str:
    """The source of a spec entry with the axes in `remove` taken out (rank kept: empty -> None)."""
    kept = [a for a in value.axes if a.name not in remove]
    if not kept:
        return "None"
    texts = [a.text if value.literal else c.quoted(a.name, a.text) for a in kept]
    if len(texts) == 1:
        return texts[0]
    return "(" + ", ".join(texts) + ")"
