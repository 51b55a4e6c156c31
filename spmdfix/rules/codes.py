"""The rule table: every code spmdfix reports, with its kebab-case name, one-line summary and the transforms
its findings may offer (ruff keeps such a registry of codes beside its rules' logic).

The rule families (`spec_collision`, `capture`, ... under `spmdfix.rules`) hold each code's logic, messages
and cases and take their `Rule`s from here. This module imports nothing but the model's `Transform`: what
reads only the table (settings and their selectors, the report's names and links, a warm run whose results
the cache serves, `spmdfix rule`) does not load the families and what they import (the hazards, the fix
transforms, the JAX API table: a fortieth of a warm `check`'s instructions, bench/README.md).
Codes are stable: new rules get new codes, existing ones are never renumbered.
"""

from __future__ import annotations

from dataclasses import field

from spmdfix.model import Transform
from spmdfix.perf import frozen


@frozen(slots=True)
class Rule:
    """A rule: stable code, kebab-case name, one-line summary, and the transforms its findings may offer.

    `fixes` is the rule's fix availability (ruff's `FIX_AVAILABILITY`): every `Fix` a finding of this code
    carries is of one of these transforms, and each of them is offered somewhere in the golden or inline
    cases (tests/test_registry.py checks both). Refusals do not count: a refused transform is not offered.
    """

    code: str
    name: str
    summary: str
    fixes: frozenset[Transform] = field(default=frozenset())

    @property
    def url(self) -> str:
        """A URI of the rule's documentation as installed with the package."""
        from importlib import resources  # 10 ms of imports: only when a URL or a doc is asked for

        return resources.files("spmdfix").joinpath("rules", "docs", f"{self.code}.md").as_uri()  # type: ignore[attr-defined]

    def doc(self) -> str:
        """The rule's documentation text (Markdown)."""
        from importlib import resources

        return resources.files("spmdfix").joinpath("rules", "docs", f"{self.code}.md").read_text(encoding="utf-8")


# `spec_collision`: rename and add-axis of the vmap site, strip of the shard_map, and removing spmd_axis_name
# (always unsafe)
_SPEC_FIXES = frozenset({Transform.RENAME, Transform.ADD_AXIS, Transform.STRIP, Transform.DROP_SPMD_AXIS})
IN_SPECS = Rule("SPMD001", "spmd-axis-in-in-specs", "vmap spmd_axis_name axis appears in a reached shard_map's in_specs", _SPEC_FIXES)
OUT_SPECS = Rule("SPMD002", "spmd-axis-in-out-specs", "vmap spmd_axis_name axis appears in a reached shard_map's out_specs", _SPEC_FIXES)

# `capture`
# lift-captures of the shard_map, and removing spmd_axis_name (always unsafe)
CAPTURE = Rule(
    "SPMD003",
    "shard-map-captures-batched-value",
    "a reached shard_map body closes over a value the spmd vmap batches",
    frozenset({Transform.LIFT_CAPTURES, Transform.DROP_SPMD_AXIS}),
)

# `collective`
# rename and add-axis of the vmap site, and removing spmd_axis_name (always unsafe); strip never
COLLECTIVE = Rule(
    "SPMD004",
    "collective-over-spmd-axis",
    "a collective or axis query over the spmd axis in a reached shard_map body",
    frozenset({Transform.RENAME, Transform.ADD_AXIS, Transform.DROP_SPMD_AXIS}),
)

# `constraint`
# rename and add-axis of the vmap site, strip of the constraint's entry, and removing spmd_axis_name
CONSTRAINT = Rule(
    "SPMD005",
    "spmd-axis-in-sharding-constraint",
    "a with_sharding_constraint, a jax.jit's in/out_shardings, or a reshard, inside the vmapped function names the "
    "spmd axis",
    frozenset({Transform.RENAME, Transform.ADD_AXIS, Transform.STRIP, Transform.DROP_SPMD_AXIS}),
)

# `explicit_axis`
# strip of the shard_map's entries naming the axis, and move-placement of the vmap's input (a plain vmap's)
EXPLICIT_AXIS = Rule(
    "SPMD006",
    "vmapped-away-explicit-axis-in-specs",
    "a plain vmap maps away an Explicit mesh axis that a reached shard_map's specs, or a reshard inside it, name",
    frozenset({Transform.STRIP, Transform.MOVE_PLACEMENT}),
)

# `inner_vmap`
# disable-check-vma of the shard_map and removing spmd_axis_name (both always unsafe)
INNER_VMAP = Rule(
    "SPMD007",
    "vmap-between-spmd-vmap-and-shard-map",
    "a jax.vmap between the spmd vmap and a reached shard_map under check_vma=True",
    frozenset({Transform.DISABLE_CHECK_VMA, Transform.DROP_SPMD_AXIS}),
)

# `not_manual`
# rename and add-axis of the vmap site (they append their axis to `axis_names`), removing spmd_axis_name
NOT_MANUAL = Rule(
    "SPMD008",
    "spmd-axis-not-manual",
    "the vmap's spmd axis is not manual in a reached shard_map (axis_names without it, a jax.smap over another axis; check_vma=False with the batch on an Explicit axis, eager)",
    frozenset({Transform.RENAME, Transform.ADD_AXIS, Transform.DROP_SPMD_AXIS}),
)

# The tool-level codes (`tool`): what spmdfix reports about a run rather than about JAX code.
SYNTAX_ERROR = Rule("SPMD900", "syntax-error", "the file does not parse, so it was not analysed")
UNREADABLE = Rule("SPMD901", "unreadable-file", "the file could not be read or decoded")
# information, not a finding: counted, listed with --show-unresolved
UNFOLLOWED = Rule("SPMD910", "spmd-vmap-not-followed", "(information) an spmd vmap leads to code of the project the analysis could not follow")

# Every rule by its code, in code order.
RULES: dict[str, Rule] = {
    rule.code: rule
    for rule in (
        IN_SPECS, OUT_SPECS, CAPTURE, COLLECTIVE, CONSTRAINT, EXPLICIT_AXIS, INNER_VMAP, NOT_MANUAL,
        SYNTAX_ERROR, UNREADABLE, UNFOLLOWED,
    )
}
