"""The rules: every code spmdfix reports, built from one module per rule family, and the order they run in.

Codes are stable: new rules get new codes, existing ones are never renumbered. A rule family module
(`spec_collision` SPMD001/002, `capture` SPMD003, `collective` SPMD004, `constraint` SPMD005,
`explicit_axis` SPMD006, `inner_vmap` SPMD007, `not_manual` SPMD008) holds, for its codes:
- `RULES`: its `Rule`s (code, name, summary, and the transforms its findings may offer: `Rule.fixes`);
- its message builders and measured refusal constants, with the measurements they cite;
- `check(site, reached)` (`constraint`: `check(site)`): its findings at one shard_map a vmap site reaches
  (`rule.Site`), with their fixes; `constraint.reshard_findings(site)` and `explicit_axis.reshard_findings(site)`
  give, once per site, the reshards inside the vmapped function naming the Explicit axis the batch is placed on
  (spmd and plain vmap), which `spmdfix.plan` judges with the site's other findings; `left_behind(site, reached, found)` where no other fix may leave a finding
  behind (`plan.judgments.judged_together`);
- `VALID` / `INVALID`: short inline cases (tests/test_rule_cases.py runs them).
`tool` holds the tool-level codes (SPMD900/901/910). Each rule's documentation lives in
`spmdfix/rules/docs/<CODE>.md` with ruff's sections (What it does, Why is this bad?, Example, Use instead,
Fix safety, References); `spmdfix rule CODE` prints it and a finding's `url` points at it.
tests/test_registry.py checks that every rule has a doc, a golden case and fixes consistent with its
`Rule.fixes`. `spmdfix.plan` runs the checks and judges each vmap site's fixes together.

Importing this package imports no analysis (the fact types are annotations only): runs that analyse no
module (a warm cache, the language server's start, `spmdfix rule`) read the table.
"""

from __future__ import annotations

from spmdfix.rules import (
    capture,
    collective,
    constraint,
    explicit_axis,
    inner_vmap,
    not_manual,
    spec_collision,
    tool,
)
from spmdfix.rules.rule import Rule

# Every rule family, in code order.
FAMILIES = (spec_collision, capture, collective, constraint, explicit_axis, inner_vmap, not_manual)
# Run for each shard_map a vmap with spmd_axis_name reaches, in this order (capture before collective is the
# order in which a judged fix's reason names what it leaves behind), then PER_SITE once for the site.
PER_SHARD_MAP = (spec_collision, capture, collective, explicit_axis, inner_vmap, not_manual)
PER_SITE = (constraint,)
# Run for each shard_map a plain vmap (no spmd_axis_name, its batch placed on Explicit axes) reaches
# (`capture`: a batched value the body closes over, `capture._plain_vmap_findings`).
PLAIN_VMAP = (capture, explicit_axis)
# The families whose findings no other fix may leave behind (`left_behind`).
LEAVE_BEHIND = (capture, collective)

RULES: dict[str, Rule] = {rule.code: rule for family in (*FAMILIES, tool) for rule in family.RULES}

IN_SPECS = spec_collision.IN_SPECS
OUT_SPECS = spec_collision.OUT_SPECS
CAPTURE = capture.CAPTURE
COLLECTIVE = collective.COLLECTIVE
CONSTRAINT = constraint.CONSTRAINT
EXPLICIT_AXIS = explicit_axis.EXPLICIT_AXIS
INNER_VMAP = inner_vmap.INNER_VMAP
NOT_MANUAL = not_manual.NOT_MANUAL
SYNTAX_ERROR = tool.SYNTAX_ERROR
UNREADABLE = tool.UNREADABLE
UNFOLLOWED = tool.UNFOLLOWED  # information, not a finding: counted, listed with --show-unresolved

__all__ = [
    "CAPTURE", "COLLECTIVE", "CONSTRAINT", "EXPLICIT_AXIS", "FAMILIES", "IN_SPECS", "INNER_VMAP", "LEAVE_BEHIND",
    "NOT_MANUAL", "OUT_SPECS", "PER_SHARD_MAP", "PER_SITE", "PLAIN_VMAP", "RULES", "Rule", "SYNTAX_ERROR",
    "UNFOLLOWED", "UNREADABLE",
]
