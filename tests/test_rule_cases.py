"""Every rule family's inline cases (`VALID` / `INVALID` in `spmdfix/rules/<family>.py`, as Fixit keeps them).

A VALID case gets no finding of its code; an INVALID case gets at least one, and when it marks a place
(`at`), one of them spans exactly that text. Each case is checked after `rules.rule.CASE_HEADER`. The test ids
carry the code (`SPMD004-invalid-0`), so `pytest -k SPMD004` selects a rule's cases.
"""

from __future__ import annotations

from collections import Counter

import pytest

from spmdfix import rules
from spmdfix.api import check_source
from spmdfix.rules.rule import Invalid, Valid


def _cases() -> list:
    params, seen = [], Counter()
    for family in rules.FAMILIES:
        for kind, cases in (("valid", family.VALID), ("invalid", family.INVALID)):
            for case in cases:
                params.append(pytest.param(case, id=f"{case.code}-{kind}-{seen[case.code, kind]}"))
                seen[case.code, kind] += 1
    return params


@pytest.mark.parametrize("case", _cases())
def test_rule_case(case: Valid | Invalid) -> None:
    text = case.program
    found = [text[f.span.start : f.span.end] for f in check_source(text) if f.code == case.code]
    if isinstance(case, Valid):
        assert found == [], f"{case.code} reported on a valid case: {found}"
    else:
        assert found, f"{case.code} not reported on an invalid case"
        assert case.at is None or case.at in found, f"{case.code} not reported at {case.at!r}: {found}"
