"""`spmdfix fix`: apply the chosen fixes in place, print them as a diff (`--diff`), or fix stdin to stdout."""

from __future__ import annotations

import sys

import click

from spmdfix import rules
from spmdfix.cli import terminal
from spmdfix.cli.crossmodule import fix_others, with_cross_module_fixes
from spmdfix.cli.interactive import interactive_fix
from spmdfix.cli.invocation import (
    EXIT_CLEAN,
    EXIT_ERROR,
    Run,
    common_options,
    guard_config,
)
from spmdfix.cli.output import say_problems, summary
from spmdfix.cli.tally import Tally
from spmdfix.files import FileError, write_source
from spmdfix.model import Strategy
from spmdfix.report import unified_diff
from spmdfix.runner import FIX, FileOutcome, Job


@click.command()
@common_options
@click.option(
    "--strategy",
    type=click.Choice([s.value for s in Strategy]),
    default=None,
    help="Transform to apply: auto picks, per finding, the first safe of rename, add-axis, strip [default: auto].",
)
@click.option(
    "--diff",
    is_flag=True,
    help="Write nothing; print a unified diff and exit 1 when there are changes.",
)
@click.option(
    "--interactive",
    "-i",
    is_flag=True,
    help="Show each fix as a diff and ask before applying it.",
)
@guard_config
def fix(diff: bool, interactive: bool, **kw) -> None:
    """Apply fixes to PATHS in place (or show them with --diff; `-` reads stdin and writes stdout)."""
    run = Run(kw)
    if kw["show_settings"]:
        run.show_settings()
        return
    if interactive:
        if diff or run.stdin:
            raise click.UsageError("--interactive cannot be combined with --diff or stdin")
        if not terminal.stdin_is_tty():
            click.echo(
                "Error: --interactive needs a terminal on stdin to ask about each fix.",
                err=True,
            )
            sys.exit(EXIT_ERROR)
        sys.exit(interactive_fix(run))
    if run.stdin and run.stdin_excluded():
        if not diff:
            terminal.binary(sys.stdout).write(run.stdin_bytes())
        sys.exit(EXIT_CLEAN)
    jobs, outcomes = run.outcomes(FIX)
    if run.stdin:
        sys.exit(_fix_stdin(run, jobs, outcomes, diff))
    tally = Tally()
    outcomes, others = with_cross_module_fixes(jobs, outcomes, tally)
    for job, o in zip(jobs, outcomes):
        _fix_one(o, diff, tally, job)
    fix_others(others, diff, tally)
    click.echo(
        summary(jobs, outcomes, tally.errors, tally.applied, diff, tally.unwritten),
        err=True,
    )
    sys.exit(tally.exit_code(diff, kw["exit_zero"]))


def _fix_one(o: FileOutcome, diff: bool, tally: Tally, job: Job) -> None:
    """Report, diff or write one fix outcome."""
    if o.status == "unreadable":
        if rules.UNREADABLE.code in job.enabled:
            click.echo(f"{o.display}: {rules.UNREADABLE.code} {o.error}", err=True)
            tally.remaining += 1
            tally.errors += 1
        return
    say_problems(o)
    if o.status == "failed":
        tally.internal = True
        tally.errors += 1
        tally.remaining += len(o.findings)  # what checking the file found: fixing it failed, they remain
        return
    for message in (*o.errors, *o.notes):
        click.echo(f"{o.display}: {message}", err=True)
        if message.startswith("internal error"):
            tally.internal = True
            tally.errors += 1
    tally.remaining += len(o.findings)
    if o.new_text is None:
        return
    tally.changed += 1
    if diff:
        tally.applied.update(str(f.transform) for f in o.applied)
        click.echo(unified_diff(o.display, o.source.text, o.new_text), nl=False)
        return
    try:
        write_source(o.source, o.new_text)
    except FileError as err:
        click.echo(f"{o.display}: {err}", err=True)
        tally.unwritten += o.found_before - len(o.findings)  # the file keeps what it had
        tally.remaining += o.found_before - len(o.findings)
        tally.errors += 1
        return
    tally.applied.update(str(f.transform) for f in o.applied)
    for f in o.applied:
        click.echo(
            f"{o.display}: applied {f.transform} ({f.applicability}): {f.title} — {f.reason}",
            err=True,
        )


def _fix_stdin(run: Run, jobs: list[Job], outcomes: list[FileOutcome], diff: bool) -> int:
    """`fix -`: the fixed source (or a diff) on stdout, messages on stderr."""
    job, o = jobs[0], outcomes[0]
    stdout = terminal.binary(sys.stdout)
    tally = Tally()
    if diff:
        _fix_one(o, True, tally, job)
    else:
        for message in (*o.errors, *o.notes):
            click.echo(f"{o.display}: {message}", err=True)
            tally.internal = tally.internal or message.startswith("internal error")
        say_problems(o)
        tally.internal = tally.internal or o.status == "failed"
        tally.remaining = len(o.findings) + (o.status == "unreadable")
        if o.status == "unreadable":
            click.echo(f"{o.display}: {rules.UNREADABLE.code} {o.error}", err=True)
        if o.new_text is not None:
            tally.applied.update(str(f.transform) for f in o.applied)
            stdout.write(o.new_text.encode(o.source.encoding))
        else:
            stdout.write(run.stdin_bytes())
    click.echo(summary(jobs, outcomes, int(tally.internal), tally.applied, diff), err=True)
    return tally.exit_code(diff, run.kw["exit_zero"])
