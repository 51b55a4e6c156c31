"""`spmdfix fix` across modules: the fixes whose edits reach other modules of the project.

A finding may sit in a callee's module (the vmap in `pkg/pipeline.py`, the shard_map in `pkg/layers.py`),
and its fix may edit both. The per-file step leaves such fixes alone (`api.fix_source`); this step applies
them one module after the other in this process (`runner.cross_module_fixes`), starting from the texts the
per-file step produced, so that `--diff` shows one diff per file and a write writes each file once.
"""

from __future__ import annotations

from dataclasses import field, replace
from pathlib import Path

import click

from spmdfix.cli.output import diff_path
from spmdfix.cli.tally import Tally
from spmdfix.files import FileError, SourceFile, read_unchanged, source_of, write_together
from spmdfix.model import Fix
from spmdfix.perf import record
from spmdfix.diffs import file_diff
from spmdfix.results import Checked, FileResult, Fixed
from spmdfix.runner import Job, cross_module_fixes, display_path


def with_cross_module_fixes(
    jobs: list[Job], outcomes: list[FileResult], tally: Tally, writing: bool = False
) -> tuple[list[FileResult], dict[str, tuple[str, str]], "Credits"]:
    """Results with the fixes that edit other modules applied too, the (old, new) texts of the other
    modules they change (those that are not files of this run, or that had nothing else to change), and who
    changed what (`Credits`: what `fix` says of those modules and of fixes that edit only other files).

    writing: the texts are written now, whole or not at all (`files.write_together`; `Credits.written` holds
    them, which the writes of the run's files and of the others then pass over): when a module this step
    changes cannot be written (read-only, changed on disk since it was read, a failed write), none of its
    changes is kept (the results of the per-file step are returned, whose fixes each edit one file), so that no
    module is left half-fixed (an `spmd_axis_name='batch'` written into train.py while config.py's mesh stays
    without the axis)."""
    cross = cross_module_fixes(jobs, outcomes)
    for message in cross.errors:
        click.echo(message, err=True)
        tally.errors += 1
    written: frozenset[str] = frozenset()
    if writing and cross.texts:
        try:
            written = frozenset(str(p) for p in write_together(_together(cross.texts, outcomes)))
        except FileError as err:
            kinds = sorted({str(f.transform) for fixes in cross.applied_by.values() for f in fixes})
            shown = display_path(err.path) if err.path is not None else "a module"
            click.echo(
                f"{shown}: {err}; the fixes that edit it and other modules ({', '.join(kinds) or 'across modules'}) "
                "are not applied, so that no module is left half-fixed",
                err=True,
            )
            tally.errors += 1
            return list(outcomes), {}, Credits({})
    # (no early return when no text changed here: the findings left may still have changed)
    others = dict(cross.texts)
    credits = Credits(
        {path: tuple(jobs[i].display for i in by) for path, by in cross.changed_by.items()}, written=written
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


def _together(texts: dict[str, tuple[str, str]], outcomes: list[FileResult]) -> list[tuple[SourceFile, str]]:
    """What `write_together` writes for the texts the step across modules changed: a run file from its source
    as the run read it; another module from its bytes now, which must still hold the text the fixes were
    computed from. Raises `FileError` (with the file) when a module cannot be read or changed since."""
    sources = {
        str(o.path.resolve()): o.source for o in outcomes if isinstance(o, (Checked, Fixed)) and o.source is not None
    }
    return [(sources.get(path) or read_unchanged(path, old), new) for path, (old, new) in sorted(texts.items())]


@record
class Credits:
    """Who changed what in a run's step across modules: `changers`, the displays of the run's files whose
    fixes changed each other module (by absolute path); `elsewhere`, each run file whose applied fixes edit
    only other modules, with those fixes and the modules each of them edits (displays, one tuple a fix)."""

    changers: dict[str, tuple[str, ...]]
    elsewhere: list[tuple[str, tuple[Fix, ...], tuple[tuple[str, ...], ...]]] = field(default_factory=list)
    written: frozenset[str] = frozenset()  # the modules `write_together` wrote already (absolute paths)

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
