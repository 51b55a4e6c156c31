"""`spmdfix fix --interactive`: each fix shown as a diff and applied only when the user says so."""

from __future__ import annotations

import functools
import os
from dataclasses import replace
from pathlib import Path

import click

from spmdfix import notebook, pipeline, rules
from spmdfix.cli.invocation import Run
from spmdfix.cli.tally import Tally
from spmdfix.cli.output import diff_path
from spmdfix.diffs import unified_diff
from spmdfix.fix_engine import waits
from spmdfix.files import FileError, NotAsJudged, read_source, read_unchanged, text_of, write_source, write_together
from spmdfix.model import Edit, Finding, Fix, FixId
from spmdfix.positions import apply_edits
from spmdfix.reaching import reported_once
from spmdfix.results import Checked, Fixed, Mode
from spmdfix.runner import Job, cross_module_fixes, display_path
from spmdfix.runner.one_file import fix_reviewed, project_index_of


class Asker:
    """Answers for one file: each offered fix shown as one diff per file it edits, then [y]es / [n]o / [a]ll /
    [q]uit. A fix across modules (the importer's vmap of a partial run, a config module's mesh) shows the diff
    of each module it edits, in sorted path order; the target of the edits without a path is the module the
    fix engine says it reviews (`reviewing`), the job's file by default.

    refusals: the ids of the fixes refused so far in the run, by the real path of the module they are planned
    in, shared by the run's Askers: a fix of train.py's vmap refused while model.py (a partial run) was
    reviewed is not asked about again when train.py's own turn comes."""

    def __init__(self, display: str, shown=None, path: str = "", refusals: dict[str, set[FixId]] | None = None) -> None:
        self.display = display
        # What a diff shows of an analysed text: a notebook's virtual module with its magics put back
        # (`notebook.as_written`), not the placeholders the analysis reads; a module as it is.
        self.shown = shown or (lambda text: text)
        self.all = False
        self.quit = False
        self.said_no = 0  # how many fixes were refused ([n]o) in this file's turn
        self.path = path  # the job's file (absolute), "" when unknown
        self.target = ""  # the module whose edits have no path ("": the job's file)
        # The ids of the fixes refused, per module: not asked again in later passes nor by later files' Askers.
        # Ids, not titles: two sites may have fixes with the same title, and refusing one must not hide the
        # other. The edits accepted in a pass move the sites of the next text; `FixId.moved` follows them.
        self.refusals = {} if refusals is None else refusals
        self.refused: set[FixId] = self.refusals.setdefault(path, set())
        self._accepted_edits: list[Edit] = []
        # The current text of each other module a fix across modules edits, as this run changed it (the
        # engine's texts are not the reviewer's to see; a module is read when first shown).
        self.texts: dict[str, str] = {}
        # The reported findings of the pass being reviewed (`considering`), whose fixes are offered: each question
        # names those its fix is for. `cells`: for a notebook, its text's `CellIndex` (positions by cell).
        self.findings: tuple[Finding, ...] = ()
        self.cells = None

    def reviewing(self, target: str) -> None:
        """Called by the fix engine before the passes over `target` (`fix_engine.Reviewer`)."""
        # (the per-file step names the job's file as given, the step across modules by its real path)
        target = "" if not target or os.path.realpath(target) == self.path else target
        if target != self.target:
            self._move_refused()  # (the edits accepted in the module left: its ids follow them)
            self.refused = self.refusals.setdefault(os.path.realpath(target) if target else self.path, set())
        self.target = target

    def considering(self, findings: tuple[Finding, ...]) -> None:
        """Called by the fix engine before each pass is reviewed: the target's reported findings."""
        self.findings = findings

    def _move_refused(self) -> None:
        """The refused ids of the module reviewed, moved by the edits accepted in it since they were refused."""
        if self._accepted_edits:
            moved = {fix_id.moved(self._accepted_edits) for fix_id in self.refused}
            self.refused.clear()
            self.refused.update(moved)  # (in place: the run's `refusals` holds this set)
            self._accepted_edits = []

    def __call__(self, text: str, offered: list[tuple[Fix, tuple[Edit, ...]]]) -> list[FixId]:
        self._move_refused()
        accepted: list[FixId] = []
        taken: list[Edit] = []  # the edits of the fixes accepted in this pass, and their isolation groups
        groups: set = set()
        for fix, edits in offered:
            if self.quit or fix.id in self.refused:
                continue
            if waits(fix, edits, taken, groups):
                # The engine leaves it for the next pass (`fix_engine.accept`), where it is planned again on the
                # changed text and asked about then; shown now, its edits would land on text they were not
                # built for (newuser10's trial: a second add-axis of config.py's mesh shown as
                # `make_mesh((1, 1, 2, 4)"batch", , (...` and, accepted, not applied).
                continue
            if self.all:
                self._accept(fix, edits, accepted)
                _take(fix, edits, taken, groups)
                continue
            answer = self._ask(text, fix, edits)
            if answer in ("y", "a"):
                self._accept(fix, edits, accepted)
                _take(fix, edits, taken, groups)
                self.all = answer == "a"
            elif answer == "n":
                self.refused.add(fix.id)
                self.said_no += 1
            else:
                self.quit = True
        return accepted

    def removing(self, path: str, text: str, edits: tuple[Edit, ...]) -> bool:
        """Called by the fix engine after a target's passes (`fix_engine.Reviewer`): whether to remove, from the
        module at `path` (the engine's key: the job's file or the target as given, or another module's absolute
        path) whose text is `text`, the imports the accepted fixes left unread (`edits`, offsets of `text`):
        shown as a diff and asked like a fix ([a]ll and [q]uit as they were answered)."""
        if self.quit:
            return False
        new_text = apply_edits(text, list(edits))
        own = not path or os.path.realpath(path) in (self.path, os.path.realpath(self.target or self.path))
        if own:
            name = self.display if not self.target else diff_path(Path(self.target))
            diff = unified_diff(name, self.shown(text), self.shown(new_text))
        else:
            diff = unified_diff(diff_path(Path(path)), text, new_text)
        if not self.all:
            click.echo(diff, nl=False)
            click.echo("remove-import: the accepted fixes left these imported names unread, and nothing else may read them")
            answer = click.prompt(
                "Remove them? [y]es / [n]o / [a]ll in this file / [q]uit",
                type=click.Choice(["y", "n", "a", "q"]),
                show_choices=False,
            )
            if answer == "q":
                self.quit = True
            if answer in ("n", "q"):
                return False
            self.all = answer == "a"
        if own:
            self._accepted_edits.extend(edits)  # (the refused ids of the module follow them: `_move_refused`)
        else:
            self.texts[path] = new_text
            self.refusals.pop(os.path.realpath(path), None)  # (as `_accept`: its refused ids name older sites)
        return True

    def _accept(self, fix: Fix, edits: tuple[Edit, ...], accepted: list[FixId]) -> None:
        accepted.append(fix.id)
        self._accepted_edits.extend(e for e in edits if not e.span.path)
        for path, module_edits in _by_path(edits).items():
            if path:
                self.texts[path] = apply_edits(self._text(path), [_local(e) for e in module_edits])
                # (its refused ids name sites of its text before this edit: forgotten, so asked again)
                self.refusals.pop(os.path.realpath(path), None)

    def _text(self, path: str) -> str:
        if path not in self.texts:
            self.texts[path] = text_of(path) or ""
        return self.texts[path]

    def _ask(self, text: str, fix: Fix, edits: tuple[Edit, ...]) -> str:
        for line in self._for_findings(text, fix):
            click.echo(line)
        by_path = _by_path(edits)
        own = by_path.pop("", [])
        diffs = []  # (the path a diff names, the diff), shown in that order as `fix --diff` shows them
        if own or not by_path:
            name = self.display if not self.target else diff_path(Path(self.target))
            diffs.append((name, unified_diff(name, self.shown(text), self.shown(apply_edits(text, own)))))
        for path in by_path:
            old = self._text(path)
            new = apply_edits(old, [_local(e) for e in by_path[path]])
            diffs.append((diff_path(Path(path)), unified_diff(diff_path(Path(path)), old, new)))
        for _, diff in sorted(diffs):
            click.echo(diff, nl=False)
        click.echo(f"{fix.transform} ({fix.applicability}): {fix.title} — {fix.reason}")
        return click.prompt(
            "Apply this fix? [y]es / [n]o / [a]ll in this file / [q]uit",
            type=click.Choice(["y", "n", "a", "q"]),
            show_choices=False,
        )


    def _for_findings(self, text: str, fix: Fix) -> list[str]:
        """`This fix is for:` and a line per finding the fix is for, `path:row:col: CODE message` as `check`
        says it (each finding whose fixes include this one: findings that share a fix are named together),
        ended by ` (vmap at path:row:col)` when its vmap lies in another file."""
        from spmdfix.report import FileReport, location, vmap_places  # (the text report's positions, cells included)

        these = [f for f in self.findings if any(x.id == fix.id for x in f.fixes)]
        if not these:
            return []
        display = self.display if not self.target else diff_path(Path(self.target))
        report = FileReport(display, self.target or self.path, text, tuple(these))
        cells = self.cells(text) if self.cells is not None and not self.target else None
        lines = []
        for f, vmap in zip(these, vmap_places(report, cells)):
            where = location(report, f.span, cells)
            line = f"  {where}: {f.code} {f.message}"
            # (a finding of a vmap of another module ends with where that vmap is: two vmaps reaching one spec give
            # findings that read alike, each with its own fixes and so its own prompt; newuser13)
            own_file = where.rsplit(":", 2)[0]
            lines.append(f"{line} (vmap at {vmap})" if vmap and vmap.rsplit(":", 2)[0] != own_file else line)
        return ["This fix is for:"] + lines


def _take(fix: Fix, edits: tuple[Edit, ...], taken: list[Edit], groups: set) -> None:
    """Record an accepted fix as `fix_engine.accept` records it (its edits, its isolation group)."""
    taken.extend(edits)
    if fix.isolation is not None:
        groups.add(fix.isolation)


def _by_path(edits: tuple[Edit, ...]) -> dict[str, list[Edit]]:
    out: dict[str, list[Edit]] = {}
    for edit in edits:
        out.setdefault(edit.span.path, []).append(edit)
    return out


def _local(edit: Edit) -> Edit:
    """An edit of another module with its span's offsets only (as `apply_edits` takes them)."""
    return replace(edit, span=replace(edit.span, path=""))


def _as_written(nb: notebook.Notebook, text: str) -> str:
    try:
        return notebook.as_written(nb, text)
    except notebook.NotebookError:
        return text  # (the fix itself is refused when it loses a magic line: `notebook.render`)


def interactive_fix(run: Run) -> int:
    """`fix --interactive`: files one by one, in this process; the exit code. The findings left are counted as
    `fix` counts them: each once, a finding a file of the run also reports from its own side left to it
    (`reaching.reported_once`)."""
    tally = Tally()
    left: list = []
    refusals: dict[str, set[FixId]] = {}  # (the run's: a fix refused from one file is not asked about again)
    refused = 0
    for path in sorted(run.sources(), key=lambda p: p.parts):
        job = run.job(path, Mode.FIX)
        asker = Asker(job.display, path=os.path.realpath(job.path), refusals=refusals)
        left.append(_interactive_file(job, asker, tally))
        refused += asker.said_no
        if asker.quit:
            break
    tally.remaining += sum(len(o.findings) for o in reported_once([o for o in left if o is not None]))
    applied = sum(tally.applied.values())
    click.echo(
        f"{_count(tally.changed, 'file')} changed, {_count(applied, 'fix', 'fixes')} applied, "
        f"{_count(tally.remaining, 'finding')} left.",
        err=True,
    )
    if refused and tally.remaining:
        # Each finding is offered the fix `auto` (or --strategy) chooses; the other fixes of a refused one
        # are not asked about, so say where they are (a reviewer who said no usually wants another fix).
        click.echo(
            "Each finding is offered the one fix its --strategy chooses: `spmdfix check --show-fixes` lists the "
            "others, and `spmdfix fix --interactive --strategy NAME` offers one of them.",
            err=True,
        )
    return tally.exit_code(False, run.kw["exit_zero"])


def _count(n: int, noun: str, plural: str = "") -> str:
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def _interactive_file(job: Job, asker: Asker, tally: Tally) -> Checked | None:
    """Ask about each fix of one file, also those that edit other modules of the project, then write every
    module the accepted ones change. Returns the file's findings left (as a result `reported_once` takes),
    None when it has none to count there (counted in `tally` already, or skipped)."""
    try:
        if job.path.stat().st_size > job.max_bytes:
            raise pipeline.Skip("skipped: over the --max-file-size limit")
        source = read_source(job.path)
        prepared = pipeline.prepare(job.path, source.text, job.include_generated)
    except pipeline.Skip as err:
        click.echo(f"{job.display}: {err}", err=True)
        return None
    except (FileError, OSError, notebook.NotebookError) as err:
        click.echo(f"{job.display}: {rules.UNREADABLE.code} {err}", err=True)
        tally.remaining += 1
        return None
    if prepared.nb is not None:
        asker.shown = functools.partial(_as_written, prepared.nb)
        asker.cells = prepared.cells
        return _notebook_file(job, source, prepared, asker, tally)
    # A module: the steps of `fix` (its own fixes, then those that edit other modules of the project or
    # that a partial run found in the importers), each fix asked about.
    first = fix_reviewed(job, source, prepared, asker)
    cross = cross_module_fixes([job], [first], review=asker)
    for error in (*first.errors, *cross.errors):
        click.echo(f"{job.display}: {error}" if not error.startswith(job.display) else error, err=True)
        tally.internal = tally.internal or "internal error" in error
    own = str(job.path.resolve())
    texts = {path: new for path, (_, new) in cross.texts.items()}
    olds = {path: old for path, (old, _) in cross.texts.items()}
    if isinstance(first, Fixed) and own not in texts and first.new_text != source.text:
        texts[own] = first.new_text
    applied = (*first.applied, *cross.applied_by.get(0, ())) if isinstance(first, Fixed) else cross.applied_by.get(0, ())
    findings = cross.remaining.get(0, first.findings)
    # What the accepted fixes were judged against: the first step's reads, and those of the step across modules.
    judged = [*first.depends, *cross.read.items()]
    if texts and applied and not _write_all(job, source, texts, olds, applied, tally, judged):
        # nothing written: the file keeps the findings it was read with
        if isinstance(first, Fixed):
            tally.remaining += first.found_before - len(first.findings)
        findings = first.findings
    return Checked(job.path, job.display, findings=tuple(findings))


def _write_all(
    job: Job, source, texts: dict[str, str], olds: dict[str, str], applied, tally: Tally, judged=()
) -> bool:
    """Write every module the accepted fixes changed (the job's file from the source as read), all of them or
    none (`files.write_together`: a fix across modules half-written leaves the program broken, the vmap's new
    axis in train.py and config.py's mesh without it), and only while every file of `judged` (what the fixes
    were judged against: `files.check_as_judged`) holds what was read; False when none was written."""
    own = str(job.path.resolve())
    try:
        changes = [
            (source if path == own else read_unchanged(path, olds.get(path)), texts[path]) for path in sorted(texts)
        ]
        written = {str(p) for p in write_together(changes, judged)}
    except NotAsJudged as err:
        click.echo(f"{job.display}: {err}; none of the fixes accepted for it is written", err=True)
        tally.errors += 1
        return False
    except FileError as err:
        shown = display_path(err.path) if err.path is not None else job.display
        several = " and other modules: none of them is written, so that no module is left half-fixed" if len(texts) > 1 else ""
        click.echo(f"{shown}: {err}; the fixes accepted for {job.display} edit it{several}", err=True)
        # A file error, as `fix` counts it (exit 1, the findings left), not an internal one (exit 2: breaker20,
        # `fix -i` exited 2 where `fix` exited 1 for the same read-only config.py)
        tally.errors += 1
        return False
    for path in sorted(texts):
        if path != own and path in written:
            click.echo(f"{display_path(Path(path))}: changed by a fix of {job.display}", err=True)
    tally.changed += len(written)
    tally.applied.update(str(f.transform) for f in applied)
    return True


def _notebook_file(job: Job, source, prepared: pipeline.Prepared, asker: Asker, tally: Tally) -> None:
    """A notebook, fixed alone (its cells are not modules of the project)."""
    # With the project's index, as `fix` analyses it: without one the notebook's imports are not followed, and a
    # vmap reaching an imported module's shard_map was neither offered nor counted (newuser10's trial).
    index = project_index_of(job)
    with index.recording() as judged:  # (the modules the fixes were judged against: unchanged when written)
        fixed = pipeline.fix_prepared(prepared, job.settings, review=asker, path=job.path, index=index)
    for error in fixed.errors:
        click.echo(f"{job.display}: {error}", err=True)
        tally.internal = tally.internal or error.startswith("internal error")
    tally.remaining += len(fixed.remaining)
    if not fixed.applied:
        return None
    try:
        write_source(source, prepared.render(fixed.text), judged)
    except FileError as err:
        click.echo(f"{job.display}: {err}", err=True)
        tally.remaining += fixed.found_before - len(fixed.remaining)
        return None
    except notebook.NotebookError as err:
        click.echo(f"{job.display}: internal error: {err}; nothing written", err=True)
        tally.internal = True
        return None
    tally.changed += 1
    tally.applied.update(str(f.transform) for f in fixed.applied)
    return None
