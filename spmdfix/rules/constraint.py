"""SPMD005: a `with_sharding_constraint` spec inside the vmapped function names an spmd axis.

JAX raises `vmap spmd_axis_name ... cannot appear in with_sharding_constraint spec`. A site-level rule: the
constraints are the vmap site's (`VmapFacts.constraints`), not a reached shard_map's, so `check` takes the
site alone. Docs: `spmdfix/rules/docs/SPMD005.md`; docs/rules.md.
"""

from __future__ import annotations

from spmdfix.fixes import strip_spec_entries
from spmdfix.fixes.edits import backticked
from spmdfix.model import Finding, Related, Transform
from spmdfix.rules.inner_vmap import h2_note
from spmdfix.rules.rule import Invalid, Rule, Site, Valid, finding

# rename and add-axis of the vmap site, strip of the constraint's entry, and removing spmd_axis_name
FIXES = frozenset({Transform.RENAME, Transform.ADD_AXIS, Transform.STRIP, Transform.DROP_SPMD_AXIS})
CONSTRAINT = Rule(
    "SPMD005",
    "spmd-axis-in-sharding-constraint",
    "with_sharding_constraint inside the vmapped function names the spmd axis",
    FIXES,
)
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
    return findings


# INVALID from tests/test_analysis.py's CASES (which keeps them too), each named by its key there.
VALID = (
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
