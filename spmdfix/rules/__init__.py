"""The rules: every code spmdfix reports, built from one module per rule family, and the order they run in.

Codes are stable: new rules get new codes, existing ones are never renumbered. The table of codes
(`codes`: each `Rule`'s code, name, summary, and the transforms its findings may offer, `Rule.fixes`) is all
this package imports; a rule family module (`spec_collision` SPMD001/002, `capture` SPMD003, `collective`
SPMD004, `constraint` SPMD005, `explicit_axis` SPMD006, `inner_vmap` SPMD007, `not_manual` SPMD008) holds,
for its codes:
- `RULES`: its `Rule`s, from the table;
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

Importing this package imports neither the families nor any analysis: runs that analyse no module (a warm
cache, the language server's start, `spmdfix rule`) read the table; the run orders (`FAMILIES`,
`PER_SHARD_MAP`, ...) import the families when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.rules.codes import (
    CAPTURE,
    COLLECTIVE,
    CONSTRAINT,
    EXPLICIT_AXIS,
    IN_SPECS,
    INNER_VMAP,
    NOT_MANUAL,
    OUT_SPECS,
    RULES,
    SYNTAX_ERROR,
    UNFOLLOWED,  # information, not a finding: counted, listed with --show-unresolved
    UNREADABLE,
    Rule,
)

if TYPE_CHECKING:
    from types import ModuleType

# The run orders below name the family modules, which import the analysis' hazards and the fix transforms:
# they are made on first use (PEP 562's module `__getattr__`), so that what reads only the table does not
# load them.
_ORDERS = ("FAMILIES", "PER_SHARD_MAP", "PER_SITE", "PLAIN_VMAP", "LEAVE_BEHIND")


def __getattr__(name: str) -> tuple[ModuleType, ...]:
    """The run orders (`_ORDERS`), importing the families on first use:
    - FAMILIES: every rule family, in code order;
    - PER_SHARD_MAP: run for each shard_map a vmap with spmd_axis_name reaches, in this order (capture before
      collective is the order in which a judged fix's reason names what it leaves behind), then PER_SITE
      once for the site;
    - PLAIN_VMAP: run for each shard_map a plain vmap (no spmd_axis_name, its batch placed on Explicit axes)
      reaches (`capture`: a batched value the body closes over, `capture._plain_vmap_findings`);
    - LEAVE_BEHIND: the families whose findings no other fix may leave behind (`left_behind`).
    Raises AttributeError for any other name, as a module does."""
    if name not in _ORDERS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from spmdfix.rules import capture, collective, constraint, explicit_axis, inner_vmap, not_manual, spec_collision

    orders = {
        "FAMILIES": (spec_collision, capture, collective, constraint, explicit_axis, inner_vmap, not_manual),
        "PER_SHARD_MAP": (spec_collision, capture, collective, explicit_axis, inner_vmap, not_manual),
        "PER_SITE": (constraint,),
        "PLAIN_VMAP": (capture, explicit_axis),
        "LEAVE_BEHIND": (capture, collective),
    }
    globals().update(orders)
    return orders[name]


__all__ = [
    "CAPTURE", "COLLECTIVE", "CONSTRAINT", "EXPLICIT_AXIS", "FAMILIES", "IN_SPECS", "INNER_VMAP", "LEAVE_BEHIND",
    "NOT_MANUAL", "OUT_SPECS", "PER_SHARD_MAP", "PER_SITE", "PLAIN_VMAP", "RULES", "Rule", "SYNTAX_ERROR",
    "UNFOLLOWED", "UNREADABLE",
]
