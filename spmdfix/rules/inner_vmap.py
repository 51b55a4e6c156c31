"""SPMD007 (hazard H2): a `jax.vmap` between the spmd vmap and a reached shard_map, or inside its body,
while `check_vma` is on; also a `jax.lax.map(g, xs, batch_size=k)` on the way (a vmap over chunks: JAX
raises `... was given out_specs which require replication`, measured on jax 0.10.2:
safety/measurements/lax_map_and_smap_infer.py), for the bodies an inner `jax.vmap` fails for: those applying a
binary primitive (safety/measurements/spmd007_lax_map_body_ops.py; a static slice and `b ** 2` run: fuzz seed
110652).

JAX raises a `pvary` error even without a spec collision, before and after every spec fix
(docs/jax-behaviour.md): this rule reports the inner vmap, and the collision rules add `h2_note` to their
messages. Where H2 holds is `analysis.hazards.h2_at`. Docs: `spmdfix/rules/docs/SPMD007.md`; docs/rules.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.hazards import h2_at
from spmdfix.fixes import disable_check_vma
from spmdfix.model import Finding
from spmdfix.rules.codes import INNER_VMAP
from spmdfix.rules.rule import Invalid, Site, Valid, finding, related_places

if TYPE_CHECKING:
    from spmdfix.analysis.facts import CollectiveUse, ReachedFacts, VmapFacts

RULES = (INNER_VMAP,)


# `psum` and `pmean` over several axes at once, the spmd axis among them, may fail under check_vma=True with this
# error instead of the `pvary` one (safety/measurements/spmd007_tuple_collective_axes.py: `psum(b, ('x', 'y'))`,
# `pmean(b, ('x', 'y'))`, `psum(b, AXES2)` under `P('y')`; under `P('z')` the `pvary` error; over `('x',)` alone,
# and `pmax(b, ('x', 'y'))`, the `pvary` error)
SUM_OVER_AXES_ERROR = (
    "`jax.lax.psum can only accept axis_name which corresponds to one of varying, unreduced, reduced or invarying "
    "state of the input`"
)
SUMS = frozenset({"psum", "pmean"})


def sums_over_several_axes(use: CollectiveUse) -> bool:
    """Whether `use` is a `psum`/`pmean` over more than one axis (`psum(b, ('x', 'y'))`)."""
    return use.name.rsplit(".", 1)[-1] in SUMS and len(use.axes.axes) > 1


def check(site: Site, reached: ReachedFacts) -> list[Finding]:
    """The SPMD007 findings of one reached shard_map: each inner `jax.vmap` on the way or in its body."""
    return _inner_vmap_findings(site.vmap, reached)


def h2_note(h2: bool) -> str:
    """What a collision finding adds to its message when hazard H2 holds at its vmap site ("" otherwise)."""
    if not h2:
        return ""
    return (
        "; note: a `jax.vmap` between the spmd vmap and this shard_map (or in its body) fails under "
        "`check_vma=True` before and after any spec fix (hazard H2)"
    )


def _inner_vmap_findings(vmap: VmapFacts, reached: ReachedFacts) -> list[Finding]:
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
    chunked = (
        "`jax.lax.map` with `batch_size` (a vmap over chunks) between a vmap with `spmd_axis_name` and the "
        "shard_map it reaches while `check_vma=True`, and the body applies a binary primitive (or a collective over "
        "the spmd axis): JAX raises `... was given out_specs which require replication which can't be statically "
        "inferred` (or a `pvary` error) even without a spec collision (hazard H2, whatever `batch_size`); "
        "`batch_size=None`, or `check_vma=False`, avoids it"
    )
    several = [u for u in sm.body.collectives if sums_over_several_axes(u)]
    if several:
        # (measured: safety/measurements/spmd007_tuple_collective_axes.py)
        message = message.replace(
            "JAX raises a `pvary` error",
            f"JAX raises a `pvary` error (or, for the `{several[0].name}` over several axes at once on line "
            f"{several[0].line}, {SUM_OVER_AXES_ERROR})",
        )
    options = [disable_check_vma.plan(reached)]
    batching = dict(sm.body.batching_calls)
    return [
        finding(
            INNER_VMAP, span, list(vmap.spmd.names),
            chunked if span in reached.batched_maps else _batching_message(batching[span]) if span in batching else message,
            options, related_places(vmap, reached),
        )
        for span in (*reached.vmaps, *sm.body.inner_vmaps)
    ]


def _batching_message(callee: str) -> str:
    """SPMD007's message for a call in the body that fails as an inner vmap does (`jaxapi.INNER_BATCHING_NAMES`)."""
    return (
        f"`{callee}` in the body of a shard_map a vmap with `spmd_axis_name` reaches, while `check_vma=True`: its "
        "batching (a vmap of its own, or a rule mixing invariant and varying values) makes JAX raise a `pvary` (or "
        "`requires varying manual axes to match`) error even without a spec collision (hazard H2, measured); a vmap "
        "without `spmd_axis_name`, or `check_vma=False`, avoids it"
    )


# Taken from tests/test_analysis.py's CASES (which keeps them too), each named by its key there.
VALID = (
    Valid(
        "SPMD007",  # inner_vmap_over_a_unary_body_is_not_spmd007
        """
        def f(x):
            return jax.shard_map(jax.vmap(lambda r: -jax.numpy.sin(r) ** 2), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """,
    ),
    Valid(
        "SPMD007",  # inner_vmap_over_cumulative_ops_is_not_spmd007 (measured to run under H2)
        """
        def body(b):
            return jax.vmap(lambda r: jax.lax.cummax(jax.numpy.cumsum(r, axis=-1), axis=0, reverse=True))(b)
        def f(x):
            return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        jax.vmap(f, spmd_axis_name='y')
        """,
    ),
    Valid(
        "SPMD007",  # binary_steps_beside_an_inner_vmap_of_a_unary_lambda_are_no_h2
        """
        def f(x):
            n = x.shape[0]
            def body(b):
                return jax.vmap(lambda r: jax.numpy.sin(r))(b * 2.0) * b + n
            return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        jax.vmap(f, spmd_axis_name='y')
        """,
    ),
    Valid(
        "SPMD007",  # lax_map_batch_size_over_a_static_slice_is_not_spmd007 (fuzz seed 110652, measured to run)
        """
        def block(x):
            n = x.shape[-1]
            def body(b):
                b = jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)
                return b[0:n] ** 2
            return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)
        jax.vmap(lambda v: jax.lax.map(block, v, batch_size=2), spmd_axis_name='x')
        """,
    ),
)

INVALID = (
    Invalid(
        "SPMD007",  # inner_vmap_over_pmean_or_a_psum_then_binary_is_spmd007 (pmean divides: measured to raise)
        """
        def block(v):
            return jax.shard_map(lambda b: jax.lax.pmean(b, 'y'), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(jax.vmap(block), spmd_axis_name='x')
        """,
        at="jax.vmap",
    ),
    Invalid(
        "SPMD007",  # inner_vmap_under_check_vma
        """
        def block(v):
            return jax.shard_map(lambda u: u * 2, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        def row(r):
            return jax.vmap(block)(r)
        jax.vmap(row, spmd_axis_name='x')
        """,
        at="jax.vmap",
    ),
    Invalid(
        "SPMD007",  # body_applying_an_inner_vmap_of_a_binary_lambda_is_spmd007
        """
        def body(b):
            return jax.vmap(lambda r: r * 2.0)(b)
        def f(x):
            return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
        jax.vmap(f, spmd_axis_name='y')
        """,
        at="jax.vmap",
    ),
    Invalid(
        "SPMD007",  # inner_vmap_over_nancumsum_is_spmd007 (measured to raise the pvary error)
        """
        def f(x):
            return jax.shard_map(jax.vmap(lambda r: jax.numpy.nancumsum(r, axis=-1)), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
        jax.vmap(f, spmd_axis_name='x')
        """,
        at="jax.vmap",
    ),
    Invalid(
        "SPMD007",  # lax_map_batch_size_over_a_static_slice_then_binary_is_spmd007 (measured to raise)
        """
        def block(x):
            n = x.shape[-1]
            def body(b):
                b = jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)
                return b * 2.0 + 1.0
            return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)
        jax.vmap(lambda v: jax.lax.map(block, v, batch_size=2), spmd_axis_name='x')
        """,
        at="jax.lax.map",
    ),
)
