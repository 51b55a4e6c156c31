"""The per-file runner: read, check or fix, and report; total (it never raises for a file).

One `FileOutcome` per file, whatever happened to it: the findings, the new text when a fix applies, or the
error that stopped it (unreadable, undecodable, internal). The CLI decides what to print and write.
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from spmdfix import rules
from spmdfix.api import Options, check_source, fix_source
from spmdfix.files import FileError, SourceFile, read_source
from spmdfix.model import Finding, Fix


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """What happened to one file.

    status: "checked" (analysed, nothing to change), "fixed" (new_text differs from the source),
    "unreadable" (SPMD901: `error` says why), "failed" (an internal error: `error` holds the traceback).
    """

    path: Path
    display: str
    status: str
    source: SourceFile | None = None
    findings: tuple[Finding, ...] = ()
    new_text: str | None = None
    applied: tuple[Fix, ...] = ()
    errors: tuple[str, ...] = field(default=())
    error: str = ""


def display_path(path: Path) -> str:
    """The path as reports show it: relative to the working directory when below it, with `/`."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        rel = str(path)
    shown = str(path) if rel.startswith("..") else rel
    return shown.replace(os.sep, "/")


def run_file(path: Path, options: Options, fix: bool) -> FileOutcome:
    """Check (or, with `fix`, fix) one file. Never raises."""
    display = display_path(path)
    try:
        source = read_source(path)
    except FileError as err:
        return FileOutcome(path, display, "unreadable", error=str(err))
    try:
        if not fix:
            return FileOutcome(path, display, "checked", source, tuple(check_source(source.text, options)))
        result = fix_source(source.text, options)
    except Exception:  # noqa: BLE001 - the one place a bug in analysis is caught and reported per file
        return FileOutcome(path, display, "failed", source, error=traceback.format_exc())
    status = "fixed" if result.source != source.text else "checked"
    return FileOutcome(
        path,
        display,
        status,
        source,
        result.remaining,
        result.source if status == "fixed" else None,
        result.applied,
        result.errors,
    )


UNREADABLE = rules.UNREADABLE
