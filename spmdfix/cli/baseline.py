"""`check --baseline FILE`: adopt spmdfix on a codebase that has findings, and report only new ones.

ruff has no baseline; this follows detekt's and psalm's, in their simplest form:

- **Written once.** When FILE does not exist, the run records every finding it would report into FILE and
  reports none of them (it exits 0: everything found is in the baseline). When FILE exists, it is only read:
  a run that uses a baseline (a CI job) never rewrites it. To record it anew (after fixing findings, or to
  accept new ones), delete FILE and run again.
- **What an entry is.** Rule code, file (relative to FILE's directory, `/`-separated), a fingerprint and a
  count. The fingerprint is a digest of the code, the text of the finding's line (without its indentation)
  and the text of the finding's own span; not its row or column: a finding whose line moves (lines added or
  removed above it) stays baselined, one whose line is edited is new. Two identical findings on identical
  lines of a file are one entry with count 2, and match two findings. The line's text is kept beside the
  fingerprint for a reviewer.
- **Matching.** A finding is left out of the report while an entry of its code, file and fingerprint has
  count left; the closing summary counts the findings left out ("N baselined").
- **Stale entries** (no finding matches them any more: fixed, or their line edited) are said in the closing
  summary and kept in FILE: a stale entry would hide a new finding with the same code and the same line text
  in that file, which is why the summary asks to record the baseline anew.
- **Not baselined**: SPMD901 (a file that cannot be read is not a finding of its code) and SPMD910
  (information, never a finding). `fix` knows nothing of baselines: it fixes baselined findings like any
  other (`check --fix --baseline FILE` too, reporting what is left that FILE does not hold).
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix.model import Finding
from spmdfix.report import fingerprint, line_text
from spmdfix.results import FileResult
from spmdfix.settings import ConfigError

if TYPE_CHECKING:
    from spmdfix.cli.invocation import Run

FORMAT = 1
_Key = tuple[str, str, str]  # (code, file relative to the baseline's directory, fingerprint)


@dataclasses.dataclass
class Applied:
    """What a baseline did to a run: the outcomes without the baselined findings, how many were left out,
    how many entries matched nothing (stale), and whether the baseline was written by this run."""

    outcomes: list[FileResult]
    baselined: int = 0
    stale: int = 0
    written: bool = False


def apply_baseline(path: Path, outcomes: Sequence[FileResult]) -> Applied:
    """Record `outcomes`' findings into the baseline at `path` when it does not exist, else leave out the
    findings it holds (see the module doc). Raises `ConfigError` for a baseline that cannot be read or
    written."""
    directory = Path(os.path.abspath(path)).parent
    keyed = [(o, [(f, *_entry(f, o, directory)) for f in o.findings]) for o in outcomes]
    if not os.path.lexists(path):
        entries = Counter(key for _, found in keyed for _, key, _ in found)
        lines = {key: line for _, found in keyed for _, key, line in found}
        _write(path, entries, lines)
        return Applied([_without(o, o.findings) for o in outcomes], sum(entries.values()), 0, True)
    left = _read(path)
    kept: list[FileResult] = []
    baselined = 0
    for o, found in keyed:
        dropped = []
        for finding, key, _ in found:
            if left[key] > 0:
                left[key] -= 1
                dropped.append(finding)
        baselined += len(dropped)
        kept.append(_without(o, dropped) if dropped else o)
    return Applied(kept, baselined, sum(left.values()))


def _without(outcome: FileResult, dropped: Sequence[Finding]) -> FileResult:
    if not dropped:
        return outcome  # (a result without findings: a skipped or unreadable file has no `findings` to replace)
    ids = {id(f) for f in dropped}
    return dataclasses.replace(outcome, findings=tuple(f for f in outcome.findings if id(f) not in ids))


def _entry(finding: Finding, outcome: FileResult, directory: Path) -> tuple[_Key, str]:
    """A finding's baseline key (code, file relative to `directory`, fingerprint) and its line's text."""
    if finding.span.path:  # in another module of the project, which the analysis followed into
        from spmdfix.files import text_of

        absolute, text = finding.span.path, text_of(finding.span.path) or ""
    else:
        absolute, text = os.path.abspath(outcome.path), outcome.text
    line = line_text(text, finding.span.start)
    digest = fingerprint(finding.code, text, finding.span.start, finding.span.end)
    try:
        rel = os.path.relpath(absolute, directory)
    except ValueError:  # another drive (Windows): nothing relative names it
        rel = absolute
    return (finding.code, rel.replace(os.sep, "/"), digest), line


def _write(path: Path, entries: Counter, lines: dict[_Key, str]) -> None:
    records = [
        {"code": code, "file": file, "fingerprint": fingerprint, "count": count, "line": lines.get(key, "")}
        for key, count in sorted(entries.items())
        for code, file, fingerprint in [key]
    ]
    document = {
        "spmdfix-baseline": FORMAT,
        "about": "Findings `spmdfix check --baseline` leaves out of its reports. Written when this file did not"
        " exist; delete it and run again to record it anew.",
        "findings": records,
    }
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"{path}: cannot write the baseline: {err.strerror or err}") from err


def _read(path: Path) -> Counter:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise ConfigError(f"{path}: cannot read the baseline: {err.strerror or err}") from err
    except ValueError as err:
        raise ConfigError(f"{path}: not a spmdfix baseline (invalid JSON: {err})") from err
    if not isinstance(document, dict) or document.get("spmdfix-baseline") != FORMAT:
        raise ConfigError(f"{path}: not a spmdfix baseline (no `\"spmdfix-baseline\": {FORMAT}`)")
    entries: Counter = Counter()
    for item in document.get("findings") or ():
        try:
            key = (str(item["code"]), str(item["file"]), str(item["fingerprint"]))
            entries[key] += int(item.get("count", 1))
        except (KeyError, TypeError, ValueError) as err:
            raise ConfigError(f"{path}: not a spmdfix baseline (a bad entry: {item!r})") from err
    return entries


def said(path: Path, applied: Applied) -> str | None:
    """What the run says of its baseline on stderr (before its closing summary), if anything."""
    if applied.written:
        n = applied.baselined
        return f"spmdfix: wrote the baseline {path} ({n} finding{'s' if n != 1 else ''}); later runs report only new ones."
    if applied.stale:
        n = applied.stale
        return (
            f"spmdfix: {n} entr{'ies' if n != 1 else 'y'} of the baseline {path} match{'' if n != 1 else 'es'} no"
            " finding any more (fixed, or the line changed): delete it and run again to record it anew."
        )
    return None


def with_baseline(run: Run, path: Path, outcomes: list[FileResult]) -> tuple[list[FileResult], int]:
    """The outcomes without the findings the baseline at `path` holds (written by this run when absent:
    `apply_baseline`), and how many were left out; what the baseline did is said on stderr (`run.say`).
    `check --baseline` and `check --fix --baseline` both filter through it."""
    applied = apply_baseline(path, outcomes)
    message = said(path, applied)
    if message:
        run.say(message)
    return applied.outcomes, applied.baselined
