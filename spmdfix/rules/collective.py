"""SPMD004 (hazard H1): a collective or axis query over an spmd axis in a reached shard_map body.

With `check_vma=True` JAX raises a `pvary` error; with `check_vma=False` the program runs and mixes batch
elements from different shards (wrong values). Only operands the vmap batches count, and over a size-1 axis
under `check_vma=False` there is nothing to mix (both measured). Strip is never offered: the body still
reduces over the axis. Docs: `spmdfix/rules/docs/SPMD004.md`; docs/rules.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.fixes.edits import backticked
from spmdfix.model import Finding, Refusal, Span, Transform
from spmdfix.rules.codes import COLLECTIVE
from spmdfix.rules.inner_vmap import SUM_OVER_AXES_ERROR, h2_note, sums_over_several_axes
from spmdfix.rules.rule import Invalid, Site, Valid, finding, related_places

if TYPE_CHECKING:
    from spmdfix.analysis.facts import CollectiveUse, ReachedFacts, VmapFacts

RULES = (COLLECTIVE,)


def check(site: Site, reached: ReachedFacts) -> list[Finding]:
    """SPMD004: a collective or axis query over an spmd axis in the body (hazard H1), one finding per use."""
    vmap = site.vmap
    findings = []
    for use, axes in _reported(vmap, reached):
        message = (
            f"`{use.name}` over the vmap's `spmd_axis_name` axis {backticked(axes)} inside a shard_map body; "
            f"with `check_vma=True` JAX raises {_raised(use)}, with `check_vma=False` the program runs and "
            "mixes batch elements from different shards (wrong values)"
        ) + h2_note(site.h2)
        refusal = Refusal(Transform.STRIP, "strip is never offered for a collective over the spmd axis")
        options = [*site.fixes, refusal]
        findings.append(finding(COLLECTIVE, use.axes.span, axes, message, options, related_places(vmap, reached)))
    return findings


def _raised(use: CollectiveUse) -> str:
    """What JAX raises under check_vma=True for this collective over the spmd axis (measured)."""
    return f"a `pvary` error or {SUM_OVER_AXES_ERROR}" if sums_over_several_axes(use) else "a `pvary` error"


def left_behind(site: Site, reached: ReachedFacts, found: list[Finding]) -> dict[Span, str]:
    """For the findings `check` gave at this shard_map (`found`), what the program does once the site's other
    findings are fixed and the collective is not (`plan.judgments.judged_together` reads it), by finding span:
    under check_vma=False it runs with wrong values; under check_vma=True it still raises, so nothing."""
    if reached.shard_map.check_vma is True:
        return {}
    return {
        f.span: f"`{use.name}` over the spmd axis (line {use.line}) running with wrong values under check_vma=False"
        for f, (use, _) in zip(found, _reported(site.vmap, reached))
    }


def _reported(vmap: VmapFacts, reached: ReachedFacts) -> list[tuple[CollectiveUse, list[str]]]:
    """The collectives of the body over spmd axes that JAX fails on (or runs wrongly), each with those axes."""
    spmd = set(vmap.spmd.names)
    reported = []
    for use in reached.shard_map.body.collectives:
        axes = [a.name for a in use.axes.axes if a.name in spmd]
        if not axes or use.call in reached.unbatched_collectives:
            continue  # an operand the vmap does not batch: runs correctly (measured)
        mesh = reached.shard_map.mesh
        if reached.shard_map.check_vma is False and mesh is not None and all(mesh.size_of(a) == 1 for a in axes):
            continue  # over a size-1 axis there is nothing to mix: runs correctly with check_vma=False (measured)
        reported.append((use, axes))
    return reported


# Taken from tests/test_analysis.py's CASES (which keeps them too), each named by its key there.
VALID = (
    Valid(
        "SPMD004",  # collective_over_an_unbatched_operand_is_not_spmd004
        """
        def f(x, w):
            return jax.shard_map(
                lambda a, b: a + jax.lax.psum(b, 'x'), mesh=mesh, in_specs=(P(), P()), out_specs=P()
            )(x, w)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
    ),
    Valid(
        "SPMD004",  # collective_over_an_unbatched_operand_of_a_decorated_body_is_not_spmd004
        """
        def f(x, w):
            @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P())
            def body(a, b):
                return a + jax.lax.psum(b, 'x')
            return body(x, w) + body(x, w * 2.0)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
    ),
    Valid(
        "SPMD004",  # an operand only an inner vmap maps, check_vma=False: runs and matches (measured)
        """
        def block(x, w):
            return jax.shard_map(
                lambda a, b: a * jax.lax.psum(b, 'x'), mesh=mesh, in_specs=(P('y'), P()), out_specs=P('y'), check_vma=False
            )(x, w)
        def apply(x, w):
            return jax.vmap(block, in_axes=(0, 0))(x, w)
        jax.vmap(apply, in_axes=(0, None), spmd_axis_name='x')
        """,
    ),
)

INVALID = (
    Invalid(
        "SPMD004",  # collective_over_spmd_axis
        """
        def f(v):
            return jax.shard_map(lambda u: jax.lax.psum(u, 'x'), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        at="'x'",
    ),
    Invalid(
        "SPMD004",  # collective_over_a_batched_operand_of_a_jitted_shard_map_is_spmd004
        """
        def f(x, w):
            return jax.jit(jax.shard_map(
                lambda a, b: b + jax.lax.psum(a, 'x'), mesh=mesh, in_specs=(P(), P()), out_specs=P()
            ))(x, w)
        jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')
        """,
        at="'x'",
    ),
    Invalid(
        "SPMD004",  # collective_over_a_size1_axis_with_check_vma_is_spmd004
        """
        m1 = Mesh(np.array(jax.devices()).reshape(1, 8), ('b', 'i'))
        def f(x):
            return jax.shard_map(lambda v: v + jax.lax.psum(v, 'b'), mesh=m1, in_specs=P('i'), out_specs=P('i'))(x)
        jax.vmap(f, spmd_axis_name='b')
        """,
        at="'b'",
    ),
    Invalid(
        "SPMD004",  # an operand only an inner vmap maps, check_vma=True (the default): the pvary error (measured)
        """
        def block(x, w):
            return jax.shard_map(
                lambda a, b: a * jax.lax.psum(b, 'x'), mesh=mesh, in_specs=(P('y'), P()), out_specs=P('y')
            )(x, w)
        def apply(x, w):
            return jax.vmap(block, in_axes=(0, 0))(x, w)
        jax.vmap(apply, in_axes=(0, None), spmd_axis_name='x')
        """,
        at="'x'",
    ),
)
