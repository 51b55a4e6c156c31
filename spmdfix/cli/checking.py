"""`spmdfix check`: report findings, or (`--add-noqa`) add suppression comments to the lines that have them."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from spmdfix.reaching import reported_once

from spmdfix import rules
from spmdfix.cli.invocation import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    ConfigProblem,
    Run,
    guard_config,
)
from spmdfix.cli.options import common_options, exit_non_zero_on_fix_option
from spmdfix.cli.output import (
    TEXT_FORMATS,
    emit,
    fixes_not_shown,
    render,
    report_options,
    say_problems,
    statistics_report,
    summary,
    unreadable_reported,
)
from spmdfix.files import FileError, read_source, text_of, write_source
from spmdfix.model import Finding, Span
from spmdfix.positions import LineIndex
from spmdfix.runner import display_path
from spmdfix.results import Checked, Failed, FileResult, Fixed, Mode
from spmdfix.settings import ConfigError


@click.command(short_help="Report findings (and with --fix apply the safe fixes).")
@common_options
@report_options
@click.option(
    "--fix", "apply_fixes", is_flag=True, help="Apply the fixes `spmdfix fix` applies, then report what is left."
)
@click.option(
    "--add-noqa",
    is_flag=True,
    help="Append `# noqa: CODE` to each line with findings, and write.",
)
@click.option(
    "--show-unresolved",
    is_flag=True,
    help="Also list (as SPMD910, information) each place where an spmd vmap leads to code of the project "
    "the analysis could not follow; the summary counts them either way.",
)
@click.option(
    "--diff",
    is_flag=True,
    help="Write nothing; print the fixes `spmdfix fix` would apply as a unified diff and exit 1 when there are"
    " changes (ruff's `check --diff`: the same as `spmdfix fix --diff`).",
)
@exit_non_zero_on_fix_option
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Report only findings not in this baseline file; when it does not exist, record today's findings"
    " in it and report none (README: Adopting spmdfix on a large codebase).",
)
@click.option(
    "--watch",
    "-w",
    is_flag=True,
    help="Check again whenever a file checked, a settings file or a .gitignore changes (until Ctrl-C).",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the results cache.")
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, readable=False, path_type=Path),
    envvar="SPMDFIX_CACHE_DIR",
    default=None,
    help="Where the results cache lives [default: .spmdfix_cache in the project root; env: SPMDFIX_CACHE_DIR].",
)
@guard_config
def check(
    output_format: str | None,
    output_file: Path | None,
    show_fixes: bool,
    statistics: bool,
    apply_fixes: bool,
    add_noqa: bool,
    show_unresolved: bool,
    diff: bool,
    baseline: Path | None,
    watch: bool,
    **kw,
) -> None:
    """Report findings in PATHS (files, or directories walked for *.py, *.pyi, *.ipynb; `-` for stdin;
    default: the working directory)."""
    run = Run(kw)
    if kw["show_settings"]:
        run.show_settings()
        return
    output_format = output_format or "full"
    if statistics and output_format not in (*TEXT_FORMATS, "json"):
        raise click.UsageError("--statistics prints text or json")
    if watch and (diff or add_noqa or run.stdin):
        raise click.UsageError("--watch checks files again and again: it does not combine with --diff, --add-noqa or stdin")
    if baseline is not None and (diff or add_noqa or run.stdin):
        raise click.UsageError("--baseline filters a report: it does not combine with --diff, --add-noqa or stdin")
    if diff:
        if add_noqa or statistics or show_fixes or output_file is not None or output_format != "full":
            raise click.UsageError("--diff prints a diff: it does not combine with a report or --add-noqa")
        from spmdfix.cli.fixing import fix_run  # (a plain check does not import fix's modules)

        if run.stdin and run.stdin_excluded():
            sys.exit(EXIT_CLEAN)
        sys.exit(fix_run(run, True))
    if add_noqa:
        if run.stdin or apply_fixes:
            raise click.UsageError("--add-noqa writes files; it does not read stdin or combine with --fix")
        sys.exit(_add_noqa(run))
    if apply_fixes and run.stdin:
        raise click.UsageError("--fix writes files; to fix stdin use `spmdfix fix -`")
    report = (output_format, output_file, show_fixes, statistics, show_unresolved, baseline)
    if watch:
        _watch(kw, apply_fixes, report)
        sys.exit(EXIT_CLEAN)
    sys.exit(_check_once(run, apply_fixes, *report))


def _watch(kw: dict, apply_fixes: bool, report: tuple) -> None:
    """`check --watch`: `_check_once` again after each change `cli.watch` sees, until Ctrl-C."""
    from spmdfix.cli.watch import snapshot, watch_checks
    from spmdfix.files import forget_project_roots

    found: list[str] = []  # the files of the last snapshot

    def again() -> None:
        # A project marker may have been added or removed: the roots this process found are forgotten
        # (the results cache's keys and the project index of every file depend on them).
        forget_project_roots()
        fresh = Run(kw)  # settings and discovery resolved anew: a settings file may have changed
        if "spmdfix.api" in sys.modules:  # this process analysed files: its project indexes keep old texts
            from spmdfix.api import forget_indexes

            forget_indexes(found)
        try:
            _check_once(fresh, apply_fixes, *report)
        except ConfigError as err:
            raise ConfigProblem(str(err)) from err

    def take() -> dict:
        fresh = Run(kw)
        try:
            found[:] = [os.path.abspath(p) for p in fresh.sources()]
        except ConfigError as err:
            raise ConfigProblem(str(err)) from err
        config_file = fresh.resolver.config_file
        named = [os.path.abspath(p) for p in fresh.paths]
        return snapshot(found, named, str(config_file) if config_file is not None else None)

    watch_checks(again, take)


def _check_once(
    run: Run,
    apply_fixes: bool,
    output_format: str,
    output_file: Path | None,
    show_fixes: bool,
    statistics: bool,
    show_unresolved: bool,
    baseline: Path | None,
) -> int:
    """One `check` (or `check --fix`) of the run's paths: report, summary; the exit code."""
    if apply_fixes:
        from spmdfix.cli.fixing import fix_and_report  # (a plain check does not import fix's modules)

        return fix_and_report(run, output_format, output_file, show_fixes, statistics, baseline)
    if run.stdin and run.stdin_excluded():
        return EXIT_CLEAN
    want_edits = output_format not in TEXT_FORMATS and not statistics
    jobs, outcomes = run.outcomes(Mode.CHECK, want_edits)
    outcomes = reported_once(outcomes)  # a finding of train.py's vmap in model.py: model.py's, when both run
    baselined = 0
    if baseline is not None:
        from spmdfix.cli.baseline import with_baseline  # (a run without a baseline does not import it)

        outcomes, baselined = with_baseline(run, baseline, outcomes)
    for o in outcomes:
        say_problems(o, run.silent)
    unshown = fixes_not_shown(output_format, show_fixes, statistics)
    if unshown:
        run.warn(unshown)
    if not run.silent:
        if statistics:
            emit(statistics_report(jobs, outcomes, output_format), output_file)
        else:
            shown = render(jobs, outcomes, output_format, show_fixes, show_unresolved, docs=lambda: run.docs)
            emit(shown, output_file)
    failed = sum(isinstance(o, Failed) for o in outcomes)
    unreadable = sum(unreadable_reported(j, o) for j, o in zip(jobs, outcomes))
    # (the places not followed are listed by any format's report, not by --statistics' counts)
    listed = show_unresolved and not statistics and not run.silent
    run.say(summary(jobs, outcomes, failed, None, served=run.served, baselined=baselined, listed=listed))
    if failed:
        return EXIT_ERROR
    reported = unreadable + sum(len(o.findings) for o in outcomes)
    return EXIT_FINDINGS if reported and not run.kw["exit_zero"] else EXIT_CLEAN


def _add_noqa(run: Run) -> int:
    jobs, outcomes = run.outcomes(Mode.ADD_NOQA)
    added = errors = left = 0
    # Findings that sit in another module than the file whose analysis found them (the shard_map's spec in
    # model.py, found from train.py's vmap) get their comment on their own line, in their own file: the rows
    # are taken from the text the analysis read, before this run writes anything (a comment added at a line's
    # end keeps every row where it was).
    elsewhere = _rows_elsewhere(outcomes)
    from spmdfix.cli import noqa_others

    intended = noqa_others.run_keys(outcomes)
    others: list[noqa_others.OtherVmap] = []
    found_by = {o.display: job for job, o in zip(jobs, outcomes)}
    for job, o in zip(jobs, outcomes):
        say_problems(o, run.silent)
        errors += isinstance(o, Failed)
        if unreadable_reported(job, o):
            click.echo(f"{o.display}: {rules.UNREADABLE.code} {o.reason}", err=True)
            left += 1  # SPMD901 is a finding (exit 1), as in `check` and `fix`
        left += sum(1 for f in o.findings if not _goes_elsewhere(f))
        if not isinstance(o, (Checked, Fixed)):
            continue
        for error in o.errors:
            click.echo(f"{o.display}: {error}", err=True)
            errors += 1
        for row in o.noqa_skipped:
            where = _row_label(o, row)
            reason = "the line ends inside a multi-line string or a continuation"
            click.echo(f"{o.display}:{where}: no noqa comment added: {reason}", err=True)
        if isinstance(o, Fixed) and not o.errors:
            try:
                write_source(o.source, o.new_text)
                added += len(o.noqa_added)
            except FileError as err:
                click.echo(f"{o.display}: {err}", err=True)
                errors += 1
                left += len(o.noqa_added)
    for path, (by_row, origins) in sorted(elsewhere.items()):
        # (the settings the importers are analysed with: those of the first run file whose findings lie there)
        first = found_by[next(iter(origins.values()))[0]]

        def note(old: str, new: str, rows: tuple[int, ...], path: str = path, first=first) -> None:
            others.extend(noqa_others.other_vmaps(path, old, new, rows, first, intended))

        done, failed, skipped = _add_noqa_elsewhere(path, by_row, origins, note)
        added += done
        errors += failed
        left += skipped
    run.say(f"Added {added} noqa directive{'s' if added != 1 else ''}.")
    if others:
        _say_others(others, outcomes)
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if left and not run.kw["exit_zero"] else EXIT_CLEAN


def _goes_elsewhere(finding: Finding) -> bool:
    """Whether `--add-noqa` puts the comment of `finding` into another file than the one checked."""
    from spmdfix import noqa  # (only `--add-noqa` reads or writes a comment)

    return bool(finding.span.path) and finding.code not in noqa.UNSUPPRESSIBLE


def _rows_elsewhere(outcomes: list[FileResult]) -> dict[str, tuple[dict[int, set[str]], dict[int, list[str]]]]:
    """path of another module -> ({row: codes of the findings starting there}, {row: the files of the run that
    found them, in run order}): the findings of this run that sit in another module (`Span.path`); a spec two
    files' vmaps reach names both (newuser7's trial: train.py's and a notebook's). Rows come from the text the
    analysis read (`files.text_of`); a module that cannot be read is left out (its findings stay)."""
    out: dict[str, tuple[dict[int, set[str]], dict[int, list[str]]]] = {}
    for o in outcomes:
        if not isinstance(o, (Checked, Fixed)):
            continue
        for finding in o.findings:
            if not _goes_elsewhere(finding):
                continue
            text = text_of(finding.span.path)
            if text is None:
                continue
            by_row, origins = out.setdefault(finding.span.path, ({}, {}))
            row = LineIndex(text).row_col(finding.span.start)[0]
            by_row.setdefault(row, set()).add(finding.code)
            if o.display not in origins.setdefault(row, []):
                origins[row].append(o.display)
    return out


def _say_others(others: list, outcomes: list[FileResult]) -> None:
    """Warn (stderr) of each vmap outside the run whose findings the directives added also suppress
    (`noqa_others.say`), naming the run's files whose findings the directives are for and their codes."""
    from spmdfix.cli import noqa_others

    codes: dict[str, set[str]] = {}
    for o in outcomes:
        for f in o.findings:
            if _goes_elsewhere(f):
                codes.setdefault(o.display, set()).add(f.code)
    files = list(codes)
    for other in others:
        click.echo(noqa_others.say(other, files, codes), err=True)


def _add_noqa_elsewhere(
    path: str, by_row: dict[int, set[str]], origins: dict[int, list[str]], before_write=None
) -> tuple[int, int, int]:
    """Add the directives of `by_row` to the module at `path` (read now: this run may have written it) and say
    each row it added one to. Returns (rows given a directive, errors, findings left: those on a row no comment
    can go on). before_write(old text, new text, rows added): called before the module is written."""
    shown = display_path(Path(path))
    try:
        source = read_source(Path(path))
    except FileError as err:
        click.echo(f"{shown}: {err}", err=True)
        return 0, 1, 0
    from spmdfix import noqa

    lines = LineIndex(source.text)
    rows = [row for row in sorted(by_row) if row <= lines.line_count]
    findings = [
        Finding(code, "", "", Span(lines.line_start(row - 1), lines.line_start(row - 1)))
        for row in rows
        for code in sorted(by_row[row])
    ]
    result = noqa.add_noqa(source.text, findings)
    for row in result.skipped:
        reason = "the line ends inside a multi-line string or a continuation"
        click.echo(f"{shown}:{row}: no noqa comment added: {reason}", err=True)
    if not result.added:
        return 0, 0, sum(len(by_row[row]) for row in result.skipped)
    if before_write is not None:
        before_write(source.text, result.text, result.added)
    try:
        write_source(source, result.text)
    except FileError as err:
        click.echo(f"{shown}: {err}", err=True)
        return 0, 1, sum(len(codes) for codes in by_row.values())
    for row in result.added:
        found_from = ", ".join(origins[row])
        click.echo(f"{shown}:{row}: noqa directive added for {', '.join(sorted(by_row[row]))} (found from {found_from})", err=True)
    return len(result.added), 0, sum(len(by_row[row]) for row in result.skipped)


def _row_label(o: FileResult, row: int) -> str:
    if o.cells is None:
        return str(row)
    cell, cell_row = o.cells.locate(row)
    return f"cell {cell}:{cell_row}"
