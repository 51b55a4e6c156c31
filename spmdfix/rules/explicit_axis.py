"""SPMD006: a vmap maps away an Explicit mesh axis that a reached shard_map's specs name.

Two ways: a plain `jax.vmap` (no `spmd_axis_name`) over an input whose batch dimension is placed on the
Explicit axis (`analysis.placement`), or an inner `jax.vmap` on the way that maps away the dimension after the
batch, placed on an Explicit axis by the spmd vmap's call. JAX raises `shard_map in_specs argument must
refer to an axis marked as manual`. Where neither applies but the shard_map runs with `check_vma=False`
called eagerly, the same placement is SPMD008 (`rules.not_manual`). Also, site-level (`reshard_findings`): a
`jax.sharding.reshard` of a batched value inside the plain vmap's function whose spec names the placed axis
raises `DuplicateSpecError` (the spmd vmap's form is SPMD005). Docs: `spmdfix/rules/docs/SPMD006.md`;
docs/rules.md.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spmdfix.analysis.hazards import nested_names_placed_axes, placed_spmd_axis_out_of_context
from spmdfix.analysis.kinds import AxisType, VmapKind
from spmdfix.fixes import strip_spec_entries
from spmdfix.fixes.edits import backticked
from spmdfix.jaxapi import ShardMapApi
from spmdfix.model import Finding, Refusal, Related, Transform
from spmdfix.rules.codes import EXPLICIT_AXIS
from spmdfix.rules.constraint import RESHARD_ERROR, placed_explicit
from spmdfix.rules.not_manual import (
    NOT_MANUAL, eager_explicit_findings, nested_axis_names_findings, placed_axis_names_findings,
)
from spmdfix.rules.rule import Invalid, Site, Valid, finding, related_places
from spmdfix.rules.spec_collision import nested_error

if TYPE_CHECKING:
    from spmdfix.analysis.facts import ReachedFacts, VmapFacts

RULES = (EXPLICIT_AXIS,)


def check(site: Site, reached: ReachedFacts) -> list[Finding]:
    """The SPMD006 findings of one reached shard_map (and the SPMD008 ones of the same placement where
    `check_vma=False` is called eagerly): for a plain vmap, the spec entries naming the Explicit axes its
    batch is placed on; for a vmap with spmd_axis_name, what an inner vmap maps away."""
    if site.vmap.kind is VmapKind.EXPLICIT:
        if not site.vmap.spmd.names:  # the batch unplaced, the dimension after it placed (analysis.placement)
            return _inner_mapped_findings(site.vmap, reached, True)
        found = _plain_vmap_findings(site, reached)
        # An inner vmap may also map away the placed dimension after the batch (`P('x', 'y', None)`, the
        # inner vmap taking the `'y'` dimension: fuzz seed 50248): its entries, where not reported above.
        spans = {f.span for f in found}
        return found + [f for f in _inner_mapped_findings(site.vmap, reached, True) if f.span not in spans]
    eager_reported = bool(eager_explicit_findings(site.vmap, reached))
    return _inner_mapped_findings(site.vmap, reached, eager_reported)


# move-placement was not measured with a reshard inside the vmapped function (safety/measurements/
# reshard_inside_vmap.py measures the strip of the reshard's entry)
_RESHARD_MOVE = Refusal(Transform.MOVE_PLACEMENT, "not measured with a reshard inside the vmapped function")


def reshard_findings(site: Site) -> list[Finding]:
    """SPMD006: an entry of a `jax.sharding.reshard` spec inside a plain vmap's function names an Explicit axis
    its batch is placed on (the placement's axes, and those of every followed call). Measured on jax 0.10.2
    (safety/measurements/reshard_inside_vmap.py): JAX prepends the batch's axis to the spec and raises
    `DuplicateSpecError` (`P('x', 'x')`), eager and under jit, at any dimension, bare or in a `NamedSharding`;
    a batched operand only (`facts.ReshardUse`). The strip of the entry runs and matches (its only fix)."""
    vmap = site.vmap
    axes = set(vmap.spmd.names) | placed_explicit(vmap)
    if not axes or not vmap.reshards:
        return []
    findings = []
    for use in vmap.reshards:
        related = (
            Related(f"batch dimension placed on Explicit mesh axis {backticked(vmap.spmd.names)} here", vmap.spmd.span),
            Related("jax.sharding.reshard called here", use.call),
        )
        fix = strip_spec_entries.plan_reshard(vmap, use, axes)
        for entry, named in use.specs.entries_naming(axes):
            message = (
                f"a `jax.vmap` without `spmd_axis_name` maps away Explicit mesh axis {backticked(named)}, on which "
                "its input's batch dimension is placed, and a `jax.sharding.reshard` inside the vmapped function "
                f"names it; {RESHARD_ERROR}"
            )
            findings.append(finding(EXPLICIT_AXIS, entry.span, named, message, [fix, _RESHARD_MOVE], related))
    return findings


def _plain_vmap_findings(site: Site, reached: ReachedFacts) -> list[Finding]:
    """SPMD006: specs of a reached shard_map that name an Explicit axis a plain vmap maps away; when none
    does, SPMD008 for `check_vma=False` called eagerly (`rules.not_manual.eager_explicit_findings`)."""
    vmap = site.vmap
    axes_placed = set(vmap.spmd.names)
    findings = []
    sm = reached.shard_map
    if sm.api is ShardMapApi.SMAP:
        return []  # not measured under a plain vmap over a placed batch: no finding, no fix
    fix = strip_spec_entries.plan_explicit(vmap, reached)
    related = (
        Related(f"batch dimension placed on Explicit mesh axis {backticked(vmap.spmd.names)} here", vmap.spmd.span),
        *related_places(vmap, reached)[1:],
    )
    for tree in (sm.in_specs, sm.out_specs):
        for entry, axes in tree.entries_naming(axes_placed):
            message = (
                f"a `jax.vmap` without `spmd_axis_name` maps away Explicit mesh axis {backticked(axes)}, "
                "on which its input's batch dimension is placed, and a shard_map it reaches names it; "
                "JAX raises `shard_map in_specs argument must refer to an axis marked as manual`"
            )
            findings.append(finding(EXPLICIT_AXIS, entry.span, axes, message, [fix, *site.fixes], related))
    if not any(True for t in (sm.in_specs, sm.out_specs) for _ in t.entries_naming(axes_placed)):
        findings += eager_explicit_findings(vmap, reached)
        # SPMD008: `axis_names` naming the placed axis, with no spec naming it (measured with `P()`; fuzz seed
        # 40027); a spec naming it is SPMD006 above, whose move-placement cures both
        findings += [replace(f, related=related, refusals=()) for f in placed_axis_names_findings(vmap, reached)]
        # ... and the `axis_names` of a shard_map nested in its body on the context mesh (measured the same as
        # under an spmd vmap: hazards.nested_on_staged_context)
        findings += [replace(f, related=related, refusals=()) for f in nested_axis_names_findings(vmap, reached)]
        findings += _nested_spec_findings(vmap, reached, related)
    return findings


def _nested_spec_findings(vmap: VmapFacts, reached: ReachedFacts, related: tuple[Related, ...]) -> list[Finding]:
    """SPMD006: spec entries naming the placed Explicit axis of a shard_map nested, on the context mesh, in the
    body of a reached shard_map that leaves that axis out of its `axis_names` (`hazards.
    placed_spmd_axis_out_of_context`), under a plain vmap over the placed batch. Measured on jax 0.10.2
    (safety/measurements/nested_shard_map_placed_batch.py), with the nested in_specs naming the axis: reached
    directly, JAX raises `vmapped away explicit mesh axis cannot appear in shard_map in_specs`; under a jit or
    a staging loop, `in_specs argument must refer to an axis marked as manual`, unless the nested
    `axis_names` names the axis there (SPMD008's subset error: `rules.not_manual.nested_axis_names_findings`).
    An unplaced batch runs. No fix is measured."""
    placed = set(vmap.spmd.names)
    if not placed or not placed_spmd_axis_out_of_context(vmap, reached):
        return []
    findings = []
    for inner in reached.shard_map.body.nested_shard_maps:
        if not (inner.on_context_mesh and inner.in_specs.axes() & placed) or nested_names_placed_axes(
            vmap, reached, inner
        ):
            continue
        error = nested_error(vmap, reached, inner)
        for where, tree in (("in_specs", inner.in_specs), ("out_specs", inner.out_specs)):
            for entry, axes in tree.entries_naming(placed):
                message = (
                    f"a `jax.vmap` without `spmd_axis_name` maps away Explicit mesh axis {backticked(axes)}, on which "
                    f"its input's batch dimension is placed, and the `{where}` of a shard_map nested in the body of "
                    f"a shard_map it reaches name it; JAX raises {error}"
                )
                nested = Related("nested shard_map applied here", inner.span)
                findings.append(finding(EXPLICIT_AXIS, entry.span, axes, message, [], (*related, nested)))
    return findings


def _inner_mapped_findings(vmap: VmapFacts, reached: ReachedFacts, eager_reported: bool) -> list[Finding]:
    """SPMD006 / SPMD008: the first `jax.vmap` on the way maps away the per-example dimension that a call of
    the spmd vmap (or of a plain vmap whose batch is not placed) places on an Explicit mesh axis A
    (`jax.device_put(xs, NamedSharding(mesh, P(None, 'A')))`).

    Measured on jax 0.10.2 (safety/measurements/inner_vmap_explicit_placement.py; fuzz seeds 321, 407): A is
    then not manual in the shard_map, so a spec naming A, or an spmd axis A (which the vmap inserts into the
    specs), raises `shard_map in_specs argument must refer to an axis marked as manual` (eager; under jit the
    same, a `manual_axis_type` error or a DuplicateSpecError), whatever `check_vma`; with neither, a
    `check_vma=False` shard_map called eagerly raises `out_specs argument must refer to an axis marked as
    manual` (under jit it runs). No fix is offered: of the candidates measured (moving or dropping the
    placement, stripping A, dropping spmd_axis_name), none runs in every case. Under a plain outer vmap a spec
    naming A fails the same way, eager and under jit, any check_vma (safety/measurements/
    open_items_issue22_kind9.py, part D; fuzz seed 2889); its `check_vma=False` case with no entry naming A
    (`eager_reported` True there) was not measured.
    """
    sm = reached.shard_map
    calls = vmap.calls
    if not reached.inner_mapped or calls is None or sm.mesh is None or sm.mesh.axis_types is not AxisType.EXPLICIT:
        return []
    placing = [
        (c, names) for c in calls.calls for i in reached.inner_mapped
        if i < len(c.next_dim) and (names := c.next_dim[i])
    ]
    if not placing:
        return []
    axes = sorted({a for _, names in placing for a in names})
    lines = ", ".join(sorted({str(c.line) for c, _ in placing}))
    places = related_places(vmap, reached)
    if vmap.kind is VmapKind.EXPLICIT:
        places = (Related("the outer `jax.vmap` (without `spmd_axis_name`)", vmap.span), *places[1:])
    related = (
        Related(f"input placed on Explicit mesh axis {backticked(axes)} at the dimension after the batch by "
                f"the call here", placing[0][0].span),
        Related("this `jax.vmap` maps that dimension away", reached.inner_vmap),
        *places,
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
            findings.append(finding(EXPLICIT_AXIS, entry.span, named, message, [], related))
    spmd = [a for a in vmap.spmd.names if a in axes]
    if spmd and not findings:
        message = f"{what}, and the vmap inserts its `spmd_axis_name` {backticked(spmd)} into the shard_map's specs; {error}"
        findings.append(finding(EXPLICIT_AXIS, sm.span, spmd, message, [], related))
    eager = [c for c, _ in placing if not c.under_jit]
    if not findings and not eager_reported and sm.check_vma is False and not reached.staged_eagerly and eager:
        message = (
            f"`check_vma=False` on a shard_map reached eagerly (line {', '.join(str(c.line) for c in eager)}) "
            f"through an inner `jax.vmap` that maps away Explicit mesh axis {backticked(axes)}, on which the call "
            "places the dimension it maps: JAX does not make the axes manual and raises `shard_map out_specs "
            "argument must refer to an axis marked as manual`; the same call under `jax.jit` runs"
        )
        findings.append(finding(NOT_MANUAL, sm.check_span or sm.span, axes, message, [], related))
    return findings


# From tests/test_analysis.py's CASES (which keeps them too), each named by its key there; the plain-vmap
# cases are this module's own.
VALID = (
    Valid(
        "SPMD006",  # a reshard over the other axis, and one of a value the function makes: both run
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(v):
            c = jax.sharding.reshard(jax.numpy.arange(8.0), NamedSharding(em, P('x')))
            return jax.sharding.reshard(v * 2.0, NamedSharding(em, P('y'))) + c.sum()
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P('x', None)))
            return jax.vmap(f)(xs)
        """,
    ),
    Valid(
        "SPMD006",  # inner_vmap_not_mapping_the_placed_argument_is_not_spmd006
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def g(r, k):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P(), out_specs=P())(r)
        def f(x, k):
            return jax.vmap(g, in_axes=(None, 0))(x, k)
        def run(ks):
            xs = jax.device_put(jax.numpy.ones((8, 8, 8)), NamedSharding(em, P(None, 'x', None)))
            return jax.vmap(f, spmd_axis_name='x')(xs, ks)
        """,
    ),
    Valid(
        "SPMD006",  # inner_vmap_over_a_placed_axis_on_an_auto_mesh_is_not_spmd006
        """
        from jax.sharding import NamedSharding
        def g(r):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=mesh, in_specs=P(), out_specs=P())(r)
        def f(x):
            return jax.vmap(g)(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8, 8)), NamedSharding(mesh, P(None, 'x', None)))
            return jax.vmap(f, spmd_axis_name='x')(xs)
        """,
    ),
    Valid(
        "SPMD006",  # a plain vmap over a batch placed on an Explicit axis the shard_map does not name
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(x):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P('y'), out_specs=P('y'))(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P('x', None)))
            return jax.vmap(f)(xs)
        """,
    ),
)

INVALID = (
    Invalid(
        "SPMD006",  # a reshard in a helper naming the placed Explicit axis in a tuple entry (DuplicateSpecError)
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def settle(u):
            return jax.sharding.reshard(u, NamedSharding(em, P(('y', 'x'))))
        def f(v):
            return settle(v * 2.0)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P('x', None)))
            return jax.vmap(f)(xs)
        """,
        at="('y', 'x')",
    ),
    Invalid(
        "SPMD006",  # inner_vmap_maps_away_a_placed_axis_the_specs_name_is_spmd006
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def g(r):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P('x'), out_specs=P('x'))(r)
        def f(x, w):
            return jax.vmap(g, in_axes=(0,))(x) * w
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8, 8)), NamedSharding(em, P(None, 'x', None)))
            return jax.vmap(f, in_axes=(0, None), spmd_axis_name='y')(xs, 2.0)
        """,
        at="'x'",
    ),
    Invalid(
        "SPMD006",  # inner_vmap_maps_away_a_placed_spmd_axis_is_spmd006
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def g(r):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P(), out_specs=P())(r)
        def f(x):
            return jax.vmap(g)(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8, 8)), NamedSharding(em, P(None, 'x', None)))
            return jax.vmap(f, spmd_axis_name='x')(xs)
        """,
        at="jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P(), out_specs=P())",
    ),
    Invalid(
        "SPMD006",  # a plain vmap over a batch placed on Explicit axis 'x', which the shard_map names
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(x):
            return jax.shard_map(lambda b: jax.numpy.sin(b), mesh=em, in_specs=P('x'), out_specs=P('x'))(x)
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P('x', None)))
            return jax.vmap(f)(xs)
        """,
        at="'x'",
    ),
)
