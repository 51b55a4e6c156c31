"""SPMD001 / SPMD002: a spec entry of a reached shard_map names an axis of the vmap's `spmd_axis_name`.

`vmap(f, spmd_axis_name='x')` maps the batch dimension onto mesh axis `'x'`, so a shard_map that `f` reaches
cannot also split over `'x'`: JAX raises for any such entry, batched argument or not (docs/jax-behaviour.md,
"When JAX raises"). Also the entries of a shard_map nested in a reached body, and the `in_axes`/`out_axes`
entries of a `jax.smap` (its specs). Docs: `spmdfix/rules/docs/SPMD001.md`, `SPMD002.md`; docs/rules.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.hazards import nested_names_placed_axes, nested_on_staged_context, placed_spmd_axis_out_of_context
from spmdfix.analysis.kinds import AxisType
from spmdfix.fixes import strip_spec_entries
from spmdfix.fixes.edits import backticked
from spmdfix.model import Finding, Refusal, Related, Transform
from spmdfix.rules.codes import IN_SPECS, OUT_SPECS
from spmdfix.rules.inner_vmap import h2_note
from spmdfix.rules.rule import Invalid, Site, Valid, finding, related_places

if TYPE_CHECKING:
    from spmdfix.analysis.facts import NestedShardMap, ReachedFacts, VmapFacts

RULES = (IN_SPECS, OUT_SPECS)

# Measured on jax 0.10.2 (docs/safety.md, "drop-spmd-axis"): an outer shard_map whose body applies another
# shard_map, under any vmap with spmd_axis_name.
NESTED_MEASURED = (
    "measured, no rename, add-axis or strip runs then (`DuplicateSpecError` eager, a verifier error under "
    "jit); only removing `spmd_axis_name` does"
)
NESTED_REFUSED = (Transform.RENAME, Transform.ADD_AXIS, Transform.STRIP)
# A `jax.smap` site (api "smap") makes only its own axis manual. Measured on jax 0.10.2 under a vmap over
# that axis: renaming the spmd axis to another mesh axis and adding a size-1 'batch' axis both fail
# (`manual_axis_type ... should be of type Manual` under jit, `must refer to an axis marked as manual` eager);
# only removing spmd_axis_name runs (safety/measure_drop.py).
SMAP_REASON = (
    "`jax.smap` makes only its own axis manual: measured, renaming the spmd axis or adding a size-1 axis fails "
    "(`manual_axis_type` error); only removing `spmd_axis_name` runs"
)


def check(site: Site, reached: ReachedFacts) -> list[Finding]:
    """The SPMD001/002 findings of one reached shard_map: its own spec entries (or an smap's in_axes/out_axes
    entries) and those of the shard_maps its body applies."""
    return _spec_findings(site.vmap, reached, site.fixes, site.h2) + _nested_findings(site.vmap, reached)


def nested_reason(reached: ReachedFacts) -> str:
    """Why rename, add-axis and strip are refused for a reached shard_map with a nested one."""
    return "the shard_map's body applies another shard_map: " + NESTED_MEASURED


def _spec_findings(vmap: VmapFacts, reached: ReachedFacts, site_fixes, h2: bool) -> list[Finding]:
    """SPMD001 / SPMD002: a spec entry of a reached shard_map names an spmd axis."""
    spmd = set(vmap.spmd.names)
    sm = reached.shard_map
    strip = None
    findings = []
    for where, tree in (("in_specs", sm.in_specs), ("out_specs", sm.out_specs)):
        for entry, axes in tree.entries_naming(spmd):
            strip = strip or strip_spec_entries.plan(vmap, reached)
            rule = IN_SPECS if where == "in_specs" else OUT_SPECS
            out_only = not set(axes) & sm.in_specs.axes()
            message = _message(axes, where, sm.check_vma, h2, out_only, vmap.shmap_error_disabled, _mesh_types(sm))
            if not sm.api.written_specs:
                message = _smap_message(axes, where, h2, out_only)
            findings.append(finding(rule, entry.span, axes, message, [*site_fixes, strip], related_places(vmap, reached)))
    return findings


def _nested_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
    """SPMD001 / SPMD002 for spec entries of a shard_map nested in a reached body that name an spmd axis.

    Measured on jax 0.10.2: an outer shard_map over 'x' (axis_names={'x'}) whose body applies a shard_map
    over 'y', under spmd_axis_name='y', fails: `shard_map in_specs argument must refer to an axis marked as
    manual` eager, a `manual_axis_type ... should be of type Manual` error under jit. With the batch placed on
    the Explicit spmd axis (`hazards.placed_spmd_axis_out_of_context`) the outer shard_map runs and the nested
    one raises what `_nested_error` says; where its `axis_names` names the axis under a jit or a staging loop,
    JAX raises SPMD008's `axis_names ... subset` error instead (`rules.not_manual.nested_axis_names_findings`),
    and the entries are no finding of this rule (safety/measurements/nested_shard_map_placed_batch.py; fuzz
    seed 90384). Under a plain vmap over the placed batch the same entries are SPMD006's
    (`rules.explicit_axis`).
    """
    spmd = set(vmap.spmd.names)
    findings = []
    for inner in reached.shard_map.body.nested_shard_maps:
        if nested_names_placed_axes(vmap, reached, inner):
            continue
        related = (*related_places(vmap, reached), Related("nested shard_map applied here", inner.span))
        error = nested_error(vmap, reached, inner)
        for where, tree in (("in_specs", inner.in_specs), ("out_specs", inner.out_specs)):
            rule = IN_SPECS if where == "in_specs" else OUT_SPECS
            for entry, axes in tree.entries_naming(spmd):
                message = (
                    f"vmap `spmd_axis_name` axis {backticked(axes)} appears in `{where}` of a shard_map nested in "
                    f"the body of a shard_map the vmapped function reaches; JAX raises {error}"
                )
                refused = [Refusal(t, nested_reason(reached)) for t in NESTED_REFUSED]
                findings.append(finding(rule, entry.span, axes, message, refused, related))
    return findings


def nested_error(vmap: VmapFacts, reached: ReachedFacts, inner: NestedShardMap) -> str:
    """The error JAX raises for a nested shard_map whose in_specs name the spmd axis (measured on jax 0.10.2:
    safety/measurements/nested_shard_map_placed_batch.py). With the batch placed on the Explicit spmd axis that
    the enclosing shard_map leaves out of its `axis_names`, on the context mesh: `vmapped away explicit mesh axis
    cannot appear in shard_map in_specs` reached directly (any jit only around the vmap), `in_specs argument must
    refer to an axis marked as manual` under a jit or a staging loop on the way. Otherwise the enclosing
    shard_map's own manual-axis error. A plain vmap over a batch placed on the Explicit axis it names
    (`VmapKind.EXPLICIT`, whose `spmd` holds the placed axes) raises the same (rules.explicit_axis)."""
    default = (
        "`shard_map in_specs argument must refer to an axis marked as manual` (a `manual_axis_type` error under jit)"
    )
    if not (inner.on_context_mesh and inner.in_specs.axes() & set(vmap.spmd.names)):
        return default
    if not placed_spmd_axis_out_of_context(vmap, reached):
        return default
    if nested_on_staged_context(vmap, reached, inner):
        return "`shard_map in_specs argument must refer to an axis marked as manual`"
    return (
        "`vmapped away explicit mesh axis cannot appear in shard_map in_specs` (the batch is placed on that "
        "Explicit axis, which the enclosing shard_map leaves out of its `axis_names`)"
    )


def _mesh_types(sm) -> str | None:
    """Why the shard_map's mesh may have Explicit axes, in words for the message (`_message`), or None when its
    axes are known to be Auto."""
    mesh = sm.mesh
    if mesh is not None and mesh.axis_types is AxisType.AUTO:
        return None
    if mesh is not None and mesh.axis_types is AxisType.EXPLICIT:
        return "this mesh's axes are Explicit"
    if mesh is not None and mesh.axis_types is AxisType.MIXED:
        return "this mesh has Explicit axes"
    return "this mesh's axis types are not known"


def _message(
    axes: list[str], where: str, check_vma: bool | None, h2: bool, out_only: bool, check_disabled: bool = False,
    explicit: str | None = None,
) -> str:
    """The message of an SPMD001/002 finding at a spec entry naming `axes`. `explicit`: why the mesh may have
    Explicit axes (`_mesh_types`), where JAX raises the collision's error only once the inputs are placed as the
    in_specs say: an input placed otherwise is refused first (measured on JAX 0.10.2, eager and under jit:
    safety/trials/newuser7/measure_explicit_collision.py; the message said the placed program's error alone)."""
    message = (
        f"vmap `spmd_axis_name` axis {backticked(axes)} appears in `{where}` of a shard_map the vmapped "
        f"function reaches; JAX raises `vmap spmd_axis_name cannot appear in shard_map {where}`"
    )
    if explicit is not None:
        message += (
            f" once the inputs are placed as the in_specs say ({explicit}: an input placed otherwise, unplaced "
            "say, is refused first with `in_specs passed to shard_map ... does not match the specs of the input`, "
            "a batch placed on the spmd axis with `shard_map in_specs (or out_specs) argument must refer to an "
            "axis marked as manual`)"
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
    return message + h2_note(h2)


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
    return message + h2_note(h2)


# Taken from tests/test_analysis.py's CASES (which keeps them too), each named by its key there.
VALID = (
    Valid(
        "SPMD001",  # axis_in_strings_and_comments_only
        """
        def f(v):
            '''P('x') in a docstring'''
            # jax.vmap(f, spmd_axis_name='x')
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
    ),
    Valid(
        "SPMD002",  # sibling_shard_map_is_not_reached
        """
        def f(v):
            return v * 2
        sm = jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
        y = jax.vmap(f, spmd_axis_name='x')(1)
        z = sm(y)
        """,
    ),
    Valid(
        "SPMD001",  # spec_built_at_run_time_stays_silent
        """
        def f(v, names):
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P(*names), out_specs=P())(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
    ),
    Valid(
        "SPMD001",  # smap_unmapped_axes_is_clean
        """
        def f(v):
            return jax.smap(lambda b: b, in_axes=None, out_axes=None, axis_name='x')(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
    ),
)

INVALID = (
    Invalid(
        "SPMD001",  # partial_of_a_helper_is_followed
        """
        def helper(v, k):
            return jax.shard_map(lambda u: u * k, mesh=mesh, in_specs=P('x'), out_specs=P())(v)
        jax.vmap(partial(helper, k=2), spmd_axis_name='x')
        """,
        at="'x'",
    ),
    Invalid(
        "SPMD001",  # module_level_jit_of_shard_map
        """
        step = jax.jit(jax.shard_map(lambda t: t, mesh=mesh, in_specs=P(('x', 'y')), out_specs=P()))
        def f(v):
            return step(v)
        jax.vmap(f, spmd_axis_name=('y',))
        """,
        at="('x', 'y')",
    ),
    Invalid(
        "SPMD002",  # nnx_vmap
        """
        from flax import nnx
        def f(v):
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('y'), out_specs=P('x'), check_vma=False)(v)
        nnx.vmap(f, spmd_axis_name='x')
        """,
        at="'x'",
    ),
    Invalid(
        "SPMD001",  # smap_call_in_and_out_axes: an smap's specs are its in_axes/out_axes
        """
        def f(v):
            return jax.smap(lambda b: b, in_axes=0, out_axes=0, axis_name='x')(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        at="0",
    ),
    Invalid(
        "SPMD002",  # smap_factory_tuple_in_axes_and_imported_name
        """
        from jax import smap
        IN = (None, 1)
        def f(v, w):
            return smap(in_axes=IN, out_axes={'a': None, 'b': 0}, axis_name='x')(lambda b, c: b)(v, w)
        jax.vmap(f, spmd_axis_name='x')
        """,
        at="0",
    ),
)
