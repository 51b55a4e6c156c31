"""More output formats over the JSON records of `spmdfix.report` (`json_records`, `error_record`).

Each emitter is a pure function of the record dicts the `json` format prints, so every format says the same
thing at the same place: `json_lines` (one compact object per line, as `ruff --output-format json-lines`),
`sarif` (SARIF 2.1.0, for code scanning services) and `github` (GitHub Actions workflow commands, shown as
annotations on a pull request).

Positions in the records are 1-based rows and 1-based columns counted in *code points*; they are passed
through unchanged (SARIF is told so by `run.columnKind`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from spmdfix import links
from spmdfix.rules import RULES, UNFOLLOWED

INFORMATION = frozenset({UNFOLLOWED.code})  # codes of records about the run (severity "info"), not results

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SARIF_VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"
TOOL_NAME = "spmdfix"


def json_lines(records: list[dict]) -> str:
    """One compact JSON object per record, each ended by a newline ("" for no records).

    Non-ASCII text is kept as UTF-8 (not `\\u` escapes); a newline inside a value is escaped by JSON, so
    a record never spans two lines.
    """
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)


# --- SARIF ------------------------------------------------------------------------------------------


def sarif(
    records: list[dict],
    tool_version: str,
    base: str | os.PathLike[str] | None = None,
    information_uri: str | None = None,
    docs: str | None = None,
) -> dict:
    """A SARIF 2.1.0 log (a JSON-ready dict) with one run holding a result per record.

    Files under `base` (default: the working directory) are named by URIs relative to it, with
    `uriBaseId` "%SRCROOT%" whose absolute value is given in `run.originalUriBaseIds`; other files by
    absolute `file://` URIs. Regions are 1-based. SARIF counts columns in UTF-16 code units unless told
    otherwise; ours count Unicode code points, so the run sets `columnKind` to "unicodeCodePoints".

    Each record's chosen `fix` and then its `alternatives` become the result's `fixes` (each with its
    applicability in `properties`); a fix whose edits could not be built is left out. `related` becomes
    `relatedLocations`. `information_uri` defaults to the project's home page, from the package's
    `[project.urls]` (`links.project_urls`). Each rule carries its documentation: `fullDescription` is its
    "What it does" section and `help` the whole document (`links.full_description`), and `helpUri` its link
    under `docs` (the `docs-url` setting; `links.docs_base`) when that is an absolute URI; without one it is
    left out (a local `file://` path means nothing to a code scanning service).
    """
    root = Path(base if base is not None else os.getcwd()).resolve()
    rules = [rule for rule in RULES.values() if rule.code not in INFORMATION]
    index = {rule.code: i for i, rule in enumerate(rules)}
    urls = links.project_urls()
    information_uri = information_uri or next((urls[k] for k in _HOME_LABELS if k in urls), None)
    rules_url = links.docs_base(docs)
    driver: dict = {"name": TOOL_NAME, "version": tool_version}
    if information_uri:
        driver["informationUri"] = information_uri

    def help_uri(code: str) -> dict:
        url = links.rule_url(code, rules_url) if rules_url else ""
        return {"helpUri": url} if links.is_absolute(url) else {}

    driver["rules"] = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": links.full_description(rule.code)},
            "help": {"text": rule.doc(), "markdown": rule.doc()},
            **help_uri(rule.code),
            "defaultConfiguration": {"level": "error"},
        }
        for rule in rules
    ]
    results = []
    notifications = []
    for record in records:
        artifact = _artifact(record["filename"], root)
        if record.get("severity") == "info":
            notifications.append(_notification(record, artifact))
            continue
        result: dict = {
            "ruleId": record["code"],
            "level": "error",
            "message": {"text": record["message"]},
            "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": _region(record)}}],
        }
        if record["code"] in index:
            result["ruleIndex"] = index[record["code"]]
        related = [
            {
                "id": i,
                "message": {"text": rel["message"]},
                "physicalLocation": {"artifactLocation": artifact, "region": _region(rel)},
            }
            for i, rel in enumerate(record.get("related") or ())
        ]
        if related:
            result["relatedLocations"] = related
        fixes = [_sarif_fix(fix, artifact) for fix in _fixes_of(record)]
        fixes = [f for f in fixes if f is not None]
        if fixes:
            result["fixes"] = fixes
        results.append(result)
    if notifications:
        codes = sorted({n["descriptor"]["id"] for n in notifications})
        driver["notifications"] = [_descriptor(RULES[code]) for code in codes]
    run: dict = {"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": results}
    if notifications:
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": notifications}]
    run["originalUriBaseIds"] = {SRCROOT: {"uri": root.as_uri().rstrip("/") + "/"}}
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def _notification(record: Mapping, artifact: dict) -> dict:
    """An information record (SPMD910: where the analysis stopped) as a tool execution notification: it is
    about the run, not a result about the code."""
    return {
        "descriptor": {"id": record["code"]},
        "level": "note",
        "message": {"text": record["message"]},
        "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": _region(record)}}],
    }


def _descriptor(rule) -> dict:
    return {"id": rule.code, "name": rule.name, "shortDescription": {"text": rule.summary}}


_HOME_LABELS = ("homepage", "repository", "source", "documentation")  # `[project.urls]` labels of a home page


def _artifact(filename: str, root: Path) -> dict:
    """An artifactLocation: relative to %SRCROOT% when the file is below `root`, else an absolute URI."""
    path = Path(filename)
    if not path.is_absolute():
        return {"uri": quote(PurePosixPath(*path.parts).as_posix()), "uriBaseId": SRCROOT}
    try:
        rel = path.relative_to(root)
    except ValueError:
        return {"uri": path.as_uri()}
    return {"uri": quote(PurePosixPath(*rel.parts).as_posix()), "uriBaseId": SRCROOT}


def _region(item: Mapping) -> dict:
    start, end = item["location"], item.get("end_location") or item["location"]
    return {
        "startLine": start["row"],
        "startColumn": start["column"],
        "endLine": end["row"],
        "endColumn": end["column"],
    }


def _fixes_of(record: Mapping) -> Iterable[Mapping]:
    if record.get("fix"):
        yield record["fix"]
    yield from record.get("alternatives") or ()


def _sarif_fix(fix: Mapping, artifact: dict) -> dict | None:
    # A fix whose edits were not built ("error") or that has none cannot be expressed as replacements
    # (SARIF requires at least one).
    edits = fix.get("edits") or []
    if fix.get("error") or not edits:
        return None
    replacements = [{"deletedRegion": _region(edit), "insertedContent": {"text": edit["content"]}} for edit in edits]
    properties = {k: fix[k] for k in ("applicability", "transform", "reason") if k in fix}
    return {
        "description": {"text": fix["message"]},
        "artifactChanges": [{"artifactLocation": artifact, "replacements": replacements}],
        "properties": properties,
    }


# --- GitHub workflow commands -------------------------------------------------------------------------


def github(records: list[dict], base: str | os.PathLike[str] | None = None) -> str:
    """One `::error ...::message` workflow command per record (each ended by a newline); an information
    record (severity "info": SPMD910) is a `::notice`.

    `file` is the path relative to `base` (default: the working directory, which in a GitHub Actions job
    is the checkout) when the file is below it, else the absolute path. The message is escaped as GitHub's
    runner unescapes command data (`%` `\\r` `\\n`), property values also `:` and `,`.
    """
    root = Path(base if base is not None else os.getcwd()).resolve()
    out = []
    for record in records:
        start, end = record["location"], record.get("end_location") or record["location"]
        props = [
            ("title", f"{TOOL_NAME} ({record['code']})"),
            ("file", _display(record["filename"], root)),
            ("line", str(start["row"])),
            ("col", str(start["column"])),
            ("endLine", str(end["row"])),
            ("endColumn", str(end["column"])),
        ]
        joined = ",".join(f"{key}={_escape_property(value)}" for key, value in props)
        command = "notice" if record.get("severity") == "info" else "error"
        out.append(f"::{command} {joined}::{_escape_data(record['message'])}\n")
    return "".join(out)


def _display(filename: str, root: Path) -> str:
    path = Path(filename)
    if path.is_absolute():
        try:
            path = path.relative_to(root)
        except ValueError:
            pass
    return path.as_posix()


def _escape_data(text: str) -> str:
    """Command data as GitHub's runner reads it: `%`, CR and LF percent-encoded (`%` first)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """A property value: data escaping plus `:` and `,`, which would end the value."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
