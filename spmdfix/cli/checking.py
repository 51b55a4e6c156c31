"""`spmdfix check`: report findings, or (`--add-noqa`) add suppression comments to the lines that have them."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from spmdfix import rules
from spmdfix.cli.invocation import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    Run,
    common_options,
    guard_config,
)
from spmdfix.cli.output import (
    TEXT_FORMATS,
    emit,
    render,
    report_options,
    say_problems,
    statistics_report,
    summary,
    unreadable_reported,
)
from spmdfix.files import FileError, write_source
from spmdfix.results import Checked, Failed, FileResult, Fixed, Mode


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
    if add_noqa:
        if run.stdin or apply_fixes:
            raise click.UsageError("--add-noqa writes files; it does not read stdin or combine with --fix")
        sys.exit(_add_noqa(run))
    if apply_fixes:
        if run.stdin:
            raise click.UsageError("--fix writes files; to fix stdin use `spmdfix fix -`")
        from spmdfix.cli.fixing import fix_and_report  # (a plain check does not import fix's modules)

        sys.exit(fix_and_report(run, output_format, output_file, show_fixes, statistics))
    if run.stdin and run.stdin_excluded():
        sys.exit(EXIT_CLEAN)
    want_edits = output_format not in TEXT_FORMATS and not statistics
    jobs, outcomes = run.outcomes(Mode.CHECK, want_edits)
    for o in outcomes:
        say_problems(o, run.silent)
    if not run.silent:
        if statistics:
            emit(statistics_report(jobs, outcomes, output_format), output_file)
        else:
            emit(render(jobs, outcomes, output_format, show_fixes, show_unresolved), output_file)
    failed = sum(isinstance(o, Failed) for o in outcomes)
    unreadable = sum(unreadable_reported(j, o) for j, o in zip(jobs, outcomes))
    run.say(summary(jobs, outcomes, failed + unreadable, None, served=run.served))
    if failed:
        sys.exit(EXIT_ERROR)
    reported = unreadable + sum(len(o.findings) for o in outcomes)
    sys.exit(EXIT_FINDINGS if reported and not kw["exit_zero"] else EXIT_CLEAN)


def _add_noqa(run: Run) -> int:
    jobs, outcomes = run.outcomes(Mode.ADD_NOQA)
    added = errors = left = 0
    for job, o in zip(jobs, outcomes):
        say_problems(o, run.silent)
        errors += isinstance(o, Failed)
        if unreadable_reported(job, o):
            click.echo(f"{o.display}: {rules.UNREADABLE.code} {o.reason}", err=True)
            left += 1  # SPMD901 is a finding (exit 1), as in `check` and `fix`
        left += len(o.findings)
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
    run.say(f"Added {added} noqa directive{'s' if added != 1 else ''}.")
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if left and not run.kw["exit_zero"] else EXIT_CLEAN


def _row_label(o: FileResult, row: int) -> str:
    if o.cells is None:
        return str(row)
    cell, cell_row = o.cells.locate(row)
    return f"cell {cell}:{cell_row}"
