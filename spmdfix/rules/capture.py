"""SPMD003 (capture hazard H5): a reached shard_map body closes over a value the spmd vmap batches, or over
an unbatched array while its specs name no mesh axis under `check_vma=True`.

JAX fails on it (an internal `AssertionError: ManualAxisType(...)` or a lowering error), and with
`in_specs=()` silently returns a result too large by the spmd axis size. What the body captures is
`analysis.capture`; the fix is lift-captures (`fixes.lift_captures`). Docs: `spmdfix/rules/docs/SPMD003.md`;
docs/rules.md.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from typing import TYPE_CHECKING

from spmdfix.analysis.hazards import batch_on_explicit_spmd_axes, inner_dimensions_unplaced, input_committed
from spmdfix.analysis.kinds import AxisType, BatchPlacement, CaptureKind, VmapKind
from spmdfix.fixes import lift_captures
from spmdfix.fixes.edits import backticked
from spmdfix.jaxapi import ShardMapApi
from spmdfix.model import Applicability, Finding, Fix, Related, Span
from spmdfix.rules.codes import CAPTURE
from spmdfix.rules.rule import Invalid, Site, Valid, finding, related_places

if TYPE_CHECKING:
    from spmdfix.analysis.facts import ReachedFacts, VmapFacts

RULES = (CAPTURE,)


def check(site: Site, reached: ReachedFacts) -> list[Finding]:
    """The SPMD003 findings of one reached shard_map: one per captured value JAX fails on (for a plain vmap
    over a batch placed on Explicit axes: `_plain_vmap_findings`)."""
    if site.vmap.kind is VmapKind.EXPLICIT:
        return _plain_vmap_findings(site.vmap, reached)
    return _capture_findings(site.vmap, reached)


def _plain_vmap_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD003 under a plain `jax.vmap` (no spmd_axis_name) whose batch is placed on Explicit mesh axes
    (`vmap.spmd.names`, `VmapKind.EXPLICIT`): the body closes over a value the vmap batches, over an argument
    it does not map that a call commits to the mesh, or over an array placed on an Explicit mesh.

    Measured on jax 0.10.2 (safety/measurements/capture_plain_vmap_placed.py; fuzz seed 250076), 2x4 mesh of
    Explicit axes, batch placed on `'x'` by `jax.device_put` or by `jax.sharding.reshard` under
    `jax.set_mesh`: a batched value or one computed from it, closed over, default-bound or bound by
    `functools.partial`, fails with `For primitive mul, context mesh ... should match the aval mesh` under
    `in_specs=P()` (eager, `jax.jit` of the vmap, `jax.jit(shard_map(...))`, a jit on the way; check_vma
    True and False: with False called eagerly SPMD008's `out_specs argument must refer to an axis marked as
    manual` comes first), and under in_specs naming another axis (`P('y')`) with check_vma=False; with
    check_vma=True and in_specs naming another axis it runs and matches, as under `spmd_axis_name` (the
    exemption then asks the same as there: the captured value's inputs placed on nothing beyond the batch).
    An unplaced batch, or a mesh of Auto axes, runs: no finding (the vmap is not EXPLICIT there). A module
    constant array runs. Specs naming the placed axis are SPMD006 (its error comes first).

    Measured in safety/measurements/plain_vmap_placed_spellings.py: an argument the vmap does not map
    (`in_axes=None`) that a call commits to the mesh (`P()`, `P(None)`, `P('y')`; `Capture.committed`) fails
    the same way, the value itself or a scalar reduced from it (part 1; exempt as a batched capture is when
    its placement names no mesh axis or the value is a scalar); an array placed with `jax.device_put` on an
    Explicit mesh (`CaptureKind.PLACED`) fails, `context mesh ...` with the batch placed, `Closing over
    inputs to shard_map` with the batch dimension on no axis, whatever the specs and check_vma (part 2); an
    inner `jax.vmap` on the way changes nothing (part 3) when it maps dimensions placed on no mesh axis (one
    mapping a placed dimension is not measured: left out). Left out, not measured: `jax.smap`, a mesh with an
    Auto axis, and a way staged while not every call places the batch (`Capture.off_spmd`)."""
    sm = reached.shard_map
    mesh = sm.mesh
    placed = set(vmap.spmd.names)
    if sm.api is ShardMapApi.SMAP or mesh is None:
        return []
    if mesh.axis_types is AxisType.AUTO and _placement_mesh(vmap, reached) is _Meshes.OTHER:
        return _auto_mesh_findings(vmap, reached)
    if mesh.axis_types is not AxisType.EXPLICIT:
        return []
    if reached.vmaps and not inner_dimensions_unplaced(vmap.calls):
        # (not decided from the calls: an SPMD910 record, `unread_matters.records`; a call placing the inner
        # vmap's dimension is not measured)
        return []
    if any(True for t in (sm.in_specs, sm.out_specs) for _ in t.entries_naming(placed)):
        return []  # SPMD006
    findings = _plain_placed_array_findings(vmap, reached)
    if not placed:
        # The input is placed on Explicit axes in another dimension than the batch's (`P(None, 'x')`): a
        # batched capture runs and matches (fuzz seed 280006, measured: golden clean/
        # plain_vmap_batch_dimension_unplaced_capture); a committed unmapped argument is refused
        return sorted(findings + _plain_committed_unplaced_findings(vmap, reached), key=lambda f: f.span.start)
    names_other_axis = not sm.in_specs.unresolved and bool(sm.in_specs.axes() - placed)
    captures = tuple(
        c for c in reached.captures
        if c.kind is CaptureKind.BATCHED and not c.off_spmd
        and not (sm.check_vma is True and names_other_axis and _exempt_beside_other_axis(c, vmap))
    )
    axes = backticked(sorted(placed))
    for capture in captures:
        if capture.committed:
            message = (
                f"the shard_map body closes over `{capture.name}`, from an argument the `jax.vmap` without "
                "`spmd_axis_name` does not map (`in_axes=None`) that a call places on the Explicit mesh, while the "
                f"batch dimension is placed on Explicit mesh axis {axes}; JAX fails on it (`For primitive ..., "
                "context mesh ... should match the aval mesh`) unless `check_vma=True` and the in_specs name "
                "another mesh axis"
            )
        else:
            message = (
                f"the shard_map body closes over `{capture.name}`, which a `jax.vmap` without `spmd_axis_name` "
                f"batches while its input's batch dimension is placed on Explicit mesh axis {axes}; JAX fails on "
                "it (`For primitive ..., context mesh ... should match the aval mesh`) unless `check_vma=True` and "
                "the in_specs name another mesh axis"
            )
        if _placement_mesh(vmap, reached) is _Meshes.OTHER:
            # (measured: with other axis names or sizes the program fails without the capture too, part 4)
            message += (
                "; the shard_map's mesh is not the mesh the batch is placed on (other axis names, sizes or types), "
                "which JAX rejects as well"
            )
        options = [_plain_lift_option(vmap, reached, captures)]
        findings.append(finding(CAPTURE, capture.use, sorted(placed), message, options, _plain_related(vmap, reached)))
    return sorted(findings, key=lambda f: f.span.start)


class _Meshes(Enum):
    """The shard_map's mesh against the mesh a plain vmap's batch is placed on (`_placement_mesh`)."""

    SAME = "same"  # the same construction, or one with the same axis names, sizes and types
    OTHER = "other"  # another mesh, with other names, sizes or types
    UNKNOWN = "unknown"


def _placement_mesh(vmap: VmapFacts, reached: ReachedFacts) -> _Meshes:
    """Whether the shard_map's mesh is the mesh the plain vmap's batch is placed on. Measured on jax 0.10.2
    (safety/measurements/plain_vmap_placed_spellings.py, part 4): a second `jax.make_mesh` with the same axes
    behaves as the same mesh (the capture fails alike, the lifted operand runs); a mesh with other names
    (`('a', 'b')`) or shape (`(4, 2)`) fails without any capture (`in_specs ... does not match`, `KeyError`, an
    XLA abort); an Auto mesh of the same axes refuses the capture (`Closing over inputs to shard_map`) and
    runs the lifted operand."""
    mesh = reached.shard_map.mesh
    theirs = vmap.placement.mesh if vmap.placement is not None else None
    if mesh is None or theirs is None:
        return _Meshes.UNKNOWN
    if theirs.span == mesh.span:
        return _Meshes.SAME
    known = (AxisType.EXPLICIT, AxisType.AUTO)
    if None in mesh.sizes or None in theirs.sizes or mesh.axis_types not in known or theirs.axis_types not in known:
        return _Meshes.UNKNOWN  # (a mesh built twice by a helper may well be the same: not judged)
    alike = (
        theirs.axis_names == mesh.axis_names and theirs.sizes == mesh.sizes
        and theirs.axis_types is mesh.axis_types and mesh.axis_types is AxisType.EXPLICIT
    )
    return _Meshes.SAME if alike else _Meshes.OTHER


def _auto_mesh_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD003 under a plain vmap whose batch is placed on an Explicit mesh while the shard_map runs on a mesh of
    Auto axes: a batched capture of an all-replicated body is refused, `NotImplementedError: Closing over inputs
    to shard_map where the input is sharded on Explicit axes`, check_vma True and False, eager and under jit
    (measured: safety/measurements/plain_vmap_placed_spellings.py, part 4, an Auto `Mesh` of the same axes;
    the lifted operand runs). Other specs are not measured there: left out."""
    sm = reached.shard_map
    if sm.in_specs.unresolved or sm.out_specs.unresolved or sm.in_specs.axes() or sm.out_specs.axes():
        return []
    findings = []
    captures = tuple(c for c in reached.captures if c.kind is CaptureKind.BATCHED and not c.off_spmd and not c.committed)
    for capture in captures:
        message = (
            f"the shard_map body closes over `{capture.name}`, which a `jax.vmap` without `spmd_axis_name` "
            "batches while its input is placed on an Explicit mesh and the shard_map's mesh has Auto axes; JAX "
            "refuses it (`Closing over inputs to shard_map where the input is sharded on Explicit axes`)"
        )
        options = [_plain_lift_option(vmap, reached, captures)]
        findings.append(
            finding(CAPTURE, capture.use, sorted(vmap.spmd.names), message, options, _plain_related(vmap, reached))
        )
    return findings


def _plain_related(vmap: VmapFacts, reached: ReachedFacts) -> tuple[Related, ...]:
    """The chain of a plain-vmap SPMD003 finding: where the batch is placed, then the way to the shard_map."""
    axes = backticked(sorted(vmap.spmd.names))
    where = f"batch dimension placed on Explicit mesh axis {axes} here" if vmap.spmd.names else "input placed here"
    return (Related(where, vmap.spmd.span), *related_places(vmap, reached)[1:])


def _plain_placed_array_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD003 under a plain vmap over an Explicit-placed input: the body closes over an array placed on an
    Explicit mesh with `jax.device_put` (`CaptureKind.PLACED`). Measured on jax 0.10.2: with the batch placed
    on the mesh `For primitive mul, context mesh ...` (safety/measurements/plain_vmap_placed_spellings.py, part
    2: the array on `P('x')`, `P('y')`, `P(None)`; the array itself or `W.sum()`; specs `P()` and `P('y')`;
    check_vma True and False, eager and under jit), with the batch dimension on no axis `Closing over inputs to
    shard_map where the input is sharded on Explicit axes` (open_items_issue22_kind9.py, part A); an unplaced
    array runs. Lifting it is not measured: unsafe (`_lift_option`)."""
    findings = []
    for capture in reached.captures:
        if capture.kind is not CaptureKind.PLACED:
            continue
        message = (
            f"the shard_map body closes over `{capture.name}`, an array placed on an Explicit mesh "
            f"{_placed_how(capture)}; under a `jax.vmap` without `spmd_axis_name` over an input placed on the Explicit "
            "mesh JAX refuses it (`For primitive ..., context mesh ... should match the aval mesh`; `Closing over "
            "inputs to shard_map where the input is sharded on Explicit axes` when the batch dimension is placed "
            "on no axis), whatever its spec and `check_vma`"
        )
        options = [_lift_option(vmap, reached, reached.captures)]
        findings.append(
            finding(CAPTURE, capture.use, sorted(vmap.spmd.names), message, options, _plain_related(vmap, reached))
        )
    return findings


def _placed_how(capture) -> str:
    """How a PLACED capture's array came onto its Explicit mesh, as its message says it."""
    if capture.made_under_mesh:
        return "(made inside `jax.set_mesh(...)` of that mesh, which commits it there)"
    return "with `jax.device_put`"


def _plain_committed_unplaced_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD003 under a plain vmap over an input placed on the Explicit mesh with its batch dimension on no mesh
    axis: the body closes over an argument the vmap does not map that a call commits to the shard_map's mesh
    (`CaptureAnalysis.committed_uses`). Measured on jax 0.10.2 (safety/measurements/plain_vmap_placed_spellings.py,
    part 5; fuzz seed 310000): `NotImplementedError: Closing over inputs to shard_map where the input is sharded
    on Explicit axes`, whatever its spec, check_vma and staging; unplaced it runs. So is a batched value whose
    input a call commits to the mesh with no axis at its batch dimension (part 7; fuzz seed 29), or one the
    analysis kept as staged off the spmd axes for that reason (`Capture.off_spmd`)."""
    calls, mesh = vmap.calls, reached.shard_map.mesh
    # (an inner vmap on the way: its dimension is placed on no axis, `_plain_vmap_findings` asked)
    inner = bool(reached.vmaps)
    captures = tuple(
        c for c in reached.captures
        if c.committed or c.kind is CaptureKind.BATCHED and (c.off_spmd or input_committed(c, calls, mesh, inner))
    )
    manual = _manual_operands(reached)
    if manual:
        # Under a partial-manual shard_map with check_vma=True, a captured value runs when each of its reads is
        # an operand of `*`, `+`, `-` or `/` with a value varying with a block whose in_spec names a manual axis
        # (`Capture.mixed_blocks`): JAX's `pvary` there brings it into the shard_map's context mesh. Measured
        # (safety/measurements/plain_vmap_unplaced_batch_scalar_partial_manual.py; fuzz seeds 350567, 360680),
        # eager and jitted, whatever the placements: a per-example scalar reduced from the input (`x.mean() +
        # 2.0`), a batched argument of any rank (scalar, `(1,)`, the block's shape, a rank above it), a value
        # computed from one outside the body (`jnp.exp(w)`, `x[:4]`), an argument the vmap does not map
        # committed to the mesh (`P()`, `P(None)`, `P('y')`); through `jax.jit` or `jax.checkpoint` on the
        # vmapped function too. Any operation of the capture's own first (`jnp.exp(w) * b`, `b * jnp.mean(w)`,
        # `w * 2.0 * b`, `b * -w`), or an operand not varying over the manual axes (`b.shape[0] * w`,
        # `jax.lax.psum(b, 'x') * w`, a block under `P()`) fails: `context mesh ... should match the aval mesh`.
        # Beside a block under `P()` (in_specs `(P('x'), P())`, fuzz seed 410389) a read meeting a value that
        # varies with the `P('x')` block runs, whatever else it reads (`((b * 2.0 + 1.0) * w) * m`, `(b + w) * m`,
        # `b * m + w`), one meeting the `P()` block alone fails (`w * m + b`, `m * w * b`), whichever operand is
        # replicated (safety/measurements/partial_manual_capture_replicated_operand.py). Also measured to run
        # (part 3, every capture source): the exponent of `**` (`jnp.abs(b) ** w`), the right operand of `@`
        # (`b @ w + b`), the second argument of `jnp.maximum(b, w)`; `jnp.where(b > 0, w, 0.0)` fails for
        # `w = x[:4]` and stays reported (`CaptureAnalysis._mixed_partner`).
        captures = tuple(c for c in captures if not _meets_manual_block(c, manual))
    findings = []
    for capture in captures:
        if capture.committed or capture.unmapped:
            what = (
                "from an argument the `jax.vmap` without `spmd_axis_name` does not map (`in_axes=None`) that a "
                "call places on the Explicit mesh, while the batch dimension is placed on no mesh axis"
            )
        else:
            what = (
                "which the `jax.vmap` without `spmd_axis_name` batches from an input that a call places on the "
                "Explicit mesh with no mesh axis at its batch dimension"
            )
        if _partial_manual(reached) and not capture.nested:
            refusal = (
                "with only some mesh axes manual JAX fails on it (`For primitive ..., context mesh ... should "
                "match the aval mesh`) unless `check_vma` is on and each read of it is an operand of `*`, `+`, "
                "`-`, `/` (or the exponent of `**`, the right operand of `@`, the second argument of `jnp.maximum`) "
                "with a value varying with a block whose in_spec names a manual axis"
            )
        else:
            refusal = (
                "JAX refuses it (`Closing over inputs to shard_map where the input is sharded on Explicit axes`), "
                "whatever the specs and `check_vma`"
            )
        message = f"the shard_map body closes over `{capture.name}`, {what}; {refusal}"
        options = [_unplaced_lift_option(vmap, reached, captures)]
        findings.append(finding(CAPTURE, capture.use, [], message, options, _plain_related(vmap, reached)))
    return findings


def _partial_manual(reached: ReachedFacts) -> bool:
    """The shard_map makes only some of its mesh's axes manual (`axis_names` read, a strict subset of the mesh's
    axes). Measured (safety/measurements/plain_vmap_unplaced_batch_scalar_partial_manual.py, parts 1 and 3):
    a capture from an input committed to the mesh fails there with `For primitive ..., context mesh ... should
    match the aval mesh` (eagerly with check_vma=False, SPMD008's `out_specs ... manual` first), not with
    `Closing over inputs to shard_map`, JAX's error when every axis is manual."""
    sm = reached.shard_map
    if sm.mesh is None or sm.axis_names is None or sm.axis_names_unknown:
        return False
    return set(sm.axis_names.names) < set(sm.mesh.axis_names)


_EVERY_OPERAND = "every operand"


def _manual_operands(reached: ReachedFacts) -> frozenset[int] | str:
    """Under a shard_map that makes only some of its mesh's axes manual (`axis_names` read, a strict subset of
    the mesh's axes) with check_vma on, the operands whose blocks vary over a manual axis: `_EVERY_OPERAND` when
    each spec of its in_specs names one of them, else the positions of the operands whose every spec does
    (`ShardMapFacts.operand_specs`: in_specs written as a tuple display); empty otherwise. A captured value meeting
    such a block runs, one meeting a block under `P()` alone fails
    (safety/measurements/partial_manual_capture_replicated_operand.py; `_plain_committed_unplaced_findings`)."""
    sm = reached.shard_map
    if not _partial_manual(reached) or sm.check_vma is not True:
        return frozenset()
    manual = set(sm.axis_names.names)

    def naming(tree) -> bool:
        if tree.unresolved or tree.empty or not tree.specs:
            return False
        return all(any(e.value and set(e.value.names) & manual for e in spec.entries) for spec in tree.specs)

    if naming(sm.in_specs):
        return _EVERY_OPERAND
    if sm.operand_specs is None:
        return frozenset()
    return frozenset(i for i, tree in enumerate(sm.operand_specs) if naming(tree))


def _meets_manual_block(capture, manual: frozenset[int] | str) -> bool:
    """A batched capture each read of which is an operand of `*`, `+`, `-` or `/` with a value varying with a
    block of one of the `manual` operands (`_manual_operands`)."""
    if capture.kind is not CaptureKind.BATCHED or not capture.mixed_only:
        return False
    return manual == _EVERY_OPERAND or all(set(read) & manual for read in capture.mixed_blocks)


def _unplaced_lift_option(vmap: VmapFacts, reached: ReachedFacts, captures):
    """lift-captures where the plain vmap's batch dimension is placed on no axis: unsafe, its lifted operand is
    not measured there."""
    option = _plain_lift_option(vmap, reached, captures)
    if isinstance(option, Fix) and option.applicability == Applicability.SAFE:
        why = _PLAIN_LIFT.format(what="a batch placed on a mesh axis, not an input committed with none at its batch dimension")
        option = replace(option, applicability=Applicability.UNSAFE, reason=why)
    return option


def _exempt_beside_other_axis(capture, vmap: VmapFacts) -> bool:
    """A capture under a vmap whose batch is placed on Explicit mesh axes (the spmd axes, or a plain vmap's placed
    batch) that runs with check_vma=True and in_specs naming another axis: a batched one placed on nothing
    beyond the batch (`_placed_on_batch_only`), a committed one (an argument the vmap does not map) that is a
    scalar or whose every call places it on no mesh axis (`P()`, `P(None)`: measured, `w[:2]` and `w.sum()`
    run; placed `P('y')` the slice fails: safety/measurements/plain_vmap_placed_spellings.py, part 1, for a plain
    vmap; safety/measurements/capture_spmd_placed_committed_other_axis.py under `spmd_axis_name`, eager, under
    jit and with a jit on the way, where a 0-d argument captured itself runs too: fuzz seed 370317)."""
    if not capture.committed:
        return _placed_on_batch_only(capture, vmap)
    if capture.scalar:
        return True
    if capture.params is None or vmap.calls is None:
        return False
    return all(
        i < len(call.unmapped_axes) and call.unmapped_axes[i] == () for call in vmap.calls.calls for i in capture.params
    )


# lift-captures under a plain vmap is measured (safety/measurements/capture_plain_vmap_placed.py) for batched
# captures whose inputs are placed on the batch axis only; with check_vma=False it runs under jit, while an
# eager call fails anyway (SPMD008)
_PLAIN_LIFT = "lift-captures under a plain vmap over a placed batch is measured only for {what}"


def _plain_lift_option(vmap: VmapFacts, reached: ReachedFacts, captures):
    """lift-captures of the shard_map under a plain vmap: the planner's own judgment, unsafe where the lifted
    operand was not measured to run (a capture whose inputs are placed beyond the batch or not known)."""
    option = lift_captures.plan(reached, _placed_beyond_batch(captures, vmap))
    if not isinstance(option, Fix) or option.applicability != Applicability.SAFE:
        return option
    committed = [c.name for c in reached.captures if c.committed]
    if committed:
        why = _COMMITTED_LIFT.format(names=", ".join(f"`{n}`" for n in committed))
        return replace(option, applicability=Applicability.UNSAFE, reason=why)
    placed = [c.name for c in reached.captures if c.kind is CaptureKind.PLACED]
    if placed:
        why = _PLACED_LIFT.format(names=", ".join(f"`{n}`" for n in placed))
        return replace(option, applicability=Applicability.UNSAFE, reason=why)
    meshes = _placement_mesh(vmap, reached)
    if meshes is not _Meshes.SAME:
        why = (
            "the batch is placed on another mesh than the shard_map's, with other axes or of another type"
            if meshes is _Meshes.OTHER else
            "whether the shard_map's mesh is the mesh the batch is placed on is not known"
        )
        why += "; the lifted operand is measured only on the mesh the batch is placed on (or one made with the same axes)"
        return replace(option, applicability=Applicability.UNSAFE, reason=why)
    if len(captures) != len(reached.captures) or not all(_placed_on_batch_only(c, vmap) for c in captures):
        why = _PLAIN_LIFT.format(what="captures whose inputs are placed on nothing beyond the batch dimension")
        return replace(option, applicability=Applicability.UNSAFE, reason=why)
    return option


def left_behind(site: Site, reached: ReachedFacts, found: list[Finding]) -> dict[Span, str]:
    """For the findings `check` gave at this shard_map (`found`), what the program does once the site's other
    findings are fixed and the capture is not (`plan.judgments.judged_together` reads it), by finding span."""
    by_use = {capture.use: capture for capture in reached.captures}
    if site.vmap.kind is VmapKind.EXPLICIT:
        # a plain vmap over a placed batch (`_plain_vmap_findings`): measured to fail with `context mesh ...`
        # (safety/measurements/capture_plain_vmap_placed.py); what a fix of the batch's placement does to it
        # (move-placement) was not measured, so no other fix may leave it
        return {
            f.span: f"the capture of `{by_use[f.span].name}` (line {by_use[f.span].line}) still fails "
                    "(`context mesh ... should match the aval mesh`)"
            for f in found if f.span in by_use
        }
    return {f.span: _capture_outcome(by_use[f.span]) for f in found if f.span in by_use}


def _capture_outcome(capture) -> str:
    """What the program does once the other findings of its vmap site are fixed and this capture is not.

    Measured on jax 0.10.2 (safety/add_axis_with_capture_left): a spec collision fixed by add-axis while the
    body still closes over a batched value fails with `AssertionError: ManualAxisType(...)`; a capture of an
    input committed to an Explicit mesh off the spmd axes, through a staging function, fails with `Closing
    over inputs to shard_map` whatever the specs (safety/measurements/capture_staged_explicit_placement.py).
    """
    if capture.kind is CaptureKind.PLACED:
        return f"the closure over `{capture.name}` (line {capture.line}), placed on an Explicit mesh, still fails"
    if capture.off_spmd:
        return f"the capture of `{capture.name}` (line {capture.line}) still fails (`Closing over inputs to shard_map`)"
    return f"the capture of `{capture.name}` (line {capture.line}) still fails (a `ManualAxisType` assertion)"


def _capture_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD003: the body closes over a value the spmd vmap batches (hazard H5), or an array placed on an
    Explicit mesh (`_placed_findings`)."""
    return _batched_findings(vmap, reached) + _placed_findings(vmap, reached)


# Lifting an array placed on an Explicit mesh into a `P()` operand is not measured (a `P()` operand does not
# match a placement beyond the batch: golden refuse/lift_capture_placed_beyond_batch).
_PLACED_LIFT = "the body also closes over an array placed on an Explicit mesh ({names}); lifting it is not measured"
# A capture reached through a staging function whose input is committed to an Explicit mesh off the spmd axes:
# its lifted `P()` operand runs through `@jax.jit`, `jax.jit(shard_map(...))` and `jax.lax.map`, but through
# `jax.checkpoint` called eagerly the lifted program still fails (`in_specs passed to shard_map ... does not
# match the specs of the input`; safety/measurements/capture_staged_explicit_placement.py), so lifting is not
# proven for every staging function.
_OFF_SPMD_LIFT = (
    "{names} comes from an input placed on an Explicit mesh off the spmd axes and is reached through a staging "
    "function; the lifted operand is not measured to run through every staging function"
)

# An unbatched argument committed to the Explicit mesh while the batch is placed on the spmd axes: its lifted `P()`
# operand runs when the argument is placed `P()`, and fails when it is placed `P('y')` (`in_specs passed to
# shard_map: P(None,) does not match the specs of the input: P('y',)`;
# safety/measurements/capture_staged_spmd_placed_unbatched_arg.py): not proven for every placement.
_COMMITTED_LIFT = (
    "{names} comes from an argument the vmap does not map, placed on the Explicit mesh; the lifted `P()` operand "
    "fails when that placement names a mesh axis"
)


def _placed_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD003: the body closes over an array placed on an Explicit mesh (`CaptureKind.PLACED`): it fails under
    any vmap and without one, whatever its spec and check_vma (measured: `analysis.capture.CaptureAnalysis
    .placed_arrays`)."""
    findings = []
    for capture in reached.captures:
        if capture.kind is not CaptureKind.PLACED:
            continue
        message = (
            f"the shard_map body closes over `{capture.name}`, an array placed on an Explicit mesh "
            f"{_placed_how(capture)}; JAX refuses it (`Closing over inputs to shard_map where the input is sharded on "
            "Explicit axes`; under a vmap with `spmd_axis_name`, `For primitive ..., context mesh ...`), whatever "
            "its spec and `check_vma`"
        )
        options = [_lift_option(vmap, reached, reached.captures)]
        findings.append(
            finding(CAPTURE, capture.use, list(vmap.spmd.names), message, options, related_places(vmap, reached))
        )
    return findings


def _lift_option(vmap: VmapFacts, reached: ReachedFacts, captures):
    """lift-captures of the shard_map (it lifts every capture), unsafe while one is an array placed on an
    Explicit mesh."""
    option = lift_captures.plan(reached, _placed_beyond_batch(captures, vmap))
    placed = [c.name for c in reached.captures if c.kind is CaptureKind.PLACED]
    if placed and isinstance(option, Fix) and option.applicability == Applicability.SAFE:
        why = _PLACED_LIFT.format(names=", ".join(f"`{n}`" for n in placed))
        option = replace(option, applicability=Applicability.UNSAFE, reason=why)
    off_spmd = [c.name for c in reached.captures if c.off_spmd]
    if off_spmd and isinstance(option, Fix) and option.applicability == Applicability.SAFE:
        why = _OFF_SPMD_LIFT.format(names=", ".join(f"`{n}`" for n in off_spmd))
        option = replace(option, applicability=Applicability.UNSAFE, reason=why)
    committed = [c.name for c in reached.captures if c.committed]
    if committed and isinstance(option, Fix) and option.applicability == Applicability.SAFE:
        why = _COMMITTED_LIFT.format(names=", ".join(f"`{n}`" for n in committed))
        option = replace(option, applicability=Applicability.UNSAFE, reason=why)
    return option


def _batched_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD003: the body closes over a value the spmd vmap batches, or an unbatched array under all-replicated
    specs (hazard H5)."""
    mesh = reached.shard_map.mesh
    size1 = mesh is not None and all(mesh.size_of(a) == 1 for a in vmap.spmd.names)
    calls = vmap.calls.calls if vmap.calls is not None else ()
    # (on a mesh of Auto axes only, where the placement changes nothing here: fuzz seed 230018)
    placed = mesh is not None and mesh.axis_types is not AxisType.AUTO and any(
        c.batch_placement is BatchPlacement.AXES for c in calls
    )
    if reached.shard_map.check_vma is False and size1 and not placed:
        # Over size-1 spmd axes a capture runs and matches with check_vma=False, eager and under jit (measured,
        # safety/measurements/capture_size1_spmd_axis.py; fuzz seed 3552); with check_vma=True it still fails.
        # Not with a call placing the batch on mesh axes: on the Explicit spmd axis JAX raises `For primitive
        # mul, context mesh ... should match the aval mesh` under jit (eagerly SPMD008's error), on an Auto one
        # of a mesh with Explicit axes `Closing over inputs to shard_map` (fuzz seed 130128;
        # safety/measurements/capture_size1_spmd_axis_explicit.py). A mesh of Auto axes only keeps the exemption,
        # placed or not (fuzz seed 230018: batch placed `P('x', 'y')`, runs and matches).
        return []
    captures = tuple(c for c in reached.captures if c.kind is not CaptureKind.PLACED)
    if _runs_on_mesh_of_spmd_axes(vmap, reached):
        return []
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
            if c.kind is not CaptureKind.ARRAY and not (names_data_axis and _exempt_beside_other_axis(c, vmap))
        )
    findings = []
    # The staged refusals below hold whatever the specs, except that an in_specs naming a mesh axis the batch's
    # block is not placed on fails first, eager and under jit: `in_specs passed to shard_map: P('x',) does not match
    # the specs of the input: P(None,)` (safety/measurements/capture_staged_explicit_placement.py: placements
    # `replicated`, `unplaced` and `unplaced/none` under `P('x')` and `P('y')`; placed `P(None, e)`, `Closing over`).
    named = sorted(reached.shard_map.in_specs.axes()) if not reached.shard_map.in_specs.unresolved else []
    specs_clause = (
        f"whatever `check_vma` and the specs (when the batch's block is not placed on {backticked(named)} as the "
        "in_specs say, JAX raises `in_specs passed to shard_map ... does not match the specs of the input` first)"
        if named else "whatever the specs and `check_vma`"
    )
    for capture in captures:
        if capture.committed:
            message = (
                f"the shard_map body closes over `{capture.name}`, from an argument the vmap with `spmd_axis_name` "
                "does not map (`in_axes=None`) that a call places on the Explicit mesh while the batch is placed on "
                "the spmd axes; JAX fails on it (`For primitive ..., context mesh ... should match the aval mesh`) "
                "unless `check_vma=True` and the in_specs name a mesh axis besides the spmd ones"
            )
        elif capture.unmapped:
            message = (
                f"the shard_map body closes over `{capture.name}`, from an argument the vmap with `spmd_axis_name` "
                "does not map (`in_axes=None`) that a call places on the Explicit mesh, reached through a staging "
                "function while the batch is not placed on the spmd axes; JAX refuses it (`Closing over inputs to "
                f"shard_map where the input is sharded on Explicit axes`), {specs_clause}"
            )
        elif capture.off_spmd:
            message = (
                f"the shard_map body closes over `{capture.name}`, which the vmap with `spmd_axis_name` batches, "
                "reached through a staging function while a call places its input on the Explicit mesh off the "
                "spmd axes; JAX refuses it (`Closing over inputs to shard_map where the input is sharded on "
                f"Explicit axes`), {specs_clause}"
            )
        elif capture.kind is CaptureKind.ARRAY:
            message = (
                f"the shard_map body closes over `{capture.name}`, an array the vmap does not batch, while its "
                "specs name no mesh axis and `check_vma=True`; under a vmap with `spmd_axis_name` JAX fails on "
                "it with an internal `AssertionError: ManualAxisType(...)`"
            )
        else:
            closes = (
                f"the shard_map body calls `{capture.helper}`, which closes over `{capture.name}`, a value"
                if capture.helper else f"the shard_map body closes over `{capture.name}`,"
            )
            message = (
                f"{closes} which the vmap with `spmd_axis_name` batches; JAX fails on it (an internal "
                "AssertionError or a lowering error), and with `in_specs=()` silently returns a result too large by "
                "the spmd axis size"
            )
        options = [_lift_option(vmap, reached, captures)]
        findings.append(
            finding(CAPTURE, capture.use, list(vmap.spmd.names), message, options, related_places(vmap, reached))
        )
    return findings


def _runs_on_mesh_of_spmd_axes(vmap: VmapFacts, reached: ReachedFacts) -> bool:
    """The shard_map's mesh has no axis but the spmd axes, all Explicit, every call of the vmap places the batch
    on them (`batch_on_explicit_spmd_axes`), and the shard_map is traced under jit: a jit on the way, a
    `jax.jit(shard_map(...))`, a staging loop on the way (`ReachedFacts.staged`), or every call of the vmap
    under jit. Then the body makes no mesh axis manual
    beside the batch's, and what it closes over (a batched value, a value computed from the batch, an
    unbatched array) runs and matches, check_vma True and False (measured on jax 0.10.2:
    safety/measurements/capture_mesh_of_spmd_axes.py, meshes `(2,)` and `(8,)` over `'x'` and `(2, 4)` under
    the spmd tuple `('x', 'y')`; fuzz seed 80604). An eager call fails there anyway, with or without the
    capture (`in_specs passed to shard_map: P(None, None) does not match the specs of the input`), so the
    finding stays for it; one mesh axis besides the spmd ones, even of size 1 or Auto, makes the capture fail
    (`context mesh ... should match the aval mesh`)."""
    mesh = reached.shard_map.mesh
    if mesh is None or not batch_on_explicit_spmd_axes(vmap, mesh):
        return False
    if not set(mesh.axis_names) <= set(vmap.spmd.names):
        return False
    calls = vmap.calls.calls if vmap.calls is not None else ()
    # (a staging loop on the way, `jax.lax.map` or `lax.scan`, traces it as a jit does: measured in
    # safety/measurements/capture_mesh_of_spmd_axes_staged.py, fuzz seed 100917)
    return reached.under_jit or reached.jit_wrapped or reached.staged or all(c.under_jit for c in calls)


def _placed_on_batch_only(capture, vmap: VmapFacts) -> bool:
    """Every call of the vmap places each argument a batched `capture` comes from on no mesh axis beyond its
    batch dimension (`P('y')`, `P('y', None)`); False when that is not known. A full reduction to a scalar
    (`m = x.mean() + 2.0`) has no dimension beyond the batch whatever its inputs' placement: measured to run,
    eager and under jit (safety/measurements/capture_reduced_placed_input.py; fuzz seeds 23243, 23306)."""
    if capture.scalar:
        return True
    # (also back through an inner vmap's unmapped operand: measured to run the same,
    # safety/measurements/capture_explicit_placed_inner_vmap.py; fuzz seed 120152)
    params = capture.params if capture.params is not None else capture.through_vmaps
    if params is None or vmap.calls is None:
        return False
    return all(i < len(call.off_batch) and call.off_batch[i] == () for call in vmap.calls.calls for i in params)


def _placed_beyond_batch(captures, vmap: VmapFacts) -> tuple[str, ...]:
    """The batched captures some call of the vmap places on a mesh axis beyond the batch dimension
    (`jax.device_put(ws, NamedSharding(mesh, P('y', 'x')))`); for a capture whose arguments are not known,
    any argument placed so counts."""
    calls = vmap.calls.calls if vmap.calls is not None else ()
    placed = []
    for capture in captures:
        if capture.kind is not CaptureKind.BATCHED:
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


# Taken from tests/test_analysis.py's CASES (which keeps them too), each named by its key there.
VALID = (
    Valid(
        "SPMD003",  # capture_respects_in_axes_none: `c` is not batched
        """
        def f(v, c):
            return jax.shard_map(lambda u: u * c, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
    ),
    Valid(
        "SPMD003",  # a plain vmap over a placed batch, specs naming another axis, check_vma on: runs
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(x, w):
            return jax.shard_map(lambda b: b * w, mesh=em, in_specs=P('y'), out_specs=P('y'))(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P('x', 'y')))
            ws = jax.device_put(jax.numpy.ones((8,)), NamedSharding(em, P('x')))
            return jax.vmap(f)(xs, ws)
        """,
    ),
    Valid(
        "SPMD003",  # batch dimension unplaced, partial-manual shard_map, the capture meets the block (fuzz seed 360680)
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(x, w):
            return jax.shard_map(lambda b: jax.numpy.sin(b) * w, mesh=em, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P(None, 'x')))
            ws = jax.device_put(jax.numpy.ones((8,)), NamedSharding(em, P(None)))
            return jax.vmap(f)(xs, ws)
        """,
    ),
    Valid(
        "SPMD003",  # the same beside a replicated operand, the capture meets a product with the P('x') block (seed 410389)
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(x, v, w):
            return jax.shard_map(lambda b, u: ((b * 2.0) * u) * w, mesh=em, in_specs=(P('x'), P()), out_specs=P('x'), axis_names={'x'})(x, v)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P(None, 'x')))
            vs = jax.device_put(jax.numpy.ones((8,)), NamedSharding(em, P(None)))
            ws = jax.device_put(jax.numpy.ones((8,)), NamedSharding(em, P(None)))
            return jax.vmap(f)(xs, vs, ws)
        """,
    ),
)

INVALID = (
    Invalid(
        "SPMD003",  # the same, the capture meets the replicated operand alone: `For primitive mul, context mesh ...`
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(x, v, w):
            return jax.shard_map(lambda b, u: u * w + b, mesh=em, in_specs=(P('x'), P()), out_specs=P('x'), axis_names={'x'})(x, v)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P(None, 'x')))
            vs = jax.device_put(jax.numpy.ones((8,)), NamedSharding(em, P(None)))
            ws = jax.device_put(jax.numpy.ones((8,)), NamedSharding(em, P(None)))
            return jax.vmap(f)(xs, vs, ws)
        """,
        at="w",
    ),
    Invalid(
        "SPMD003",  # the same, the capture reduced alone first: `For primitive reduce_sum, context mesh ...`
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(x, w):
            return jax.shard_map(lambda b: b * jax.numpy.mean(w), mesh=em, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P(None, 'x')))
            ws = jax.device_put(jax.numpy.ones((8,)), NamedSharding(em, P(None)))
            return jax.vmap(f)(xs, ws)
        """,
        at="w",
    ),
    Invalid(
        "SPMD003",  # a plain vmap over a placed batch, an in_axes=None argument committed to the mesh closed over
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(x, w):
            return jax.shard_map(lambda b: b * w, mesh=em, in_specs=P(), out_specs=P())(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P('x', None)))
            ws = jax.device_put(jax.numpy.ones((8,)), NamedSharding(em, P()))
            return jax.vmap(f, in_axes=(0, None))(xs, ws)
        """,
        at="w",
    ),
    Invalid(
        "SPMD003",  # capture_through_a_helper
        """
        def helper(t, scale):
            def body(u):
                return u * scale
            return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(t)
        def f(v, w):
            return helper(v, w + 1)
        jax.vmap(f, spmd_axis_name='x')
        """,
        at="scale",
    ),
    Invalid(
        "SPMD003",  # a plain vmap over a batch placed on Explicit 'x', all-replicated specs (fuzz seed 250076)
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(x, w):
            return jax.shard_map(lambda b: b * w, mesh=em, in_specs=P(), out_specs=P())(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P('x', None)))
            ws = jax.device_put(jax.numpy.ones((8,)), NamedSharding(em, P('x')))
            return jax.vmap(f)(xs, ws)
        """,
        at="w",
    ),
)
