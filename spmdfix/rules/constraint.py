"""SPMD005: a sharding constraint inside the vmapped function names an spmd axis.

A `with_sharding_constraint` spec: JAX raises `vmap spmd_axis_name ... cannot appear in with_sharding_constraint
spec`. The `in_shardings`/`out_shardings` of a `jax.jit` applied inside the vmapped function are the same kind
of constraint, at the jit's boundary (JAX prepends the spmd axis to them): JAX raises `DuplicateSpecError`
(`P('x', 'x')`), eager and under jit, any check_vma (measured on jax 0.10.2:
safety/measurements/jit_shardings_spmd_axis.py). One code for both: the same mistake (a placement inside the
vmap naming the axis the vmap already places the batch on) with the same fixes. `jax.device_put(v,
NamedSharding(mesh, P('x')))` inside the vmap runs and matches on an Auto mesh (same script): not reported.
A `jax.sharding.reshard(v, P('x'))` of a batched value inside the vmapped function, while a call places the batch
on Explicit `'x'`, raises the same `DuplicateSpecError` (JAX prepends the batch's axis to the reshard's spec),
eager and under jit, at any dimension, bare or in a `NamedSharding` (safety/measurements/reshard_inside_vmap.py):
a third form (`reshard_findings`; a plain vmap's is SPMD006, `rules.explicit_axis.reshard_findings`). The same
error comes from the placement, not from `spmd_axis_name`: an unplaced batch runs, and a plain vmap over the
placed batch fails alike, so only the strip of the reshard's entry is offered.
A site-level rule: the constraints are the vmap site's (`VmapFacts.constraints`, `VmapFacts.jit_shardings`),
not a reached shard_map's, so `check` takes the site alone. Docs: `spmdfix/rules/docs/SPMD005.md`;
docs/rules.md.
"""

from __future__ import annotations

from spmdfix.fixes import strip_spec_entries
from spmdfix.fixes.edits import backticked
from spmdfix.model import Finding, Refusal, Related, Span, Transform
from spmdfix.rules.codes import CONSTRAINT
from spmdfix.rules.inner_vmap import h2_note
from spmdfix.rules.rule import Invalid, Site, Valid, finding

RULES = (CONSTRAINT,)


def check(site: Site) -> list[Finding]:
    """SPMD005: a with_sharding_constraint spec names an spmd axis (JAX raises)."""
    vmap = site.vmap
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
            ) + h2_note(site.h2)
            options = [*site.fixes, strip_spec_entries.plan_constraint(vmap, use)]
            findings.append(finding(CONSTRAINT, entry.span, axes, message, options, related))
    return findings + _jit_sharding_findings(site)


# Not measured: a jit's sharding stripped of the spmd axis. rename and add-axis move the spmd axis off it and
# run (safety/measurements/jit_shardings_spmd_axis.py); drop-spmd-axis runs too (Auto mesh).
_JIT_STRIP = Refusal(Transform.STRIP, "stripping a `jax.jit`'s shardings is not a measured transform")


def _jit_sharding_findings(site: Site) -> list[Finding]:
    """SPMD005: an entry of a jit's `in_shardings`/`out_shardings` inside the vmapped function names an spmd
    axis (JAX raises `DuplicateSpecError`; see the module docstring)."""
    vmap = site.vmap
    findings = []
    for jit in vmap.jit_shardings:
        related = (
            Related(f"`spmd_axis_name` {backticked(vmap.spmd.names)} given here", vmap.spmd.span),
            Related("jax.jit applied here", jit.call),
        )
        for entry, axes in jit.specs.entries_naming(set(vmap.spmd.names)):
            message = (
                f"vmap `spmd_axis_name` axis {backticked(axes)} appears in {jit.described} inside the vmapped "
                "function; JAX prepends the spmd axis to it and raises `DuplicateSpecError`"
            ) + h2_note(site.h2)
            findings.append(finding(CONSTRAINT, entry.span, axes, message, [*site.fixes, _JIT_STRIP], related))
    return findings


# The site's fixes and drop-spmd-axis were not measured to cure a reshard's DuplicateSpecError: it comes from the
# batch's placement on the Explicit axis, which a plain vmap over the placed batch meets too
# (safety/measurements/reshard_inside_vmap.py).
RESHARD_REFUSALS = (
    Refusal(Transform.RENAME, "not measured for a reshard: its error comes from the callers' placement of the "
            "batch on the axis, which a rename does not move"),
    Refusal(Transform.ADD_AXIS, "not measured for a reshard: its error comes from the callers' placement of the "
            "batch on the axis, which add-axis does not move"),
    Refusal(Transform.DROP_SPMD_AXIS, "a plain vmap over the batch placed on the Explicit axis raises the same "
            "`DuplicateSpecError` at the reshard (measured)"),
)
RESHARD_ERROR = "JAX prepends the batch's axis to the reshard's spec and raises `DuplicateSpecError`"


def placed_explicit(vmap) -> set[str]:
    """The Explicit mesh axes some followed call of the vmap places its batch dimension on
    (`facts.VmapCall.batch_explicit`)."""
    calls = vmap.calls.calls if vmap.calls is not None else ()
    return {a for c in calls for a in c.batch_explicit}


def placing_lines(vmap, axes: set[str]) -> str:
    """The lines of the calls of the vmap that place its batch on some of `axes`, for a message."""
    calls = vmap.calls.calls if vmap.calls is not None else ()
    return ", ".join(str(c.line) for c in calls if set(c.batch_explicit) & axes)


def reshard_findings(site: Site) -> list[Finding]:
    """SPMD005: an entry of a `jax.sharding.reshard` spec inside the vmapped function names an spmd axis on which
    a call places the batch, an Explicit mesh axis (JAX raises `DuplicateSpecError`; see the module docstring).
    The reshard's operand may be batched (`facts.ReshardUse`); its only fix is the strip of the entry."""
    vmap = site.vmap
    axes = set(vmap.spmd.names) & placed_explicit(vmap)
    if not axes:
        return []
    lines = placing_lines(vmap, axes)
    findings = []
    for use in vmap.reshards:
        related = (
            Related(f"`spmd_axis_name` {backticked(vmap.spmd.names)} given here", vmap.spmd.span),
            Related("jax.sharding.reshard called here", use.call),
        )
        fix = strip_spec_entries.plan_reshard(vmap, use, axes)
        for entry, named in use.specs.entries_naming(axes):
            message = (
                f"vmap `spmd_axis_name` axis {backticked(named)} appears in a `jax.sharding.reshard` spec inside the "
                f"vmapped function, and the call (line {lines}) places the batch on that Explicit mesh axis; "
                f"{RESHARD_ERROR}"
            ) + h2_note(site.h2)
            findings.append(finding(CONSTRAINT, entry.span, named, message, [fix, *RESHARD_REFUSALS], related))
    return findings


def left_behind(site: Site) -> dict[Span, str]:
    """What the program does once the site's other findings are fixed and a jit sharding naming the spmd axis
    is not (`plan.judgments.judged_together` reads it), by finding span: it still raises `DuplicateSpecError`
    (measured: safety/measurements/jit_shardings_spmd_axis.py, the strip stage)."""
    spmd = set(site.vmap.spmd.names)
    return {
        entry.span: f"{jit.described} names the spmd axis and JAX still raises `DuplicateSpecError`"
        for jit in site.vmap.jit_shardings
        for entry, _ in jit.specs.entries_naming(spmd)
    }


# INVALID from tests/test_analysis.py's CASES (which keeps them too), each named by its key there.
VALID = (
    Valid(
        "SPMD005",  # a reshard naming the spmd axis with the batch unplaced, and one of an unbatched value: both run
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(v, w):
            c = jax.sharding.reshard(w, NamedSharding(em, P('x')))
            return jax.sharding.reshard(v * 2.0, NamedSharding(em, P('x'))) + c.sum()
        def run(ws):
            return jax.vmap(f, in_axes=(0, None), spmd_axis_name='x')(jax.numpy.ones((8, 8)), ws)
        """,
    ),
    Valid(
        "SPMD005",  # a jit's shardings over another axis; device_put naming the spmd axis runs (Auto mesh)
        """
        from jax.sharding import NamedSharding
        def f(v):
            v = jax.device_put(v, NamedSharding(mesh, P('x')))
            return jax.jit(lambda u: u + 1.0, out_shardings=NamedSharding(mesh, P('y')))(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
    ),
    Valid(
        "SPMD005",  # a constraint over the other mesh axis only
        """
        from jax.sharding import NamedSharding
        def f(v):
            v = jax.lax.with_sharding_constraint(v, NamedSharding(mesh, P('y', None)))
            return v
        jax.vmap(f, spmd_axis_name='x')
        """,
    ),
)

INVALID = (
    Invalid(
        "SPMD005",  # a reshard naming the spmd axis while the call places the batch on it, Explicit (DuplicateSpecError)
        """
        from jax.sharding import NamedSharding
        em = jax.make_mesh((2, 4), ('x', 'y'))
        def f(v):
            return jax.sharding.reshard(v * 2.0, NamedSharding(em, P('x')))
        def run():
            xs = jax.device_put(jax.numpy.ones((8, 8)), NamedSharding(em, P('x', None)))
            return jax.vmap(f, spmd_axis_name='x')(xs)
        """,
        at="'x'",
    ),
    Invalid(
        "SPMD005",  # a jit's out_shardings naming the spmd axis (DuplicateSpecError)
        """
        from jax.sharding import NamedSharding
        def f(v):
            return jax.jit(lambda u: u + 1.0, out_shardings=NamedSharding(mesh, P('x')))(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        at="'x'",
    ),
    Invalid(
        "SPMD005",  # sharding_constraint
        """
        from jax.sharding import NamedSharding
        def f(v):
            v = jax.lax.with_sharding_constraint(v, NamedSharding(mesh, P('x', None)))
            return v
        jax.vmap(f, spmd_axis_name='x')
        """,
        at="'x'",
    ),
    Invalid(
        "SPMD005",  # sharding_constraint_with_a_shard_map
        """
        from jax.sharding import NamedSharding
        def f(v):
            v = jax.lax.with_sharding_constraint(v, NamedSharding(mesh, P('x', None)))
            return jax.shard_map(lambda u: u, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        jax.vmap(f, spmd_axis_name='x')
        """,
        at="'x'",
    ),
)
