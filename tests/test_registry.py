"""The rule registry (`spmdfix.rules`) is whole: no rule is half added.

For every code: its documentation exists (`spmdfix/rules/docs/<CODE>.md`, what `spmdfix rule CODE` prints);
for every rule of a family: some golden `findings.txt` names it, its module has inline VALID and INVALID
cases, and its declared fixes (`Rule.fixes`) are exactly the transforms its findings offer over the golden
inputs and the inline cases (ruff's FIX_AVAILABILITY check): an offered transform it does not declare, or a
declared one never offered, fails. An applied fix is one of the offered ones, so this covers what the golden
cases apply too. Test ids carry the code: `pytest -k SPMD004` selects that rule's rows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from functools import cache

import pytest

from golden import GOLDEN, cases, finding_lines, modules, tree_cases
from spmdfix import rules
from spmdfix.rules import tool
from spmdfix.api import check_source, new_project_index
from spmdfix.files import read_source
from spmdfix.model import Finding, Transform

FAMILY_CODES = [rule.code for family in rules.FAMILIES for rule in family.RULES]


def _family_of(code: str):
    return next(family for family in rules.FAMILIES if code in {rule.code for rule in family.RULES})


@cache
def _offered() -> dict[str, set[Transform]]:
    """code -> the transforms its findings offer (as fixes, not refusals) over the golden inputs (one-module
    and tree cases) and every family's inline cases."""
    found: list[Finding] = []
    for case in cases():
        found += check_source(read_source(case.input).text, case.options)
    for case in tree_cases():
        root = case.path / "input"
        index = new_project_index(root)
        for path in modules(root):
            found += check_source(read_source(path).text, case.options, path=path, index=index)
    for family in rules.FAMILIES:
        for case in (*family.VALID, *family.INVALID):
            found += check_source(case.program)
    offered: dict[str, set[Transform]] = defaultdict(set)
    for f in found:
        offered[f.code] |= {fix.transform for fix in f.fixes}
    return offered


@pytest.mark.parametrize("code", rules.RULES)
def test_rule_has_a_doc(code: str) -> None:
    rule = rules.RULES[code]
    doc = rule.doc()
    assert doc.startswith(f"# {code} {rule.name}"), f"{code}: its doc does not open with its code and name"
    assert rule.url.endswith(f"/spmdfix/rules/docs/{code}.md")


@pytest.mark.parametrize("code", FAMILY_CODES)
def test_rule_has_a_golden_case(code: str) -> None:
    named = [
        path for path in sorted(GOLDEN.glob("*/*/findings.txt"))
        if any(line.split(" ", 2)[1:2] == [code] for line in finding_lines(path.read_text(encoding="utf-8").splitlines()))
    ]
    assert named, f"{code}: no golden findings.txt names it"


@pytest.mark.parametrize("code", FAMILY_CODES)
def test_rule_has_inline_cases(code: str) -> None:
    family = _family_of(code)
    assert any(c.code == code for c in family.VALID), f"{code}: no VALID case in {family.__name__}"
    assert any(c.code == code for c in family.INVALID), f"{code}: no INVALID case in {family.__name__}"
    own = {rule.code for rule in family.RULES}
    assert {c.code for c in (*family.VALID, *family.INVALID)} <= own, f"{family.__name__}: a case of another family's code"


@pytest.mark.parametrize("code", rules.RULES)
def test_rule_declares_the_fixes_it_offers(code: str) -> None:
    declared = rules.RULES[code].fixes
    offered = _offered().get(code, set())
    undeclared = sorted(t.value for t in offered - declared)
    never = sorted(t.value for t in declared - offered)
    assert not undeclared, f"{code}: its findings offer {undeclared}, which its Rule.fixes does not declare"
    assert not never, f"{code}: Rule.fixes declares {never}, which no golden or inline case offers"


def test_every_family_code_is_registered_once() -> None:
    """The table (`rules.codes`) holds exactly the rules of the family modules and `tool`, each code in one
    module only, each the table's own record."""
    family_rules = [rule for family in (*rules.FAMILIES, tool) for rule in family.RULES]
    codes = [rule.code for rule in family_rules]
    assert len(codes) == len(set(codes)) == len(rules.RULES)
    assert all(rules.RULES[rule.code] is rule for rule in family_rules)
    assert set(rules.PER_SHARD_MAP) | set(rules.PER_SITE) == set(rules.FAMILIES)
    assert all(hasattr(family, "left_behind") for family in rules.LEAVE_BEHIND)


@pytest.mark.e2e
def test_the_registry_imports_no_analysis() -> None:
    """Runs that analyse no module read the rule table (a warm cache, `spmdfix rule`, the language server's
    start): importing it loads neither the analysis' facts nor libcst nor the engine."""
    code = "import json, sys, spmdfix.rules; print(json.dumps(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(run.stdout)
    for heavy in ("spmdfix.analysis.facts", "spmdfix.api", "spmdfix.plan", "libcst"):
        assert heavy not in loaded, f"importing spmdfix.rules imports {heavy}"
    # nor the families, whose hazards and transforms are a fortieth of a warm check (bench/README.md)
    families = [name for name in loaded if name.startswith("spmdfix.rules.") and name != "spmdfix.rules.codes"]
    assert not families, f"importing spmdfix.rules imports {families}"
    assert "spmdfix.analysis.hazards" not in loaded
