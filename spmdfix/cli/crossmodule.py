"""`spmdfix fix` across modules: the fixes whose edits reach other modules of the project.

A finding may sit in a callee's module (the vmap in `pkg/pipeline.py`, the shard_map in `pkg/layers.py`),
and its fix may edit both. The per-file step leaves such fixes alone (`api.fix_source`); this step applies
them one module after the other in this process (`runner.cross_module_fixes`), starting from the texts the
per-file step produced, so that `--diff` shows one diff per file and a write writes each file once.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from spmdfix.cli.output import diff_path
from spmdfix.cli.tally import Tally
from spmdfix.files import FileError, read_source, write_source
from spmdfix.diffs import unified_diff
from spmdfix.results import Checked, FileResult, Fixed
from spmdfix.runner import Job, cross_module_fixes, display_path


def with_cross_module_fixes(
    jobs: list[Job], outcomes: list[FileResult], tally: Tally
) -> tuple[list[FileResult], dict[str, tuple[str, str]]]:
    """Results with the fixes that edit other modules applied too, and the (old, new) texts of the other
    modules they change (those that are not files of this run, or that had nothing else to change)."""
    cross = cross_module_fixes(jobs, outcomes)
    for message in cross.errors:
        click.echo(message, err=True)
        tally.errors += 1
    # (no early return when no text changed here: the findings left may still have changed)
    others = dict(cross.texts)
    out = []
    for i, o in enumerate(outcomes):
        if isinstance(o, (Checked, Fixed)) and o.source is not None and others and (key := str(o.path.resolve())) in others:
            new = others.pop(key)[1]
            mine = tuple(f for f in cross.applied_by.get(i, ()))
            o = o.rewritten(new, cross.remaining.get(i, o.findings), mine)
        elif i in cross.remaining:
            o = replace(o, findings=cross.remaining[i])
            tally.applied.update(str(f.transform) for f in cross.applied_by.get(i, ()))
        out.append(o)
    return out, others


def fix_others(others: dict[str, tuple[str, str]], diff: bool, tally: Tally) -> None:
    """Show (`--diff`) or write the other modules that cross-module fixes changed."""
    for path, (old, new) in sorted(others.items()):
        shown = display_path(Path(path))
        tally.changed += 1
        if diff:
            named = diff_path(Path(path))
            tally.diffs.append((named, unified_diff(named, old, new)))
            continue
        try:
            write_source(read_source(Path(path)), new)
        except FileError as err:
            click.echo(f"{shown}: {err}", err=True)
            tally.errors += 1
            continue
        click.echo(f"{shown}: changed by a fix of another module", err=True)
