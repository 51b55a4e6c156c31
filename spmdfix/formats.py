"""More output formats over the JSON records of `spmdfix.report` (`json_records`, `error_record`).

Each emitter is a pure function of the record dicts the `json` format prints, so every format says the same
thing at the same place: `json_lines` (one compact object per line, as `ruff --output-format json-lines`),
`sarif` (SARIF 2.1.0, for code scanning services) and `github` (GitHub Actions workflow commands, shown as
annotations on a pull request).

Positions in the records are 1-based rows and 1-based columns counted in *code points*; they are passed
through unchanged (SARIF is told so by `run.columnKind`).
"""

from __future__ import annotations

import hashlib
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
    applicability in `properties`, one `artifactChange` per file it edits); a fix whose edits could not be
    built is left out. `related` becomes `relatedLocations`, and `chain` a `codeFlows` thread flow (the steps
    from the vmap to the finding, which code scanning UIs draw as a path); each place in the file it names.
    `information_uri` defaults to the project's home page, from the package's `[project.urls]`
    (`links.project_urls`). Each rule carries its documentation: `fullDescription` is its "What it does"
    section and `help` the whole document (`links.full_description`), and `helpUri` its link
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
    seen: dict[str, int] = {}  # results so far per fingerprint digest (`_partial_fingerprints`)
    for record in records:
        artifact = _artifact(record["filename"], root)
        if record.get("severity") == "info":
            notifications.append(_notification(record, artifact))
            continue
        result: dict = {
            "ruleId": record["code"],
            "level": "error",
            "message": {"text": _placed_message(record, record["message"])},
            "locations": [_location(record, artifact)],
        }
        if record["code"] in index:
            result["ruleIndex"] = index[record["code"]]
        fingerprints = _partial_fingerprints(record, artifact, root, seen)
        if fingerprints:
            result["partialFingerprints"] = fingerprints
        def artifact_of(item: Mapping) -> dict:
            # (a related place, chain step or edit names its own file: the chain may cross modules)
            return _artifact(item["filename"], root) if item.get("filename") else artifact

        related = [
            {"id": i, **_location(rel, artifact_of(rel)), "message": {"text": _placed_message(rel, rel["message"])}}
            for i, rel in enumerate(record.get("related") or ())
        ]
        if related:
            result["relatedLocations"] = related
        steps = record.get("chain") or ()
        if len(steps) > 1:
            result["codeFlows"] = [{"threadFlows": [{"locations": [_flow_step(s, artifact_of(s)) for s in steps]}]}]
        if "cell" in record:
            # Fixes of a notebook edit its cells' text, not the .ipynb JSON text SARIF regions point into.
            result["properties"] = {"cell": record["cell"], "fixes": NOTEBOOK_FIXES_LEFT_OUT}
        else:
            # (a finding in a module from a notebook's vmap: a fix there may edit the notebook's cells too)
            of_cells = [fix for fix in _fixes_of(record) if any("cell" in e for e in fix.get("edits") or ())]
            if of_cells:
                result["properties"] = {"fixes": NOTEBOOK_FIXES_LEFT_OUT}
            fixes = [_sarif_fix(fix, artifact, artifact_of) for fix in _fixes_of(record) if fix not in of_cells]
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


FINGERPRINT_KEY = "spmdfix/v1"  # (SARIF 3.27.17: a versioned name; GitHub reserves `primaryLocationLineHash`)


def _partial_fingerprints(record: Mapping, artifact: dict, root: Path, seen: dict[str, int]) -> dict:
    """A result's `partialFingerprints`, by which code scanning tracks it from one run to the next: a digest of
    the record's `fingerprint` (its rule, the text of its line and of its span: `report.fingerprint`), its file
    and the file of the vmap it comes from (the first step of its chain: one place reached from two modules'
    vmaps is two results), then `:N`, N counting the results of that digest so far (1 for the first), as
    CodeQL's `primaryLocationLineHash` does: two identical findings on identical lines are two results. No
    row or column is in it, so a result keeps it when lines are added above it. A record without a
    `fingerprint` (not made by `report`) gets none."""
    if not record.get("fingerprint"):
        return {}
    steps = record.get("chain") or ()
    vmap_file = _display(steps[0]["filename"], root) if len(steps) > 1 and steps[0].get("filename") else ""
    parts = (record["fingerprint"], artifact["uri"], artifact.get("uriBaseId", ""), vmap_file)
    digest = hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]
    seen[digest] = seen.get(digest, 0) + 1
    return {FINGERPRINT_KEY: f"{digest}:{seen[digest]}"}


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


NOTEBOOK_FIXES_LEFT_OUT = (
    "left out: a fix edits the notebook's cells, and SARIF replacements would apply to the .ipynb JSON text;"
    " `spmdfix fix` applies it"
)


def _location(item: Mapping, artifact: dict) -> dict:
    """A SARIF location of a record, related place or chain step. In a notebook (`cell` in the item) the
    region is line 1 of the .ipynb file, as in the GitHub output (SARIF regions count lines of the file's
    text, which a cell's rows are not), and the cell and its position are in the location's `properties`."""
    if "cell" in item:
        where = {"cell": item["cell"], "row": item["location"]["row"], "column": item["location"]["column"]}
        region = {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1}
        return {"physicalLocation": {"artifactLocation": artifact, "region": region}, "properties": where}
    return {"physicalLocation": {"artifactLocation": artifact, "region": _region(item)}}


def _placed_message(item: Mapping, text: str) -> str:
    """A message, prefixed with `cell N:row:col` in a notebook (where the region cannot point)."""
    return f"{_cell_place(item)}: {text}" if "cell" in item else text


def _flow_step(step: Mapping, artifact: dict) -> dict:
    """One step of a result's `codeFlows` thread flow: its place and what happens there."""
    return {"location": {**_location(step, artifact), "message": {"text": _placed_message(step, step["message"])}}}


def _sarif_fix(fix: Mapping, artifact: dict, artifact_of) -> dict | None:
    """A SARIF fix: one `artifactChange` per file the fix edits (`artifact_of(edit)`), in the order the files
    first appear among its edits. A fix whose edits were not built ("error") or that has none cannot be
    expressed as replacements (SARIF requires at least one): None."""
    edits = fix.get("edits") or []
    if fix.get("error") or not edits:
        return None
    changes: dict[str, dict] = {}
    for edit in edits:
        where = artifact_of(edit)
        change = changes.setdefault(json.dumps(where, sort_keys=True), {"artifactLocation": where, "replacements": []})
        change["replacements"].append({"deletedRegion": _region(edit), "insertedContent": {"text": edit["content"]}})
    properties = {k: fix[k] for k in ("applicability", "transform", "reason") if k in fix}
    return {
        "description": {"text": fix["message"]},
        "artifactChanges": list(changes.values()),
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
    # (two vmaps reaching one spec entry: two findings at one place with one message, each then told by where its
    # vmap is, as the concise text output does: `report.distinguished`)
    same: dict[tuple, int] = {}
    for record in records:
        key = _annotation_key(record)
        same[key] = same.get(key, 0) + 1
    for record in records:
        start, end = record["location"], record.get("end_location") or record["location"]
        message = record["message"]
        origin = _vmap_origin(record, root) if same[_annotation_key(record)] > 1 else None
        if origin is not None:
            message = f"{message} (vmap at {origin})"
        if "cell" in record:
            # A notebook: GitHub annotates lines of the .ipynb JSON text, which cell rows are not; as ruff does,
            # the annotation goes on line 1 and the message says the cell and its row.
            message = f"{_cell_place(record)}: {message}"
            start = end = {"row": 1, "column": 1}
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
        out.append(f"::{command} {joined}::{_escape_data(message)}\n")
    return "".join(out)


def _annotation_key(record: Mapping) -> tuple:
    """What a GitHub annotation of `record` shows: its file, place, code and message."""
    return (record["filename"], record.get("cell"), record["location"]["row"], record["location"]["column"],
            record["code"], record["message"])


def _vmap_origin(record: Mapping, root: Path) -> str | None:
    """Where the vmap a finding comes from gives `spmd_axis_name` (the first step of its chain), as
    `path:row:col` (`path:cell N:row:col` in a notebook); None for a chain of one step."""
    steps = record.get("chain") or []
    if len(steps) < 2:
        return None
    first = steps[0]
    where = _cell_place(first) if "cell" in first else f"{first['location']['row']}:{first['location']['column']}"
    return f"{_display(first['filename'], root)}:{where}"


def _cell_place(item: Mapping) -> str:
    """`cell N:row:col` of a notebook position (`notebook.remap_record`)."""
    return f"cell {item['cell']}:{item['location']['row']}:{item['location']['column']}"


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
