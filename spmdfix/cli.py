"""The command line (click): `spmdfix check`, `spmdfix fix`, `spmdfix rule`, `spmdfix lsp`.

Exit codes, as ruff's: 0 nothing reported / nothing to change; 1 findings (or unreadable files) reported, or
`fix --diff` has changes, or `fix` left findings; 2 usage, configuration or internal error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from spmdfix import rules
from spmdfix.api import Options, choose_fix, fix_edits_for
from spmdfix.files import FileError, discover, write_source
from spmdfix.model import Strategy
from spmdfix.report import FileReport, error_record, json_records, summary_line, text_lines, unified_diff
from spmdfix.runner import FileOutcome, run_file

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

_strategy = click.option(
    "--strategy",
    type=click.Choice([s.value for s in Strategy]),
    default=Strategy.AUTO.value,
    show_default=True,
    help="Transform to apply: auto picks, per finding, the first safe of rename, add-axis, strip.",
)
_unsafe = click.option("--unsafe-fixes", is_flag=True, help="Also apply (or show as fixable) unsafe fixes.")
_new_axis = click.option(
    "--new-axis", default="batch", show_default=True, help="Name of the mesh axis the add-axis transform adds."
)
_paths = click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spmdfix")
def main() -> None:
    """Find and fix vmap spmd_axis_name / shard_map PartitionSpec collisions in JAX code."""


def _outcomes(paths, options: Options, fix: bool) -> list[FileOutcome]:
    try:
        files = list(dict.fromkeys(discover(paths)))
    except FileError as err:
        raise click.UsageError(str(err)) from err
    return [run_file(path, options, fix) for path in files]


def _abs(outcome: FileOutcome) -> str:
    return str(outcome.path.resolve())


@main.command()
@_paths
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--show-fixes", is_flag=True, help="List every applicable fix and why the others are not offered.")
@_unsafe
@_new_axis
def check(paths, output_format: str, show_fixes: bool, unsafe_fixes: bool, new_axis: str) -> None:
    """Report collisions in PATHS (files, or directories walked for *.py)."""
    options = Options(unsafe_fixes=unsafe_fixes, new_axis=new_axis)
    outcomes = _outcomes(paths, options, fix=False)
    failed = [o for o in outcomes if o.status == "failed"]
    for o in failed:
        click.echo(f"{o.display}: internal error, file skipped:\n{o.error}", err=True)
    reported = sum(len(o.findings) for o in outcomes) + sum(o.status == "unreadable" for o in outcomes)
    if output_format == "json":
        records = []
        for o in outcomes:
            if o.status == "unreadable":
                records.append(error_record(o.display, _abs(o), rules.UNREADABLE.code, o.error))
            elif o.findings:
                report = FileReport(o.display, _abs(o), o.source.text, o.findings)
                fixes = [x for f in o.findings for x in f.fixes]
                try:
                    edits = fix_edits_for(o.source.text, fixes) if fixes else {}
                except Exception as err:  # noqa: BLE001 - libcst failing must not lose the findings
                    edits = {x.key: f"edits not built: {err}" for x in fixes}
                records.extend(json_records(report, edits))
        click.echo(json.dumps(records, indent=2, ensure_ascii=False))
    else:
        fixable = hidden = 0
        for o in outcomes:
            if o.status == "unreadable":
                click.echo(f"{o.display}:1:1: {rules.UNREADABLE.code} {o.error}")
                continue
            if not o.findings:
                continue
            report = FileReport(o.display, _abs(o), o.source.text, o.findings)
            for line in text_lines(report, unsafe_fixes, show_fixes):
                click.echo(line)
            for f in o.findings:
                if choose_fix(f, Strategy.AUTO, unsafe_fixes):
                    fixable += 1
                elif choose_fix(f, Strategy.AUTO, True):
                    hidden += 1
        click.echo(summary_line(reported, fixable, hidden))
    if failed:
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_FINDINGS if reported else EXIT_CLEAN)


@main.command()
@_paths
@_strategy
@_unsafe
@_new_axis
@click.option("--diff", is_flag=True, help="Write nothing; print a unified diff and exit 1 when there are changes.")
def fix(paths, strategy: str, unsafe_fixes: bool, new_axis: str, diff: bool) -> None:
    """Apply fixes to PATHS in place (or show them with --diff)."""
    options = Options(strategy=Strategy(strategy), unsafe_fixes=unsafe_fixes, new_axis=new_axis)
    outcomes = _outcomes(paths, options, fix=True)
    internal = False
    changed = applied = remaining = 0
    for o in outcomes:
        if o.status == "unreadable":
            click.echo(f"{o.display}: {rules.UNREADABLE.code} {o.error}", err=True)
            remaining += 1
            continue
        if o.status == "failed":
            click.echo(f"{o.display}: internal error, file left unchanged:\n{o.error}", err=True)
            internal = True
            continue
        for error in o.errors:
            click.echo(f"{o.display}: {error}", err=True)
            internal = internal or error.startswith("internal error")
        remaining += len(o.findings)
        if o.new_text is None:
            continue
        changed += 1
        applied += len(o.applied)
        if diff:
            click.echo(unified_diff(o.display, o.source.text, o.new_text), nl=False)
            continue
        try:
            write_source(o.source, o.new_text)
        except FileError as err:
            click.echo(f"{o.display}: {err}", err=True)
            remaining += len(o.applied)
            continue
        for f in o.applied:
            click.echo(f"{o.display}: applied {f.transform} ({f.applicability}): {f.title} — {f.reason}", err=True)
    verb = "would change" if diff else "changed"
    click.echo(
        f"{changed} file{'s' if changed != 1 else ''} {verb}, {applied} fix{'es' if applied != 1 else ''} "
        f"{'to apply' if diff else 'applied'}, {remaining} finding{'s' if remaining != 1 else ''} left.",
        err=True,
    )
    if internal:
        sys.exit(EXIT_ERROR)
    if diff:
        sys.exit(EXIT_FINDINGS if changed else EXIT_CLEAN)
    sys.exit(EXIT_FINDINGS if remaining else EXIT_CLEAN)


@main.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
def rule(code: str | None, show_all: bool) -> None:
    """Print the documentation of rule CODE (e.g. SPMD001)."""
    if show_all or code is None:
        for r in rules.RULES.values():
            click.echo(f"{r.code}  {r.name:<24} {r.summary}")
        return
    found = rules.RULES.get(code.upper())
    if found is None:
        raise click.UsageError(f"unknown rule {code!r}; `spmdfix rule --all` lists them")
    click.echo(found.doc())


@main.command()
@click.option("--tcp", "tcp_port", type=int, default=None, help="Listen on 127.0.0.1:PORT instead of stdio.")
def lsp(tcp_port: int | None) -> None:
    """Run the language server (stdio by default)."""
    try:
        from spmdfix.lsp import serve
    except ImportError as err:  # pragma: no cover - depends on the install extras
        raise click.ClickException(f"the language server needs `pip install spmdfix[lsp]` ({err})") from err
    serve(tcp_port)


if __name__ == "__main__":  # pragma: no cover
    main()
