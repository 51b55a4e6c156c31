"""The rule table: every code spmdfix reports, its name and its documentation, in one place.

Codes are stable: new rules get new codes, existing ones are never renumbered. Each rule's documentation
lives in `spmdfix/rules/docs/<CODE>.md` with ruff's sections (What it does, Why is this bad?, Example, Use
instead, Fix safety, References); `spmdfix rule CODE` prints it and a finding's `url` points at it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule: stable code, kebab-case name, one-line summary."""

    code: str
    name: str
    summary: str

    @property
    def url(self) -> str:
        """A URI of the rule's documentation as installed with the package."""
        from importlib import resources  # 10 ms of imports: only when a URL or a doc is asked for

        return resources.files("spmdfix").joinpath("rules", "docs", f"{self.code}.md").as_uri()  # type: ignore[attr-defined]

    def doc(self) -> str:
        """The rule's documentation text (Markdown)."""
        from importlib import resources

        return resources.files("spmdfix").joinpath("rules", "docs", f"{self.code}.md").read_text(encoding="utf-8")


RULES: dict[str, Rule] = {
    rule.code: rule
    for rule in (
        Rule("SPMD001", "spmd-axis-in-in-specs", "vmap spmd_axis_name axis appears in a reached shard_map's in_specs"),
        Rule("SPMD002", "spmd-axis-in-out-specs", "vmap spmd_axis_name axis appears in a reached shard_map's out_specs"),
        Rule("SPMD003", "shard-map-captures-batched-value", "a reached shard_map body closes over a value the spmd vmap batches"),
        Rule("SPMD004", "collective-over-spmd-axis", "a collective or axis query over the spmd axis in a reached shard_map body"),
        Rule("SPMD005", "spmd-axis-in-sharding-constraint", "with_sharding_constraint inside the vmapped function names the spmd axis"),
        Rule("SPMD006", "vmapped-away-explicit-axis-in-specs", "a plain vmap maps away an Explicit mesh axis that a reached shard_map's specs name"),
        Rule("SPMD007", "vmap-between-spmd-vmap-and-shard-map", "a jax.vmap between the spmd vmap and a reached shard_map under check_vma=True"),
        Rule("SPMD008", "spmd-axis-not-manual", "the vmap's spmd axis is not manual in a reached shard_map (axis_names without it, a jax.smap over another axis; check_vma=False with the batch on an Explicit axis, eager)"),
        Rule("SPMD900", "syntax-error", "the file does not parse, so it was not analysed"),
        Rule("SPMD901", "unreadable-file", "the file could not be read or decoded"),
        Rule("SPMD910", "spmd-vmap-not-followed", "(information) an spmd vmap leads to code of the project the analysis could not follow"),
    )
}

IN_SPECS = RULES["SPMD001"]
OUT_SPECS = RULES["SPMD002"]
CAPTURE = RULES["SPMD003"]
COLLECTIVE = RULES["SPMD004"]
CONSTRAINT = RULES["SPMD005"]
EXPLICIT_AXIS = RULES["SPMD006"]
INNER_VMAP = RULES["SPMD007"]
NOT_MANUAL = RULES["SPMD008"]
SYNTAX_ERROR = RULES["SPMD900"]
UNREADABLE = RULES["SPMD901"]
UNFOLLOWED = RULES["SPMD910"]  # information, not a finding: counted, listed with --show-unresolved
