"""Golden cases: `fix` turns input.py into expected.py byte for byte, and every output is sound.

For each case under golden/: the output equals expected.py exactly; findings on input.py equal
findings.txt; an expected output of an applied fix parses (ast and libcst), is a fixed point of the tool
and lints clean; the applied fixes have the transform of its group (or exactly the `transforms` case.toml lists,
its group among them) and the applicability case.toml records;
clean and refused cases stay byte-identical; an `unfollowed/` case (a value on a reached path the analysis
cannot read) stays byte-identical and its SPMD910 records equal unfollowed.txt. `pytest --update-golden`
rewrites expected.py/findings.txt (and an unfollowed case's unfollowed.txt).
"""

from __future__ import annotations

import ast

import libcst as cst
import pytest

from golden import TRANSFORM_GROUPS, Case, cases, findings_text, unfollowed_text
from spmdfix.api import analyse_source, check_source, fix_source
from spmdfix.files import decode, encode

CASES = cases()


def _read(path):
    return decode(path, path.read_bytes())


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_golden_case(case: Case, update_golden: bool) -> None:
    source = _read(case.input)
    result = fix_source(source.text, case.options)
    assert not result.errors, result.errors
    output = encode(source, result.source)
    found = findings_text(source.text, check_source(source.text, case.options), case.options)
    lost = unfollowed_text(source.text, analyse_source(source.text, case.options).unfollowed)
    if update_golden:
        case.expected.write_bytes(output)
        case.findings.write_text(found, encoding="utf-8")
        if case.group == "unfollowed":
            case.unfollowed.write_text(lost, encoding="utf-8")
    if case.unfollowed.exists():
        assert lost == case.unfollowed.read_text(encoding="utf-8"), f"{case.id}: SPMD910 records differ from unfollowed.txt"
    assert output == case.expected.read_bytes(), f"{case.id}: output differs from expected.py"
    assert case.findings.exists(), f"{case.id}: findings.txt missing (run pytest --update-golden and review)"
    assert found == case.findings.read_text(encoding="utf-8"), f"{case.id}: findings differ from findings.txt"

    if case.group in TRANSFORM_GROUPS:
        assert found, f"{case.id}: a transform case must have findings on its input"
        assert result.applied, f"{case.id}: no fix applied"
        # A case whose fix set auto chooses across transforms lists them (`transforms`); the group is one of them.
        transforms = set(case.config.get("transforms", [case.group]))
        assert case.group in transforms, f"{case.id}: its group is not among the transforms case.toml lists"
        assert {f.transform.value for f in result.applied} == transforms
        assert {f.applicability.value for f in result.applied} == {case.config["applicability"]}
    elif case.group == "clean":
        assert not found, f"{case.id}: clean code got findings"
        assert output == source.raw
    elif case.group == "refuse":
        assert found, f"{case.id}: a refusal case must have findings"
        assert output == source.raw, f"{case.id}: a refused fix changed the file"
    elif case.group == "unfollowed":
        assert lost, f"{case.id}: an unfollowed case must have SPMD910 records"
        assert output == source.raw, f"{case.id}: a fix changed an unfollowed case's file"


TRANSFORM_CASES = [c for c in CASES if c.group in TRANSFORM_GROUPS]


@pytest.mark.parametrize("case", TRANSFORM_CASES, ids=[c.test_id for c in TRANSFORM_CASES])
def test_expected_output_is_sound(case: Case) -> None:
    text = _read(case.expected).text
    ast.parse(text)
    cst.parse_module(text)
    assert check_source(text, case.options) == [], f"{case.id}: expected.py still has findings"
    again = fix_source(text, case.options)
    assert again.source == text and not again.applied, f"{case.id}: expected.py is not a fixed point"
