"""`spmdfix fix --interactive`: each fix shown as a diff and applied only when the user says so."""

from __future__ import annotations

import functools

import click

from spmdfix import notebook, pipeline, rules
from spmdfix.cli.invocation import Run
from spmdfix.cli.tally import Tally
from spmdfix.files import FileError, read_source, write_source
from spmdfix.model import Edit, Fix, FixId
from spmdfix.positions import apply_edits
from spmdfix.report import unified_diff
from spmdfix.results import Mode
from spmdfix.runner import Job


class Asker:
    """Answers for one file: each offered fix shown as one diff, then [y]es / [n]o / [a]ll / [q]uit."""

    def __init__(self, display: str, shown=None) -> None:
        self.display = display
        # What a diff shows of an analysed text: a notebook's virtual module with its magics put back
        # (`notebook.as_written`), not the placeholders the analysis reads; a module as it is.
        self.shown = shown or (lambda text: text)
        self.all = False
        self.quit = False
        # The ids of the fixes refused: not asked again in later passes. Ids, not titles: two sites may have
        # fixes with the same title, and refusing one must not hide the other. The edits accepted in a pass
        # move the sites of the next text; `FixId.moved` follows them.
        self.refused: set[FixId] = set()
        self._accepted_edits: list[Edit] = []

    def __call__(self, text: str, offered: list[tuple[Fix, tuple[Edit, ...]]]) -> list[FixId]:
        if self._accepted_edits:
            self.refused = {fix_id.moved(self._accepted_edits) for fix_id in self.refused}
            self._accepted_edits = []
        accepted: list[FixId] = []
        for fix, edits in offered:
            if self.quit or fix.id in self.refused:
                continue
            if self.all:
                accepted.append(fix.id)
                self._accepted_edits.extend(edits)
                continue
            answer = self._ask(text, fix, edits)
            if answer in ("y", "a"):
                accepted.append(fix.id)
                self._accepted_edits.extend(edits)
                self.all = answer == "a"
            elif answer == "n":
                self.refused.add(fix.id)
            else:
                self.quit = True
        return accepted

    def _ask(self, text: str, fix: Fix, edits: tuple[Edit, ...]) -> str:
        click.echo(unified_diff(self.display, self.shown(text), self.shown(apply_edits(text, edits))), nl=False)
        click.echo(f"{fix.transform} ({fix.applicability}): {fix.title} — {fix.reason}")
        return click.prompt(
            "Apply this fix? [y]es / [n]o / [a]ll in this file / [q]uit",
            type=click.Choice(["y", "n", "a", "q"]),
            show_choices=False,
        )


def _as_written(nb: notebook.Notebook, text: str) -> str:
    try:
        return notebook.as_written(nb, text)
    except notebook.NotebookError:
        return text  # (the fix itself is refused when it loses a magic line: `notebook.render`)


def interactive_fix(run: Run) -> int:
    """`fix --interactive`: files one by one, in this process; the exit code."""
    tally = Tally()
    for path in sorted(run.sources(), key=lambda p: p.parts):
        job = run.job(path, Mode.FIX)
        asker = Asker(job.display)
        _interactive_file(job, asker, tally)
        if asker.quit:
            break
    click.echo(
        f"{tally.changed} file{'s' if tally.changed != 1 else ''} changed, "
        f"{sum(tally.applied.values())} fixes applied, {tally.remaining} findings left.",
        err=True,
    )
    return tally.exit_code(False, run.kw["exit_zero"])


def _interactive_file(job: Job, asker: Asker, tally: Tally) -> None:
    """Ask about each fix of one file, then write the accepted ones."""
    try:
        if job.path.stat().st_size > job.max_bytes:
            raise pipeline.Skip("skipped: over the --max-file-size limit")
        source = read_source(job.path)
        prepared = pipeline.prepare(job.path, source.text, job.include_generated)
    except pipeline.Skip as err:
        click.echo(f"{job.display}: {err}", err=True)
        return
    except (FileError, OSError, notebook.NotebookError) as err:
        click.echo(f"{job.display}: {rules.UNREADABLE.code} {err}", err=True)
        tally.remaining += 1
        return
    if prepared.nb is not None:
        asker.shown = functools.partial(_as_written, prepared.nb)
    fixed = pipeline.fix_prepared(prepared, job.settings, review=asker, path=job.path)
    for error in fixed.errors:
        click.echo(f"{job.display}: {error}", err=True)
        tally.internal = tally.internal or error.startswith("internal error")
    tally.remaining += len(fixed.remaining)
    if not fixed.applied:
        return
    try:
        write_source(source, prepared.render(fixed.text))
    except FileError as err:
        click.echo(f"{job.display}: {err}", err=True)
        tally.remaining += fixed.found_before - len(fixed.remaining)
        return
    except notebook.NotebookError as err:
        click.echo(f"{job.display}: internal error: {err}; nothing written", err=True)
        tally.internal = True
        return
    tally.changed += 1
    tally.applied.update(str(f.transform) for f in fixed.applied)
