"""`spmdfix fix`: apply the chosen fixes in place, print them as a diff (`--diff`), or fix stdin to stdout."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from spmdfix import migration, rules
from spmdfix.cli import terminal
from spmdfix.cli.crossmodule import fix_others, with_cross_module_fixes
from spmdfix.perf import frozen
from spmdfix.reaching import reported_once
from spmdfix.cli.interactive import interactive_fix
from spmdfix.cli.invocation import (
    EXIT_CLEAN,
    EXIT_ERROR,
    Run,
    guard_config,
)
from spmdfix.cli.options import common_options, exit_non_zero_on_fix_option
from spmdfix.cli.output import (
    TEXT_FORMATS,
    diff_path,
    emit,
    fixes_not_shown,
    render,
    report_options,
    say_problems,
    statistics_report,
    summary,
)
from spmdfix.cli.tally import Tally
from spmdfix.files import FileError, encode, left_to_check, write_source, write_text_atomically
from spmdfix.migration import report_suffixes
from spmdfix.model import STRATEGIES, Transform, choose_fix
from spmdfix.noqa import vmap_place
from spmdfix.paths import relpath
from spmdfix.diffs import file_diff
from spmdfix.results import Checked, Failed, FileResult, Fixed, Mode, Unreadable
from spmdfix.runner import Job
from spmdfix.stamps import digest_bytes


STRATEGY_HELP = (
    "Transform to apply: "
    + ", ".join(t.value for t in Transform)
    + "; or auto [default]: per finding, the first safe fix in that order, else (with --unsafe-fixes) the"
    " first unsafe one."
)


@click.command(short_help="Apply the fixes (or show them as a diff).")
@common_options
@report_options
@click.option("--strategy", type=click.Choice([str(s) for s in STRATEGIES]), default=None, help=STRATEGY_HELP)
@click.option(
    "--diff",
    is_flag=True,
    help="Write nothing; print a unified diff (paths relative to the working directory, for `git apply`;"
    " `patch -p1` for files below it) and exit 1 when there are changes.",
)
@click.option(
    "--interactive",
    "-i",
    is_flag=True,
    help="Show each fix as a diff and ask before applying it.",
)
@click.option(
    "--report",
    "report_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write a migration report to FILE (.html: one self-contained page; .md: Markdown): per file each"
    " finding, the fix chosen and why, the alternatives not taken and why, the diff, what is left; and totals.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Accepted as `check` accepts it (a command line switched between the two): `fix` neither reads nor"
    " writes the results cache, whose results hold no edits.",
)
@exit_non_zero_on_fix_option
@guard_config
def fix(
    diff: bool,
    interactive: bool,
    report_file: Path | None,
    output_format: str | None,
    output_file: Path | None,
    show_fixes: bool,
    statistics: bool,
    **kw,
) -> None:
    """Apply fixes to PATHS in place (or show them with --diff; `-` reads stdin and writes stdout; default:
    the working directory). With --output-format, --statistics or --show-fixes, the findings left are
    reported as `check` reports them."""
    run = Run(kw)
    if kw["show_settings"]:
        run.show_settings()
        return
    report = output_format is not None or statistics or show_fixes or output_file is not None
    if report and (diff or run.stdin or interactive):
        raise click.UsageError("a report of the findings left cannot be combined with --diff, stdin or --interactive")
    if statistics and (output_format or "full") not in (*TEXT_FORMATS, "json"):
        raise click.UsageError("--statistics prints text or json")
    if report_file is not None:
        if run.stdin or interactive:
            raise click.UsageError("--report cannot be combined with stdin or --interactive")
        if report_file.suffix.lower() not in report_suffixes():
            raise click.UsageError(f"--report writes .html or .md, not {report_file.name}")
    if interactive:
        if diff or run.stdin:
            raise click.UsageError("--interactive cannot be combined with --diff or stdin")
        if not terminal.stdin_is_tty():
            click.echo("Error: --interactive needs a terminal on stdin to ask about each fix.", err=True)
            sys.exit(EXIT_ERROR)
        sys.exit(interactive_fix(run))
    if run.stdin and run.stdin_excluded():
        if not diff:
            terminal.binary(sys.stdout).write(run.stdin_bytes())
        sys.exit(EXIT_CLEAN)
    # (the report needs every fix and refusal of the findings as they were: a check of the files first)
    asked = None if report_file is None else ReportRequest(report_file, run.outcomes(Mode.CHECK, every_file=True)[1])
    if report:
        sys.exit(fix_and_report(run, output_format or "full", output_file, show_fixes, statistics, report=asked))
    sys.exit(fix_run(run, diff, report=asked))


@frozen(slots=True)
class ReportRequest:
    """`fix --report FILE`: where to write the migration report, and the results of checking the run's files
    as they were (their findings with every fix and refusal), in the order of the fix run's files."""

    path: Path
    before: list[FileResult]


def _write_report(asked: ReportRequest, jobs: list[Job], outcomes: list[FileResult], others, diff: bool) -> None:
    """Build the migration report of the run (`spmdfix.migration`) and write it whole or not at all."""
    built = migration.build(asked.before, outcomes, others, [job.options for job in jobs], preview=diff)
    text = migration.render(built, asked.path.suffix)
    try:
        write_text_atomically(asked.path, text)
    except OSError as err:
        raise click.ClickException(f"cannot write {asked.path}: {err.strerror or err}") from err
    click.echo(f"Wrote the migration report to {asked.path}", err=True)


def fix_run(run: Run, diff: bool, report: ReportRequest | None = None) -> int:
    """`fix` (and `check --diff`): write every fix, or print them as a diff, with the closing summary, and
    the migration report `report` asks for; the exit code."""
    jobs, outcomes = run.outcomes(Mode.FIX)
    if run.stdin:
        return _fix_stdin(run, jobs, outcomes, diff)
    tally = Tally()
    outcomes = apply_fixes(run, jobs, outcomes, diff, tally, report)
    run.say(summary(jobs, outcomes, tally.errors, tally.applied, diff, tally.unwritten, unwritten_in=tally.unwritten_in))
    return tally.exit_code(diff, run.kw["exit_zero"], run.kw.get("exit_non_zero_on_fix", False))


def apply_fixes(
    run: Run,
    jobs: list[Job],
    outcomes: list[FileResult],
    diff: bool,
    tally: Tally,
    report: ReportRequest | None = None,
) -> list[FileResult]:
    """Write (or, with `diff`, print as a diff) every file the fix outcomes change, fixes that reach other
    modules included, and the migration report `report` asks for; the outcomes with those applied (their
    findings are what is left)."""
    outcomes, others, credits = with_cross_module_fixes(jobs, outcomes, tally, writing=not diff)
    outcomes = reported_once(outcomes)  # a finding left in model.py by train.py's vmap: model.py's, when both run
    for job, o in zip(jobs, outcomes):
        _fix_one(o, diff, tally, job, run, credits.written, credits.replaced)
    if not diff and not run.quiet:
        credits.say_elsewhere()
    fix_others(others, diff, tally, credits, quiet=run.quiet)
    tally.print_diffs()
    if report is not None:
        _write_report(report, jobs, outcomes, others, diff)
    # (an index is kept only by a process that imported the analysis: the workers usually did, not this one)
    if not diff and "spmdfix.api" in sys.modules:
        from spmdfix.api import forget_indexes

        forget_indexes([*(o.path for o in outcomes if isinstance(o, Fixed)), *others])
    return outcomes


def fix_and_report(
    run: Run,
    output_format: str,
    output_file: Path | None,
    show_fixes: bool,
    statistics: bool,
    baseline: Path | None = None,
    report: ReportRequest | None = None,
) -> int:
    """`check --fix` (and `fix` with a report option): apply the fixes, then report the findings left as
    `check` does (less those of `baseline`, `check --baseline`), with ruff's summary of what was fixed; the
    exit code (1 when findings are left)."""
    jobs, outcomes = run.outcomes(Mode.FIX)
    tally = Tally()
    outcomes = apply_fixes(run, jobs, outcomes, False, tally, report)
    baselined = 0
    if baseline is not None:
        from spmdfix.cli.baseline import with_baseline

        outcomes, baselined = with_baseline(run, baseline, outcomes)
        tally.remaining -= baselined
    unshown = fixes_not_shown(output_format, show_fixes, statistics)
    if unshown:
        run.warn(unshown)
    if not run.silent:
        if statistics:
            emit(statistics_report(jobs, outcomes, output_format), output_file)
        else:
            emit(render(jobs, outcomes, output_format, show_fixes, docs=lambda: run.docs), output_file)
    run.say(summary(
        jobs, outcomes, tally.errors, tally.applied, False, tally.unwritten, baselined=baselined,
        unwritten_in=tally.unwritten_in,
    ))
    return tally.exit_code(False, run.kw["exit_zero"], run.kw.get("exit_non_zero_on_fix", False))


def _fixes_elsewhere(o: FileResult, job: Job) -> list[str]:
    """The other files (sorted absolute paths) that the fixes the run's options choose for the findings left in
    `o` edit: such a fix (add-axis of a mesh in config.py for a spec in model.py) is not applied to stdin,
    which stands for one module only."""
    if not isinstance(o, (Checked, Fixed)):
        return []
    paths = set()
    for finding in o.findings:
        fix = choose_fix(finding, job.options.strategy, job.options.unsafe_fixes)
        if fix is not None:
            paths.update(edit.span.path for edit in fix.node_edits if edit.span.path)
    return sorted(paths)


def _fixed_from_importers(o: FileResult, job: Job) -> list[str]:
    """The modules (sorted absolute paths) holding the vmaps of the findings left in `o` whose chosen fix edits
    only this module (a strip of model.py's specs, for train.py's vmap): `fix FILE` applies such a fix from the
    importer (`runner.cross_module`, a partial run), which `fix -` does not run; said rather than left silent
    (breaker20: `fix - --stdin-filename pkg/model.py --strategy strip` applied nothing and said nothing, while
    `fix pkg/model.py` stripped the specs). A fix that edits other modules is `_fixes_elsewhere`'s."""
    if not isinstance(o, (Checked, Fixed)):
        return []
    paths = set()
    for finding in o.findings:
        fix = choose_fix(finding, job.options.strategy, job.options.unsafe_fixes)
        vmap = vmap_place(finding)
        if fix is not None and not fix.edits_other_modules and not finding.span.path and vmap is not None:
            paths.add(vmap.path)
    return sorted(paths)


def _said(o: FileResult) -> tuple[str, ...]:
    """What a fix run says of a file beyond its findings: its fixes' errors and notes (none for a file that
    was not fixed or checked)."""
    if isinstance(o, Fixed):
        return (*o.errors, *o.notes)
    return o.errors if isinstance(o, Checked) else ()


def _fix_one(
    o: FileResult,
    diff: bool,
    tally: Tally,
    job: Job,
    run: Run | None = None,
    written: frozenset[str] = frozenset(),
    replaced: dict[str, str] | None = None,
) -> None:
    """Report, diff or write one fix result (`written`: files a fix across modules wrote already, together with
    the other modules it edits: `crossmodule.with_cross_module_fixes`). replaced: the bytes each write of the
    run so far replaced (real path -> SHA-256, `Credits.replaced`), to which this write adds its own; a file
    the fix was judged against (`Fixed.depends`) must still hold what the judgement read (`files.left_to_check`,
    `files.check_as_judged`), else nothing is written (breaker20)."""
    replaced = {} if replaced is None else replaced
    if isinstance(o, Unreadable):
        if rules.UNREADABLE.code in job.enabled:
            click.echo(f"{o.display}: {rules.UNREADABLE.code} {o.reason}", err=True)
            tally.remaining += 1  # a finding (the summary counts it among them), not a file error
        return
    say_problems(o)
    if isinstance(o, Failed):
        tally.internal = True
        tally.errors += 1
        tally.remaining += len(o.findings)  # what checking the file found: fixing it failed, they remain
        return
    for message in _said(o):
        click.echo(f"{o.display}: {message}", err=True)
        if message.startswith("internal error"):
            tally.internal = True
            tally.errors += 1
    tally.remaining += len(o.findings)
    if not isinstance(o, Fixed):
        return
    tally.changed += 1
    if diff:
        tally.applied.update(str(f.transform) for f in o.applied)
        shown = diff_path(o.path)
        tally.diffs.append((shown, file_diff(shown, o.source.raw, encode(o.source, o.new_text))))
        return
    try:
        if not written or str(o.path.resolve()) not in written:
            # (what the fix was judged against: the finding's module, its chain; those this run wrote already
            # compared with the bytes their write replaced, the others on disk, just before the rename)
            write_source(o.source, o.new_text, left_to_check(o.depends, replaced))
            replaced[os.path.realpath(o.path)] = digest_bytes(o.source.raw)
    except FileError as err:
        click.echo(f"{o.display}: {err}", err=True)
        tally.unwritten += o.found_before - len(o.findings)  # the file keeps what it had
        tally.unwritten_in.append(o.display)
        tally.remaining += o.found_before - len(o.findings)
        tally.errors += 1
        return
    tally.applied.update(str(f.transform) for f in o.applied)
    if run is not None and run.quiet:
        return
    for f in o.applied:
        click.echo(f"{o.display}: applied {f.transform} ({f.applicability}): {f.title} — {f.reason}", err=True)


def _fix_stdin(run: Run, jobs: list[Job], outcomes: list[FileResult], diff: bool) -> int:
    """`fix -`: the fixed source (or a diff) on stdout, messages on stderr."""
    job, o = jobs[0], outcomes[0]
    stdout = terminal.binary(sys.stdout)
    tally = Tally()
    if diff:
        _fix_one(o, True, tally, job)
        tally.print_diffs()
    else:
        for message in _said(o):
            click.echo(f"{o.display}: {message}", err=True)
            tally.internal = tally.internal or message.startswith("internal error")
        say_problems(o)
        tally.internal = tally.internal or isinstance(o, Failed)
        tally.remaining = len(o.findings) + isinstance(o, Unreadable)
        if isinstance(o, Unreadable):
            click.echo(f"{o.display}: {rules.UNREADABLE.code} {o.reason}", err=True)
        if isinstance(o, Fixed):
            tally.applied.update(str(f.transform) for f in o.applied)
            stdout.write(o.new_text.encode(o.source.encoding))
        else:
            stdout.write(run.stdin_bytes())
    elsewhere = _fixes_elsewhere(o, job)
    if elsewhere:
        shown = ", ".join(relpath(p) for p in elsewhere)
        click.echo(
            f"{o.display}: the fix chosen for a finding left here also edits {shown}; stdin mode writes only "
            f"this module's text, so it was not applied: run `spmdfix fix {o.display}` to apply it across files",
            err=True,
        )
    importers = _fixed_from_importers(o, job)
    if importers:
        shown = ", ".join(relpath(p) for p in importers)
        click.echo(
            f"{o.display}: the fix chosen for a finding left here is applied from the vmap that places it here "
            f"(in {shown}), which stdin mode does not analyse for fixing, so it was not applied: run "
            f"`spmdfix fix {o.display}` to apply it",
            err=True,
        )
    click.echo(summary(jobs, outcomes, int(tally.internal), tally.applied, diff), err=True)
    return tally.exit_code(diff, run.kw["exit_zero"], run.kw.get("exit_non_zero_on_fix", False))
