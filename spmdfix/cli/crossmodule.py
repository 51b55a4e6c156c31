"""`spmdfix fix` across modules: the fixes whose edits reach other modules of the project.

A finding may sit in a callee's module (the vmap in `pkg/pipeline.py`, the shard_map in `pkg/layers.py`),
and its fix may edit both. The per-file step leaves such fixes alone (`api.fix_source`); this step applies
them one module after the other in this process (`runner.cross_module_fixes`), starting from the texts the
per-file step produced, so that `--diff` shows one diff per file and a write writes each file once.
"""

from __future__ import annotations

import os
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from spmdfix.cli.output import diff_path
from spmdfix.cli.tally import Tally
from spmdfix.files import FileError, NotAsJudged, SourceFile, read_unchanged, source_of, write_together
from spmdfix.model import Fix
from spmdfix.perf import record
from spmdfix.diffs import file_diff
from spmdfix.results import Checked, FileResult, Fixed
from spmdfix.runner import Job, cross_module_fixes, display_path
from spmdfix.stamps import digest_bytes

if TYPE_CHECKING:
    from spmdfix.runner import CrossModuleFixes


def with_cross_module_fixes(
    jobs: list[Job], outcomes: list[FileResult], tally: Tally, writing: bool = False
) -> tuple[list[FileResult], dict[str, tuple[str, str]], "Credits"]:
    """Results with the fixes that edit other modules applied too, the (old, new) texts of the other
    modules they change (those that are not files of this run, or that had nothing else to change), and who
    changed what (`Credits`: what `fix` says of those modules and of fixes that edit only other files).

    writing: the texts are written now, whole or not at all (`files.write_together`; `Credits.written` holds
    them, which the writes of the run's files and of the others then pass over), with the run files the first
    step fixed whose fixed text they were judged against, and only while every file their judgement read
    holds what it read (`CrossModuleFixes.read`, `files.check_as_judged`: model.py, which add-axis does not
    edit, saved by an editor meanwhile): when a module this step changes cannot be written (read-only, other
    hard links, changed on disk since it was read, a failed write) or a file judged changed, none of its
    changes is kept (the results of the per-file step are returned, whose fixes each edit one file), so that no
    module is left half-fixed (an `spmd_axis_name='batch'` written into train.py while config.py's mesh stays
    without the axis)."""
    cross = cross_module_fixes(jobs, outcomes)
    for message in cross.errors:
        click.echo(message, err=True)
        tally.errors += 1
    written: frozenset[str] = frozenset()
    replaced: dict[str, str] = {}
    if writing and cross.texts:
        try:
            changes = _together(cross.texts, outcomes, cross.overlaid)
            written = frozenset(str(p) for p in write_together(changes, _rests_on(cross, changes, outcomes)))
            replaced = {os.path.realpath(source.path): digest_bytes(source.raw) for source, _ in changes}
        except FileError as err:
            kinds = sorted({str(f.transform) for fixes in cross.applied_by.values() for f in fixes})
            shown = display_path(err.path) if err.path is not None else "a module"
            named = ", ".join(kinds) or "across modules"
            if isinstance(err, NotAsJudged):
                # (the module need not be one the fixes edit: model.py, whose specs add-axis was judged on)
                said = f"changed on disk since the fixes across modules ({named}) were judged against it; none of"
                said += " them is applied (nothing written), so that no module is fixed on a judgement that no longer holds"
            else:
                said = f"{err}; the fixes that edit it and other modules ({named}) are not applied, so that no module"
                said += " is left half-fixed"
            click.echo(f"{shown}: {said}", err=True)
            tally.errors += 1
            return list(outcomes), {}, Credits({})
    # (no early return when no text changed here: the findings left may still have changed)
    others = dict(cross.texts)
    credits = Credits(
        {path: tuple(jobs[i].display for i in by) for path, by in cross.changed_by.items()},
        written=written,
        replaced=replaced,
    )
    out = []
    for i, o in enumerate(outcomes):
        if isinstance(o, (Checked, Fixed)) and o.source is not None and others and (key := str(o.path.resolve())) in others:
            new = others.pop(key)[1]
            mine = tuple(f for f in cross.applied_by.get(i, ()))
            o = o.rewritten(new, cross.remaining.get(i, o.findings), mine)
        elif i in cross.remaining:
            o = replace(o, findings=cross.remaining[i])
            done = cross.applied_by.get(i, ())
            tally.applied.update(str(f.transform) for f in done)
            if done:
                # The file itself is unchanged (a partial run's fix edits the importer and the config module):
                # said here, or the run would name the files changed and never the fix nor the finding's file.
                where = tuple(display_path(Path(p)) for p, by in sorted(cross.changed_by.items()) if i in by)
                each = tuple(tuple(display_path(Path(p)) for p in paths) for paths in cross.edited_by.get(i, ()))
                credits.elsewhere.append((o.display, done, each if len(each) == len(done) else (where,) * len(done)))
        out.append(o)
    return out, others, credits


def _together(
    texts: dict[str, tuple[str, str]], outcomes: list[FileResult], overlaid: frozenset[str] = frozenset()
) -> list[tuple[SourceFile, str]]:
    """What `write_together` writes for the texts the step across modules changed: a run file from its source
    as the run read it; another module from its bytes now, which must still hold the text the fixes were
    computed from. And each run file the first step fixed whose fixed text the fixes were judged against
    (`overlaid`, `CrossModuleFixes.overlaid`): they rest on it, so it is written with them, all or none.
    Raises `FileError` (with the file) when a module cannot be read or changed since."""
    sources = {
        str(o.path.resolve()): o.source for o in outcomes if isinstance(o, (Checked, Fixed)) and o.source is not None
    }
    out = [(sources.get(path) or read_unchanged(path, old), new) for path, (old, new) in sorted(texts.items())]
    for o in outcomes:
        if isinstance(o, Fixed) and o.cells is None and (key := str(o.path.resolve())) in overlaid and key not in texts:
            out.append((o.source, o.new_text))
    return out


def _rests_on(
    cross: CrossModuleFixes, changes: list[tuple[SourceFile, str]], outcomes: list[FileResult]
) -> list[tuple[str, str | None]]:
    """What the fixes across modules rest on (`files.write_together`'s `rests_on`): every file their judgement
    read (`CrossModuleFixes.read`), and what the first step's analysis of each run file written with them
    read (`Fixed.depends`: its own fixes are written in the same write)."""
    out = list(cross.read.items())
    written = {os.path.realpath(source.path) for source, _ in changes}
    for o in outcomes:
        if isinstance(o, Fixed) and os.path.realpath(o.path) in written:
            out.extend(o.depends)
    return out


@record
class Credits:
    """Who changed what in a run's step across modules: `changers`, the displays of the run's files whose
    fixes changed each other module (by absolute path); `elsewhere`, each run file whose applied fixes edit
    only other modules, with those fixes and the modules each of them edits (displays, one tuple a fix)."""

    changers: dict[str, tuple[str, ...]]
    elsewhere: list[tuple[str, tuple[Fix, ...], tuple[tuple[str, ...], ...]]] = field(default_factory=list)
    written: frozenset[str] = frozenset()  # the modules `write_together` wrote already (absolute paths)
    # The bytes each of those writes replaced (real path -> SHA-256): what a later write compares the reads of
    # its judgement with (`files.left_to_check`), the files holding their new text by then.
    replaced: dict[str, str] = field(default_factory=dict)

    def say_elsewhere(self) -> None:
        """`FILE: applied T (safety), editing A, B: title — reason`, for each fix that changed only other files,
        naming the files that fix edits."""
        for display, fixes, each in self.elsewhere:
            for f, where in zip(fixes, each):
                to = f", editing {', '.join(where)}" if where else ""
                click.echo(f"{display}: applied {f.transform} ({f.applicability}){to}: {f.title} — {f.reason}", err=True)

    def changer(self, path: str) -> str:
        """Who changed the other module `path`: the run's files whose fixes did, else "another module"."""
        return ", ".join(self.changers.get(path, ())) or "another module"


def fix_others(
    others: dict[str, tuple[str, str]], diff: bool, tally: Tally, credits: Credits | None = None, quiet: bool = False
) -> None:
    """Show (`--diff`) the other modules that cross-module fixes changed, or say who changed each once
    `with_cross_module_fixes` wrote them (not with `quiet`: `-q` prints findings only, as it leaves out the
    "applied" lines)."""
    for path, (old, new) in sorted(others.items()):
        shown = display_path(Path(path))
        tally.changed += 1
        if diff:
            named = diff_path(Path(path))
            encoding = _encoding_of(path)
            tally.diffs.append((named, file_diff(named, old.encode(encoding), new.encode(encoding))))
            continue
        # (written already, with the run's files they go with: `with_cross_module_fixes`, `writing`)
        if not quiet:
            changer = credits.changer(path) if credits is not None else "another module"
            click.echo(f"{shown}: changed by a fix of {changer}", err=True)


def _encoding_of(path: str) -> str:
    """The encoding `fix` writes the module at `path` back in (its BOM or PEP 263 cookie, as read now): what
    its `--diff` is written in. UTF-8 when it cannot be read (a fix was computed from it, so it could be)."""
    found = source_of(path)
    return found.encoding if found is not None else "utf-8"
