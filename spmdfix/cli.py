"""The command line (click): `spmdfix check`, `fix`, `config`, `rule`, `lsp`.

Exit codes, as ruff's: 0 nothing reported / nothing to change; 1 findings (or unreadable files) reported,
or `fix --diff` has changes, or `fix` left findings; 2 usage, configuration or internal error.

The flow of `check` and `fix`: resolve settings (`spmdfix.config`), discover files (`spmdfix.files`), run
one `Job` per file (`spmdfix.runner`, in worker processes with `--jobs`), then emit in path order (text /
JSON / other formats, diffs, atomic writes) and close with a summary on stderr.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import click

from spmdfix import __version__, notebook, rules
from spmdfix.config import ConfigError, Overrides, Resolver, render_settings, split_codes
from spmdfix.files import (
    MAX_BYTES,
    FileError,
    decode,
    excluded_as_given,
    iter_sources,
    read_source,
    write_source,
)
from spmdfix.model import Edit, Fix, Options, Strategy, choose_fix
from spmdfix.positions import apply_edits
from spmdfix.report import (
    FileReport,
    error_record,
    json_records,
    run_summary,
    statistics_lines,
    summary_line,
    text_lines,
    unified_diff,
)
from spmdfix.runner import (
    ADD_NOQA,
    CHECK,
    FIX,
    GENERATED_MARK,
    FileOutcome,
    Job,
    Skip,
    display_path,
    fix_text,
    prepare,
    run_jobs,
    stream_jobs,
    worker_pool,
    run_source,
)

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
OUTPUT_FORMATS = ("text", "json", "json-lines", "sarif", "github")
PROGRESS_MIN_FILES = 50


class ConfigProblem(click.ClickException):
    """A configuration error: printed as `Error: <file>: ...`, exit code 2."""

    exit_code = EXIT_ERROR


def _binary(stream):
    """The byte stream under a text stream (stdin/stdout), or the stream itself when it has none."""
    return getattr(stream, "buffer", stream)


def _stdin_is_tty() -> bool:
    return sys.stdin.isatty()


def _stderr_is_tty() -> bool:
    return sys.stderr.isatty()


# --- options ---------------------------------------------------------------------------------------


def _multi(name: str, help: str):
    return click.option(name, multiple=True, metavar="PATTERNS", help=help + " Comma-separated, repeatable.")


_COMMON = [
    # readable=False: a file that cannot be read is SPMD901, as when a walk finds it, not a usage error.
    click.argument("paths", nargs=-1, type=click.Path(readable=False, path_type=Path)),
    click.option(
        "--config",
        "config_file",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="Use this spmdfix.toml / pyproject.toml for every file.",
    ),
    click.option(
        "--select", multiple=True, metavar="CODES", help="Rule codes or prefixes to report (replaces `select`)."
    ),
    click.option(
        "--ignore", multiple=True, metavar="CODES", help="Rule codes or prefixes not to report (replaces `ignore`)."
    ),
    _multi("--exclude", "Globs of files and directories to skip, replacing the defaults and `exclude`."),
    _multi("--extend-exclude", "Globs to skip in addition to the excludes."),
    click.option("--force-exclude", is_flag=True, help="Apply the excludes to paths given on the command line too."),
    click.option(
        "--respect-gitignore/--no-respect-gitignore",
        default=True,
        show_default=True,
        help="Skip what .gitignore files ignore.",
    ),
    click.option("--include-generated", is_flag=True, help="Also check files marked @generated in their first lines."),
    click.option(
        "--unsafe-fixes/--no-unsafe-fixes", default=None, help="Also apply (or show as fixable) unsafe fixes."
    ),
    click.option(
        "--new-axis", default=None, help="Name of the mesh axis the add-axis transform adds [default: batch]."
    ),
    click.option(
        "--target-jax-version", default=None, help="JAX version whose spellings fixes use [default: installed]."
    ),
    click.option("--stdin-filename", default=None, help="With PATH `-`: the file name stdin stands for."),
    click.option(
        "--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes [default: CPU count]."
    ),
    click.option(
        "--max-file-size",
        type=click.FloatRange(min=0),
        default=MAX_BYTES / 1e6,
        show_default=True,
        help="Skip files larger than this many MB.",
    ),
    click.option("--show-settings", is_flag=True, help="Print the settings resolved for the first PATH and exit."),
    click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain (errors still exit 2)."),
]


def _common(func):
    for option in reversed(_COMMON):
        func = option(func)
    return func


class Run:
    """The settings and discovery of one `check` / `fix` invocation, from its common options."""

    def __init__(self, kw: dict) -> None:
        self.kw = kw
        overrides = Overrides(
            new_axis=kw["new_axis"],
            select=split_codes(kw["select"]) or None,
            ignore=split_codes(kw["ignore"]) or None,
            exclude=split_codes(kw["exclude"]) or None,
            extend_exclude=split_codes(kw["extend_exclude"]),
            unsafe_fixes=kw["unsafe_fixes"],
            target_jax_version=kw["target_jax_version"],
            strategy=kw.get("strategy"),
        )
        self.resolver = Resolver(overrides, kw["config_file"])
        self.paths: tuple[Path, ...] = kw["paths"]
        self.unlisted: list[str] = []  # directories the walk could not list, said on stderr after the run
        self.stdin = self.paths == (Path("-"),)
        self._stdin_raw: bytes | None = None
        if not self.paths and not kw["show_settings"]:
            raise click.UsageError("missing PATH (a file, a directory, or `-` for stdin)")
        if Path("-") in self.paths and not self.stdin:
            raise click.UsageError("`-` (stdin) cannot be mixed with other paths")
        if kw["stdin_filename"] and not self.stdin:
            raise click.UsageError("--stdin-filename needs PATH `-`")

    def excluded(self, absolute: str, is_dir: bool) -> bool:
        """Whether the settings of the absolute path's directory exclude it (discovery's `excluded`)."""
        return self.resolver.for_dir(os.path.dirname(absolute)).excludes(absolute, is_dir)

    def sources(self) -> Iterator[Path]:
        """The files to run on, as the walk finds them (`files.iter_sources`). Raises `click.UsageError`
        for a path that does not exist."""
        try:
            return iter_sources(
                self.paths, self.excluded, self.kw["respect_gitignore"], self.kw["force_exclude"], self.unlisted
            )
        except FileError as err:
            raise click.UsageError(str(err)) from err

    def job(self, path: Path, mode: str, want_edits: bool = False, display: str | None = None) -> Job:
        """The job of one file, with the options and rule codes its settings give."""
        absolute = os.path.abspath(path)
        settings = self.resolver.for_file(absolute)
        options = _options(settings.strategy, settings.unsafe_fixes, settings.new_axis)
        return Job(
            path,
            display or display_path(path),
            options,
            mode,
            settings.enabled_codes(absolute),
            want_edits,
            self.kw["include_generated"],
            int(self.kw["max_file_size"] * 1e6),
        )

    def show_settings(self) -> None:
        """Print the settings of the first path (or of the stdin file name)."""
        target = self.stdin_path() if self.stdin else (self.paths[0] if self.paths else Path("."))
        click.echo(render_settings(self.resolver.for_path(target), target), nl=False)

    def stdin_path(self) -> Path:
        """The path stdin stands for: `--stdin-filename`, else `-` in the working directory."""
        name = self.kw["stdin_filename"]
        return Path(name) if name else Path.cwd() / "-"

    def stdin_bytes(self) -> bytes:
        """What stdin holds (read once)."""
        if self._stdin_raw is None:
            self._stdin_raw = _binary(sys.stdin).read()
        return self._stdin_raw

    def stdin_excluded(self) -> bool:
        """True when `--force-exclude` and the excludes match `--stdin-filename`."""
        return bool(
            self.kw["force_exclude"]
            and self.kw["stdin_filename"]
            and excluded_as_given(self.stdin_path(), self.excluded)
        )

    def outcomes(self, mode: str, want_edits: bool = False) -> tuple[list[Job], list[FileOutcome]]:
        """Jobs and their outcomes, in path order; stdin is one job when PATH is `-`. Directories the walk
        could not list are said on stderr."""
        found = self._outcomes(mode, want_edits)
        for message in self.unlisted:
            click.echo(message, err=True)
        return found

    def _outcomes(self, mode: str, want_edits: bool) -> tuple[list[Job], list[FileOutcome]]:
        if self.stdin:
            job = self.job(self.stdin_path(), mode, want_edits, self.kw["stdin_filename"] or "-")
            return [job], [_run_stdin(job, self.stdin_bytes())]
        workers = self.kw["jobs"] or os.cpu_count() or 1
        # Workers start before discovery when there will likely be several files: they import the analysis
        # meanwhile. A run on one file stays in this process.
        several = len(self.paths) > 1 or any(path.is_dir() for path in self.paths)
        with worker_pool(workers if several else 1) as pool:
            if pool is not None and not _stderr_is_tty():
                # No progress bar to size: files go to the workers while discovery is still walking.
                found = self.sources()
                jobs, outcomes = stream_jobs((self.job(path, mode, want_edits) for path in found), pool, workers)
                order = sorted(range(len(jobs)), key=lambda i: _shown_order(jobs[i]))
                return [jobs[i] for i in order], [outcomes[i] for i in order]
            jobs = sorted((self.job(path, mode, want_edits) for path in self.sources()), key=_shown_order)
            if _stderr_is_tty() and len(jobs) > PROGRESS_MIN_FILES:
                with click.progressbar(length=len(jobs), label="Scanning", file=sys.stderr) as bar:
                    return jobs, run_jobs(jobs, workers, bar.update, pool)
            return jobs, run_jobs(jobs, workers, pool=pool)


def _shown_order(job: Job) -> list[str]:
    """Reports go in the sorted order of the paths they show (as ruff's do), component by component."""
    return job.display.split("/")


@functools.lru_cache(maxsize=64)
def _options(strategy: Strategy, unsafe_fixes: bool, new_axis: str) -> Options:
    """One `Options` per distinct setting (a run's jobs share it)."""
    return Options(strategy=strategy, unsafe_fixes=unsafe_fixes, new_axis=new_axis)


def _run_stdin(job: Job, raw: bytes) -> FileOutcome:
    """`runner.run_file` for bytes read from stdin."""
    try:
        source = decode(job.path, raw)
    except FileError as err:
        return FileOutcome(job.path, job.display, "unreadable", error=str(err))
    if len(raw) > job.max_bytes:
        return FileOutcome(job.path, job.display, "skipped", source, error="skipped: over the --max-file-size limit")
    return run_source(job, source)


def _guard_config(func: Callable) -> Callable:
    """Turn a `ConfigError` anywhere in a command into exit code 2 with its message."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except ConfigError as err:
            raise ConfigProblem(str(err)) from err

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spmdfix")
def main() -> None:
    """Find and fix vmap spmd_axis_name / shard_map PartitionSpec collisions in JAX code."""


# --- shared emit helpers ---------------------------------------------------------------------------


def _abs(outcome: FileOutcome) -> str:
    return os.path.abspath(outcome.path)


def _report(o: FileOutcome) -> FileReport:
    return FileReport(o.display, _abs(o), o.text, o.findings)


def _unsafe_left(o: FileOutcome, options: Options) -> int:
    strategy = options.strategy
    return sum(
        1
        for f in o.findings
        if choose_fix(f, strategy, options.unsafe_fixes) is None and choose_fix(f, strategy, True) is not None
    )


def _say_problems(o: FileOutcome) -> None:
    """Messages on stderr for a skipped or failed file (a generated file is only counted)."""
    if o.status == "skipped" and GENERATED_MARK not in o.error:
        click.echo(f"{o.display}: {o.error}", err=True)
    elif o.status == "failed":
        click.echo(f"{o.display}: internal error, file left as it is:\n{o.error}", err=True)


def _summary(
    jobs: Sequence[Job],
    outcomes: Sequence[FileOutcome],
    errors: int,
    applied: Counter | None,
    diff: bool = False,
    unwritten: int = 0,
) -> str:
    return run_summary(
        scanned=len(outcomes),
        parsed=sum(o.parsed for o in outcomes),
        skipped=sum(o.status == "skipped" for o in outcomes),
        findings=sum(len(o.findings) for o in outcomes) + unwritten,
        suppressed=sum(o.suppressed for o in outcomes),
        unsafe_left=sum(_unsafe_left(o, j.options) for j, o in zip(jobs, outcomes)),
        errors=errors,
        applied=applied,
        applied_label="fixes to apply" if diff else "fixes applied",
    )


def _unreadable_reported(job: Job, o: FileOutcome) -> bool:
    return o.status == "unreadable" and rules.UNREADABLE.code in job.enabled


# --- check -----------------------------------------------------------------------------------------


def _records(jobs: Sequence[Job], outcomes: Sequence[FileOutcome]) -> list[dict]:
    records: list[dict] = []
    for job, o in zip(jobs, outcomes):
        if _unreadable_reported(job, o):
            records.append(error_record(o.display, _abs(o), rules.UNREADABLE.code, o.error))
        elif o.findings:
            found = json_records(_report(o), o.edits or {})
            if o.cells is not None:
                found = [notebook.remap_record(r, o.cells) for r in found]
            records.extend(found)
    return records


def _formats():
    try:
        from spmdfix import formats
    except ImportError as err:  # pragma: no cover - formats.py ships with the package
        raise click.UsageError(f"this output format needs spmdfix.formats ({err})") from err
    return formats


def _text(jobs, outcomes, show_fixes: bool) -> str:
    lines: list[str] = []
    fixable = hidden = reported = 0
    for job, o in zip(jobs, outcomes):
        if _unreadable_reported(job, o):
            lines.append(f"{o.display}:1:1: {rules.UNREADABLE.code} {o.error}")
            reported += 1
            continue
        if not o.findings:
            continue
        unsafe = job.options.unsafe_fixes
        lines.extend(text_lines(_report(o), unsafe, show_fixes, o.cells))
        reported += len(o.findings)
        fixable += sum(choose_fix(f, Strategy.AUTO, unsafe) is not None for f in o.findings)
        hidden += sum(
            choose_fix(f, Strategy.AUTO, unsafe) is None and choose_fix(f, Strategy.AUTO, True) is not None
            for f in o.findings
        )
    lines.append(summary_line(reported, fixable, hidden))
    return "\n".join(lines) + "\n"


def _statistics(jobs, outcomes, output_format: str) -> str:
    counts: Counter = Counter()
    fixable: Counter = Counter()
    for job, o in zip(jobs, outcomes):
        if _unreadable_reported(job, o):
            counts[rules.UNREADABLE.code] += 1
        for f in o.findings:
            counts[f.code] += 1
            fixable[f.code] += choose_fix(f, Strategy.AUTO, job.options.unsafe_fixes) is not None
    if output_format == "json":
        rows = [
            {"code": code, "name": rules.RULES[code].name, "count": n, "fixable": fixable[code]}
            for code, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        ]
        return json.dumps(rows, indent=2) + "\n"
    lines = statistics_lines(counts)
    return "\n".join(lines) + "\n" if lines else ""


def _render(jobs, outcomes, output_format: str, show_fixes: bool) -> str:
    if output_format == "text":
        return _text(jobs, outcomes, show_fixes)
    records = _records(jobs, outcomes)
    if output_format == "json":
        return json.dumps(records, indent=2, ensure_ascii=False) + "\n"
    formats = _formats()
    if output_format == "json-lines":
        return formats.json_lines(records)
    if output_format == "sarif":
        return json.dumps(formats.sarif(records, __version__), indent=2, ensure_ascii=False) + "\n"
    return formats.github(records)


def _emit(text: str, output_file: Path | None) -> None:
    if output_file is None:
        click.echo(text, nl=False)
        return
    try:
        output_file.parent.mkdir(parents=True, exist_ok=True)
        output_file.write_text(text, encoding="utf-8")
    except OSError as err:
        raise click.ClickException(f"cannot write {output_file}: {err.strerror or err}") from err


@main.command()
@_common
@click.option("--output-format", type=click.Choice(OUTPUT_FORMATS), default="text", show_default=True)
@click.option(
    "--output-file",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the report to this file.",
)
@click.option("--show-fixes", is_flag=True, help="List every applicable fix and why the others are not offered.")
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule instead of each finding.")
@click.option("--add-noqa", is_flag=True, help="Append `# noqa: CODE` to each line with findings, and write.")
@_guard_config
def check(
    output_format: str, output_file: Path | None, show_fixes: bool, statistics: bool, add_noqa: bool, **kw
) -> None:
    """Report findings in PATHS (files, or directories walked for *.py, *.pyi, *.ipynb; `-` for stdin)."""
    run = Run(kw)
    if kw["show_settings"]:
        run.show_settings()
        return
    if statistics and output_format not in ("text", "json"):
        raise click.UsageError("--statistics prints text or json")
    if add_noqa:
        if run.stdin:
            raise click.UsageError("--add-noqa writes files; it does not read stdin")
        sys.exit(_add_noqa(run))
    if run.stdin and run.stdin_excluded():
        sys.exit(EXIT_CLEAN)
    want_edits = output_format != "text" and not statistics
    jobs, outcomes = run.outcomes(CHECK, want_edits)
    for o in outcomes:
        _say_problems(o)
    if statistics:
        _emit(_statistics(jobs, outcomes, output_format), output_file)
    else:
        _emit(_render(jobs, outcomes, output_format, show_fixes), output_file)
    failed = sum(o.status == "failed" for o in outcomes)
    unreadable = sum(_unreadable_reported(j, o) for j, o in zip(jobs, outcomes))
    click.echo(_summary(jobs, outcomes, failed + unreadable, None), err=True)
    if failed:
        sys.exit(EXIT_ERROR)
    reported = unreadable + sum(len(o.findings) for o in outcomes)
    sys.exit(EXIT_FINDINGS if reported and not kw["exit_zero"] else EXIT_CLEAN)


def _add_noqa(run: Run) -> int:
    jobs, outcomes = run.outcomes(ADD_NOQA)
    added = errors = left = 0
    for job, o in zip(jobs, outcomes):
        _say_problems(o)
        errors += o.status == "failed"
        if _unreadable_reported(job, o):
            click.echo(f"{o.display}: {rules.UNREADABLE.code} {o.error}", err=True)
            left += 1  # SPMD901 is a finding (exit 1), as in `check` and `fix`
        for error in o.errors:
            click.echo(f"{o.display}: {error}", err=True)
            errors += 1
        for row in o.noqa_skipped:
            where = _row_label(o, row)
            reason = "the line ends inside a multi-line string or a continuation"
            click.echo(f"{o.display}:{where}: no noqa comment added: {reason}", err=True)
        left += len(o.findings)
        if o.new_text is not None and not o.errors:
            try:
                write_source(o.source, o.new_text)
                added += len(o.noqa_added)
            except FileError as err:
                click.echo(f"{o.display}: {err}", err=True)
                errors += 1
                left += len(o.noqa_added)
    click.echo(f"Added {added} noqa directive{'s' if added != 1 else ''}.", err=True)
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if left and not run.kw["exit_zero"] else EXIT_CLEAN


def _row_label(o: FileOutcome, row: int) -> str:
    if o.cells is None:
        return str(row)
    cell, cell_row = o.cells.locate(row)
    return f"cell {cell}:{cell_row}"


# --- fix -------------------------------------------------------------------------------------------


@main.command()
@_common
@click.option(
    "--strategy",
    type=click.Choice([s.value for s in Strategy]),
    default=None,
    help="Transform to apply: auto picks, per finding, the first safe of rename, add-axis, strip [default: auto].",
)
@click.option("--diff", is_flag=True, help="Write nothing; print a unified diff and exit 1 when there are changes.")
@click.option("--interactive", "-i", is_flag=True, help="Show each fix as a diff and ask before applying it.")
@_guard_config
def fix(diff: bool, interactive: bool, **kw) -> None:
    """Apply fixes to PATHS in place (or show them with --diff; `-` reads stdin and writes stdout)."""
    run = Run(kw)
    if kw["show_settings"]:
        run.show_settings()
        return
    if interactive:
        if diff or run.stdin:
            raise click.UsageError("--interactive cannot be combined with --diff or stdin")
        if not _stdin_is_tty():
            click.echo("Error: --interactive needs a terminal on stdin to ask about each fix.", err=True)
            sys.exit(EXIT_ERROR)
        sys.exit(_interactive(run))
    if run.stdin and run.stdin_excluded():
        if not diff:
            _binary(sys.stdout).write(run.stdin_bytes())
        sys.exit(EXIT_CLEAN)
    jobs, outcomes = run.outcomes(FIX)
    if run.stdin:
        sys.exit(_fix_stdin(run, jobs, outcomes, diff))
    tally = _Tally()
    for job, o in zip(jobs, outcomes):
        _fix_one(o, diff, tally, job)
    click.echo(_summary(jobs, outcomes, tally.errors, tally.applied, diff, tally.unwritten), err=True)
    sys.exit(tally.exit_code(diff, kw["exit_zero"]))


class _Tally:
    """Counts of a fix run, and its exit code."""

    def __init__(self) -> None:
        self.changed = 0
        self.remaining = 0
        self.unwritten = 0  # findings of files whose fixed text could not be written, beyond their outcome's
        self.errors = 0
        self.internal = False
        self.applied: Counter = Counter()

    def exit_code(self, diff: bool, exit_zero: bool) -> int:
        if self.internal:
            return EXIT_ERROR
        if diff:
            return EXIT_FINDINGS if self.changed else EXIT_CLEAN
        return EXIT_FINDINGS if self.remaining and not exit_zero else EXIT_CLEAN


def _fix_one(o: FileOutcome, diff: bool, tally: _Tally, job: Job) -> None:
    """Report, diff or write one fix outcome."""
    if o.status == "unreadable":
        if rules.UNREADABLE.code in job.enabled:
            click.echo(f"{o.display}: {rules.UNREADABLE.code} {o.error}", err=True)
            tally.remaining += 1
            tally.errors += 1
        return
    _say_problems(o)
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
        click.echo(f"{o.display}: applied {f.transform} ({f.applicability}): {f.title} — {f.reason}", err=True)


def _fix_stdin(run: Run, jobs: list[Job], outcomes: list[FileOutcome], diff: bool) -> int:
    """`fix -`: the fixed source (or a diff) on stdout, messages on stderr."""
    job, o = jobs[0], outcomes[0]
    stdout = _binary(sys.stdout)
    tally = _Tally()
    if diff:
        _fix_one(o, True, tally, job)
    else:
        for message in (*o.errors, *o.notes):
            click.echo(f"{o.display}: {message}", err=True)
            tally.internal = tally.internal or message.startswith("internal error")
        _say_problems(o)
        tally.internal = tally.internal or o.status == "failed"
        tally.remaining = len(o.findings) + (o.status == "unreadable")
        if o.status == "unreadable":
            click.echo(f"{o.display}: {rules.UNREADABLE.code} {o.error}", err=True)
        if o.new_text is not None:
            tally.applied.update(str(f.transform) for f in o.applied)
            stdout.write(o.new_text.encode(o.source.encoding))
        else:
            stdout.write(run.stdin_bytes())
    click.echo(_summary(jobs, outcomes, int(tally.internal), tally.applied, diff), err=True)
    return tally.exit_code(diff, run.kw["exit_zero"])


# --- interactive fix -------------------------------------------------------------------------------


class _Asker:
    """Answers for one file: each offered fix shown as one diff, then [y]es / [n]o / [a]ll / [q]uit."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.all = False
        self.quit = False
        self.refused: set[tuple[str, str]] = set()

    def __call__(self, text: str, offered: list[tuple[Fix, tuple[Edit, ...]]]) -> list[str]:
        accepted: list[str] = []
        for fix, edits in offered:
            signature = (str(fix.transform), fix.title)
            if self.quit or signature in self.refused:
                continue
            if self.all:
                accepted.append(fix.key)
                continue
            answer = self._ask(text, fix, edits)
            if answer in ("y", "a"):
                accepted.append(fix.key)
                self.all = answer == "a"
            elif answer == "n":
                self.refused.add(signature)
            else:
                self.quit = True
        return accepted

    def _ask(self, text: str, fix: Fix, edits: tuple[Edit, ...]) -> str:
        click.echo(unified_diff(self.display, text, apply_edits(text, edits)), nl=False)
        click.echo(f"{fix.transform} ({fix.applicability}): {fix.title} — {fix.reason}")
        return click.prompt(
            "Apply this fix? [y]es / [n]o / [a]ll in this file / [q]uit",
            type=click.Choice(["y", "n", "a", "q"]),
            show_choices=False,
        )


def _interactive(run: Run) -> int:
    """`fix --interactive`: files one by one, in this process; the exit code."""
    tally = _Tally()
    for path in sorted(run.sources(), key=lambda p: p.parts):
        job = run.job(path, FIX)
        asker = _Asker(job.display)
        _interactive_file(job, asker, tally)
        if asker.quit:
            break
    click.echo(
        f"{tally.changed} file{'s' if tally.changed != 1 else ''} changed, "
        f"{sum(tally.applied.values())} fixes applied, {tally.remaining} findings left.",
        err=True,
    )
    return tally.exit_code(False, run.kw["exit_zero"])


def _interactive_file(job: Job, asker: _Asker, tally: _Tally) -> None:
    """Ask about each fix of one file, then write the accepted ones."""
    try:
        if job.path.stat().st_size > job.max_bytes:
            raise Skip("skipped: over the --max-file-size limit")
        prepared = prepare(job.path, read_source(job.path), job.include_generated)
    except Skip as err:
        click.echo(f"{job.display}: {err}", err=True)
        return
    except (FileError, OSError) as err:
        click.echo(f"{job.display}: {rules.UNREADABLE.code} {err}", err=True)
        tally.remaining += 1
        return
    result, _ = fix_text(prepared.text, job.options, job.enabled, asker)
    for error in result.errors:
        click.echo(f"{job.display}: {error}", err=True)
        tally.internal = tally.internal or error.startswith("internal error")
    left = [f for f in prepared.extra_findings(result.source) if f.code in job.enabled]
    tally.remaining += len(result.remaining) + len(left)
    if not result.applied:
        return
    try:
        write_source(prepared.source, prepared.render(result.source))
    except FileError as err:
        click.echo(f"{job.display}: {err}", err=True)
        tally.remaining += len(result.found) - len(result.remaining)
        return
    except notebook.NotebookError as err:
        click.echo(f"{job.display}: internal error: {err}; nothing written", err=True)
        tally.internal = True
        return
    tally.changed += 1
    tally.applied.update(str(f.transform) for f in result.applied)


# --- config, rule, lsp -----------------------------------------------------------------------------


@main.command()
@click.argument("path", required=False, type=click.Path(path_type=Path), default=Path("."))
@click.option("--config", "config_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None)
@_guard_config
def config(path: Path, config_file: Path | None) -> None:
    """Print the settings resolved for PATH (default: the working directory) and where they come from."""
    click.echo(render_settings(Resolver(Overrides(), config_file).for_path(path), path), nl=False)


@main.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
def rule(code: str | None, show_all: bool) -> None:
    """Print the documentation of rule CODE (e.g. SPMD001)."""
    if show_all or code is None:
        width = max(len(r.name) for r in rules.RULES.values())
        for r in rules.RULES.values():
            click.echo(f"{r.code}  {r.name:<{width}}  {r.summary}")
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
