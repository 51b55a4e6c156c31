"""SPMD008 (hazard H4): the vmap's spmd axis is not manual in a reached shard_map.

Either a partial-manual shard_map (`axis_names={...}` without the spmd axis, or a `jax.smap`, whose one manual
axis is its `axis_name`), or `check_vma=False` on a shard_map an spmd vmap whose batch is placed on its
Explicit spmd axis reaches eagerly. JAX raises `shard_map in_specs (or out_specs) argument must refer to an
axis marked as manual`. Docs: `spmdfix/rules/docs/SPMD008.md`; docs/rules.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.hazards import (
    batch_on_explicit_axes,
    batch_on_explicit_spmd_axes,
    nested_names_placed_axes,
    spmd_axes_named_manual,
)
from spmdfix.analysis.kinds import AxisType, VmapKind
from spmdfix.fixes.edits import backticked
from spmdfix.jaxapi import ShardMapApi
from spmdfix.model import Finding, Refusal, Related, Transform
from spmdfix.rules.codes import NOT_MANUAL
from spmdfix.rules.rule import Invalid, Site, Valid, finding, related_places
from spmdfix.rules.spec_collision import SMAP_REASON

if TYPE_CHECKING:
    from spmdfix.analysis.facts import ReachedFacts, VmapFacts

RULES = (NOT_MANUAL,)


def check(site: Site, reached: ReachedFacts) -> list[Finding]:
    """The SPMD008 findings of one shard_map a vmap with spmd_axis_name reaches: `check_vma=False` reached
    eagerly with the batch on an Explicit spmd axis, and a partial-manual shard_map without the spmd axis."""
    return (
        eager_explicit_findings(site.vmap, reached)
        + _manual_findings(site.vmap, reached, site.fixes)
        + placed_axis_names_findings(site.vmap, reached)
        + nested_axis_names_findings(site.vmap, reached)
    )


def placed_axis_names_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD008: a shard_map's `axis_names` names an spmd axis while every call places the batch on the Explicit
    spmd axes of its mesh; for a plain vmap (`VmapKind.EXPLICIT`, `rules.explicit_axis`), an Explicit axis
    every call places the batch on (by `jax.device_put` or `jax.sharding.reshard`).

    A plain vmap fails the same way, eager and under jit, any check_vma, with the batch placed by
    `jax.device_put(xs, NamedSharding(mesh, P('data', None)))` or `reshard(xs, P('data', None))` under
    `jax.set_mesh` and `axis_names={'data'}`; `axis_names={'model'}` runs (check_vma=True, or under jit), and so
    does `{'data'}` over an unplaced batch (safety/measurements/axis_names_placed_plain_vmap.py; fuzz seed 40027).

    Measured on jax 0.10.2 (safety/measurements/open_items_issue22_kind9.py, part B): with the batch placed
    `P('x', 'y')` or `P('x', None)` under `spmd_axis_name='x'`, `axis_names={'x', 'y'}` raises `jax.shard_map
    requires axis_names=frozenset({'x', 'y'}) to be a subset of mesh.axis_names=frozenset({'y'})` (eager and
    under jit, any check_vma): the vmap takes the placed spmd axis out of the shard_map's mesh; `axis_names={'y'}`
    runs (check_vma=True, or under jit). No fix is measured here: the finding names the axis to leave out.
    """
    sm = reached.shard_map
    named = spmd_axes_named_manual(vmap, sm)
    if not named or not batch_on_explicit_spmd_axes(vmap, sm.mesh):
        return []
    what = (
        f"the Explicit mesh axis {backticked(named)}, on which every call places the batch and which the "
        "`jax.vmap` without `spmd_axis_name` maps away" if vmap.kind is VmapKind.EXPLICIT else
        f"the vmap's `spmd_axis_name` axis {backticked(named)}, on which every call places the batch (an "
        "Explicit mesh axis)"
    )
    message = (
        f"the shard_map's `axis_names` names {what}: under the vmap that axis is no longer one of the "
        "shard_map's mesh axes, and JAX raises `jax.shard_map requires axis_names=... to be a subset of "
        f"mesh.axis_names`; leaving {backticked(named)} out of `axis_names` runs"
    )
    span = sm.axis_names.written or sm.axis_names.display or sm.span
    refusals = [Refusal(t, _PLACED_NAMES_REASON) for t in (Transform.RENAME, Transform.ADD_AXIS)]
    return [finding(NOT_MANUAL, span, named, message, refusals, related_places(vmap, reached))]


def nested_axis_names_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD008: the `axis_names` of a shard_map nested in the reached body, on its context mesh, names an spmd
    axis (for a plain vmap, an Explicit axis its batch is placed on) that the vmap took out of that mesh: the
    reached shard_map leaves the axis out of its own `axis_names`, every call places the batch on it, and a jit
    or a staging loop (`jax.lax.map`, `lax.scan`, `fori_loop`, `while_loop`) lies on the way
    (`hazards.nested_names_placed_axes`, where the measurement is cited; fuzz seed 90384). JAX raises `jax.shard_map requires axis_names=frozenset({'y'})
    to be a subset of mesh.axis_names=frozenset({'z', 'x'})`, eager and under jit, any check_vma; the nested
    shard_map's spec entries naming the axis are then no SPMD001/002 (`rules.spec_collision`). No fix is
    measured."""
    findings = []
    for inner in reached.shard_map.body.nested_shard_maps:
        named = nested_names_placed_axes(vmap, reached, inner)
        if not named:
            continue
        message = (
            f"the `axis_names` of a shard_map nested in the body of a reached shard_map names {backticked(named)}, "
            "on which every call places the batch (an Explicit mesh axis) and which the enclosing shard_map "
            "leaves out of its `axis_names`: traced under a jit or a staging loop, the vmap takes that axis out "
            "of the nested shard_map's context mesh, and JAX raises `jax.shard_map requires axis_names=... to "
            "be a subset of mesh.axis_names`"
        )
        span = inner.axis_names.written or inner.axis_names.display or inner.span
        related = (*related_places(vmap, reached), Related("nested shard_map applied here", inner.span))
        refusals = [Refusal(t, _PLACED_NAMES_REASON) for t in (Transform.RENAME, Transform.ADD_AXIS)]
        findings.append(finding(NOT_MANUAL, span, named, message, refusals, related))
    return findings


_PLACED_NAMES_REASON = (
    "not measured with `axis_names` naming an spmd axis the batch is placed on (only leaving it out of "
    "`axis_names` was measured to run)"
)


def _manual_findings(vmap: VmapFacts, reached: ReachedFacts, site_fixes) -> list[Finding]:
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
    if sm.api is not ShardMapApi.SMAP and batch_on_explicit_axes(vmap, sm.mesh):
        # The batch placed on an Explicit spmd axis: the shard_map runs with check_vma=True, eager and under
        # jit (measured: safety/measurements/h4_explicit_placed.py; fuzz seed 4357); check_vma=False called
        # eagerly fails, which eager_explicit_findings reports.
        return []
    if sm.api.one_manual_axis and batch_on_explicit_spmd_axes(vmap, sm.mesh):
        # The batch placed on the Explicit spmd axes (`P('x', 'y')`, `P('x', None)`): a `jax.smap` over
        # another axis runs and matches, `in_axes` omitted (inferred from the placement) or 0, eager and under
        # jit (measured: safety/measurements/lax_map_and_smap_infer.py, part 2; golden
        # clean/smap_in_axes_omitted_batch_placed); unplaced or placed elsewhere it fails.
        return []
    manual = sorted(sm.axis_names.names)
    if sm.api.one_manual_axis:
        what = f"`jax.smap` over axis {backticked(manual)} makes only that axis manual"
        options: list = [Refusal(t, SMAP_REASON) for t in (Transform.RENAME, Transform.ADD_AXIS)]
    else:
        what = f"the shard_map's `axis_names` makes only {backticked(manual)} manual"
        options = list(site_fixes)
    message = (
        f"{what}, and the vmap's `spmd_axis_name` axis {backticked(missing)} is not among them; JAX raises "
        "`shard_map in_specs argument must refer to an axis marked as manual` (a `manual_axis_type` error under jit)"
    )
    span = sm.axis_names.written or sm.axis_names.display or sm.span
    return [finding(NOT_MANUAL, span, missing, message, options, related_places(vmap, reached))]


def eager_explicit_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD008: `check_vma=False` on a shard_map reached eagerly by an spmd vmap whose batch is placed on the
    Explicit spmd axis (or by a plain vmap over a batch placed on Explicit axes, for `rules.explicit_axis`).

    Measured on jax 0.10.2 (safety/measurements/explicit_check_vma_false_eager.py): with the batch placed on
    the spmd axis of an Explicit mesh and `check_vma=False`, an eager call raises `shard_map out_specs
    argument must refer to an axis marked as manual` whatever the specs and the body; under `jax.jit` (around
    the vmap, anywhere between it and the shard_map, or around the shard_map itself: `jax.jit(shard_map(...))`,
    `ReachedFacts.jit_wrapped`) it runs and matches, and so does `check_vma=True`.
    A `jax.lax.map` (any `batch_size`), `lax.scan`, `fori_loop` or `while_loop` between them stages the
    shard_map as a jit does and it runs too; `jax.checkpoint` and an inner `jax.vmap` do not
    (safety/measurements/explicit_check_vma_false_staged.py; fuzz seed 90054): `ReachedFacts.staged_eagerly`.
    So does a `lax.cond`/`lax.switch` on a constant predicate (`ReachedFacts.cond_staged`; measured:
    safety/measurements/spmd008_cond_unbatched_predicate.py); on a batched one it fails as the direct call does.
    """
    sm = reached.shard_map
    calls = vmap.calls
    if vmap.kind is VmapKind.EXPLICIT:
        # a plain vmap over a batch placed on Explicit axes (analysis.placement): measured to fail the same way
        placed = (
            sm.mesh is not None and sm.mesh.axis_types is AxisType.EXPLICIT and calls is not None
            and bool(vmap.spmd.names)  # (no axes: only the dimension after the batch is placed)
        )
    else:
        placed = batch_on_explicit_axes(vmap, sm.mesh)
    # (`jax.jit(shard_map(...))` is the measurement's "jit around the shard_map": it runs; fuzz seed 130059)
    staged = reached.staged_eagerly or reached.cond_staged or reached.jit_wrapped
    if sm.check_vma is not False or staged or not placed:
        return []
    eager = [c for c in calls.calls if not c.under_jit]
    if not eager:
        return []
    lines = ", ".join(str(c.line) for c in eager)
    message = (
        f"`check_vma=False` on a shard_map reached by a vmap whose batch is placed on Explicit mesh axis "
        f"{backticked(vmap.spmd.names)}{'' if vmap.kind is VmapKind.EXPLICIT else ' (its `spmd_axis_name`)'}: called "
        f"eagerly (line {lines}), JAX does not "
        "make that axis manual and raises `shard_map out_specs argument must refer to an axis marked as manual`; "
        "calling it under `jax.jit`, or leaving `check_vma` on, runs"
    )
    span = sm.check_span or sm.span
    return [finding(NOT_MANUAL, span, list(vmap.spmd.names), message, [], related_places(vmap, reached))]


# From tests/test_analysis.py (which keeps them too), each named by its key or test there.
VALID = (
    Valid(
        "SPMD008",  # test_a_partial_manual_shard_map_without_the_spmd_axis_is_spmd008_..., axis_names with 'y'
        """
        def f(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x', 'y'})(v)
        jax.vmap(f, spmd_axis_name='y')
        """,
    ),
)

INVALID = (
    Invalid(
        "SPMD008",  # test_a_partial_manual_shard_map_without_the_spmd_axis_is_spmd008_and_add_axis_extends_axis_names
        """
        def f(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(v)
        jax.vmap(f, spmd_axis_name='y')
        """,
        at="{'x'}",
    ),
    Invalid(
        "SPMD008",  # a free third mesh axis: rename to it, appended to axis_names, is offered
        """
        m3 = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))
        def f(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=m3, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(v)
        jax.vmap(f, spmd_axis_name='y')
        """,
        at="{'x'}",
    ),
    Invalid(
        "SPMD008",  # smap_partial_decorator_other_axis_is_spmd008
        """
        @partial(jax.smap, in_axes=0, out_axes=0, axis_name='x')
        def g(b):
            return b
        jax.vmap(g, spmd_axis_name=('x', 'y'))
        """,
        at="'x'",
    ),
    Invalid(
        "SPMD008",  # smap_in_axes_omitted_is_not_read
        """
        def f(v):
            return jax.smap(lambda b: b, out_axes=1, axis_name='y')(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        at="'y'",
    ),
)
