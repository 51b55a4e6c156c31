"""What `check` and `fix` print: findings as text, JSON and the other formats, statistics, the summary.

Pure functions of the jobs and their results (`spmdfix.runner`, `spmdfix.results`), except `emit` (stdout or a file) and
`say_problems` (stderr).
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from spmdfix import __version__, rules
from spmdfix.model import AUTO, Options, choose_fix
from spmdfix.paths import relpath
from spmdfix.report import (
    FileReport,
    distinguished,
    error_record,
    json_records,
    text_lines,
    unfollowed_lines,
    unfollowed_records,
    vmap_places,
)
from spmdfix.summary import run_summary, statistics_lines, summary_line
from spmdfix.results import Failed, FileResult, Skipped, Unreadable
from spmdfix.runner import Job

if TYPE_CHECKING:
    from spmdfix.cache import PlainCounts

# ruff's names: "full" (each finding with its notes) and "concise" (one line a finding); "text" is "full".
OUTPUT_FORMATS = ("full", "concise", "text", "json", "json-lines", "sarif", "github")
TEXT_FORMATS = ("full", "concise", "text")


def report_options(func):
    """The options of `check` and `fix` that choose how findings are reported."""
    options = [
        click.option(
            "--output-format",
            type=click.Choice(OUTPUT_FORMATS),
            default=None,
            help="How findings are printed [default: full; `text` is `full`].",
        ),
        click.option(
            "--output-file",
            "-o",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="Write the report to this file.",
        ),
        click.option(
            "--show-fixes",
            is_flag=True,
            help=(
                "List every applicable fix and why the others are not offered, under each finding of the full text "
                "output (`concise` and `github` keep one line a finding; `json`, `json-lines` and `sarif` hold "
                "every fix anyway)."
            ),
        ),
        click.option(
            "--statistics", is_flag=True, help="Print the number of findings per rule instead of each finding."
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


# The formats that print one line a finding: `--show-fixes` adds nothing to them (ruff's concise output never
# shows a fix either; its `--show-fixes` is another flag, the violations `--fix` fixed).
ONE_LINE_FORMATS = ("concise", "github")


def fixes_not_shown(output_format: str | None, show_fixes: bool, statistics: bool = False) -> str | None:
    """The warning for `--show-fixes` with a format of one line a finding (or `--statistics`), which shows
    no fix: what to use instead; None when the fixes are shown or not asked for."""
    if not show_fixes:
        return None
    if statistics:
        return "warning: `--show-fixes` shows nothing with `--statistics` (counts per rule)"
    if output_format in ONE_LINE_FORMATS:
        return (
            f"warning: `--show-fixes` shows nothing in `--output-format {output_format}` (one line a finding): "
            "the fixes are listed by the full text output (the default) and held by `json` and `sarif`"
        )
    return None


def diff_path(path: Path) -> str:
    """The path a diff names a file by (after `a/` and `b/`): relative to the working directory, with `..`
    for a file outside it, as `git diff --no-index` writes it; never absolute (`a//tmp/...`)."""
    absolute = os.path.abspath(path)
    try:
        return os.path.relpath(absolute).replace(os.sep, "/")
    except ValueError:  # another drive (Windows): nothing relative names it
        return absolute.replace(os.sep, "/").lstrip("/")


def _abs(outcome: FileResult) -> str:
    return os.path.abspath(outcome.path)


def _report(o: FileResult) -> FileReport:
    return FileReport(o.display, _abs(o), o.text, o.findings)


def _unsafe_left(o: FileResult, options: Options) -> int:
    strategy = options.strategy
    return sum(
        1
        for f in o.findings
        if choose_fix(f, strategy, options.unsafe_fixes) is None and choose_fix(f, strategy, True) is not None
    )


def say_problems(o: FileResult, silent: bool = False) -> None:
    """Messages on stderr for a skipped or failed file (a generated file is only counted); with `silent`
    only an internal error is said."""
    from spmdfix.pipeline import GENERATED_MARK  # (here: a warm run the cache served whole never loads pipeline)

    if isinstance(o, Skipped):
        if GENERATED_MARK not in o.reason and not silent:
            click.echo(f"{o.display}: {o.reason}", err=True)
    elif isinstance(o, Failed):
        click.echo(f"{o.display}: internal error, file left as it is:\n{o.error}", err=True)


def summary(
    jobs: Sequence[Job],
    outcomes: Sequence[FileResult],
    errors: int,
    applied: Counter | None,
    diff: bool = False,
    unwritten: int = 0,
    served: PlainCounts | None = None,
    baselined: int = 0,
    unwritten_in: Sequence[str] = (),
    listed: bool = False,
) -> str:
    """The closing summary of a run (`summary.run_summary`) over its jobs and outcomes, and the files the
    results cache served without an outcome (`served`: checked, nothing found, no error); a `fix` run
    (`applied` given) says in which files its findings are left, those it could not write (`unwritten_in`,
    displays: their `unwritten` findings stay) among them; `listed`: the run's report listed the places not
    followed (`check --show-unresolved`)."""
    left_in: tuple[str, ...] = ()
    left_shown_by: tuple[str, ...] = ()
    if applied is not None:
        # the file each finding is located in: its own, or another module of the project its primary location
        # names (`Span.path`: a spec in pkg/layers.py reached from main.py's vmap; breaker5's q19 was told
        # "left in main.py")
        files: list[str] = []
        # the files whose check shows them: those, and a notebook whose vmap placed one in a module it imports
        # (checking that module alone shows it without the notebook's fixes: newuser7's trial)
        shown_by: list[str] = []
        for j, o in zip(jobs, outcomes):
            if unreadable_reported(j, o) or isinstance(o, Failed) or o.display in unwritten_in:
                files.append(o.display)
                shown_by.append(o.display)
            for f in o.findings:
                where = relpath(f.span.path).replace("\\", "/") if f.span.path else o.display
                files.append(where)
                shown_by += [where, o.display] if f.span.path and o.cells is not None else [where]
        left_in = tuple(dict.fromkeys(files))
        left_shown_by = tuple(dict.fromkeys(shown_by))
    return run_summary(
        scanned=len(outcomes) + (served.files if served else 0),
        parsed=sum(o.parsed for o in outcomes) + (served.parsed if served else 0),
        skipped=sum(isinstance(o, Skipped) for o in outcomes),
        # (SPMD901, a file that does not decode, is a finding as SPMD900 is, and as ruff's E902 is a diagnostic
        # its "Found N errors." counts: newuser6's trial)
        findings=sum(len(o.findings) + unreadable_reported(j, o) for j, o in zip(jobs, outcomes)) + unwritten,
        suppressed=sum(o.suppressed for o in outcomes) + (served.suppressed if served else 0),
        unsafe_left=sum(_unsafe_left(o, j.options) for j, o in zip(jobs, outcomes)),
        errors=errors,
        applied=applied,
        applied_label="fixes to apply" if diff else "fixes applied",
        unfollowed=unfollowed_vmaps(outcomes),
        unfollowed_plain=unfollowed_vmaps(outcomes, plain=True),
        left_in=left_in,
        baselined=baselined,
        left_shown_by=left_shown_by if left_shown_by != left_in else (),
        listed=listed,
    )


def unfollowed_vmaps(outcomes: Sequence[FileResult], plain: bool = False) -> int:
    """How many vmaps lead to code of the project the analysis could not follow (SPMD910); with `plain`, how
    many of them are plain vmaps (without `spmd_axis_name`: `model.Unfollowed.spmd`)."""
    return sum(len({place.vmap for place in o.unfollowed if not (plain and place.spmd)}) for o in outcomes)


def unreadable_reported(job: Job, o: FileResult) -> bool:
    """Whether `o` is an unreadable file that the job reports (SPMD901 enabled)."""
    return isinstance(o, Unreadable) and rules.UNREADABLE.code in job.enabled


def _records(
    jobs: Sequence[Job], outcomes: Sequence[FileResult], show_unresolved: bool = False, docs: str | None = None
) -> list[dict]:
    """Every file's records: its findings, then (`show_unresolved`) an SPMD910 record per place its spmd
    vmaps could not be followed (severity "info"); `docs`: the base of the rule links (`links.docs_base`)."""
    # Each record keyed as `_text` orders its lines: a finding by the file it lies in and its place there (as
    # ruff orders its diagnostics: one another file's vmap places in model.py is among model.py's), the SPMD910
    # records of a file's vmaps after its findings, in their order; then sorted (stable).
    keyed: list[tuple[tuple, dict]] = []
    for job, o in zip(jobs, outcomes):
        own = _abs(o)
        if unreadable_reported(job, o):
            keyed.append((
                (own, -1),
                error_record(o.display, own, rules.UNREADABLE.code, o.reason, docs=docs, position=o.position),
            ))
            continue
        found = json_records(_report(o), o.edits or {}, docs, job.options.strategy) if o.findings else []
        info = unfollowed_records(_report(o), o.unfollowed, docs) if show_unresolved and o.unfollowed else []
        if o.cells is not None:
            from spmdfix import notebook  # (a notebook's outcome: the module was imported to read it)

            found = [notebook.remap_record(r, o.cells, own) for r in found]
            info = [notebook.remap_record(r, o.cells, own) for r in info]
        keyed += [((r["filename"], 0, r.get("cell") or 0, r["location"]["row"], r["location"]["column"]), r) for r in found]
        keyed += [((own, 1, i), r) for i, r in enumerate(info)]
    keyed.sort(key=lambda item: item[0])
    return [record for _, record in keyed]


def formats_module():
    try:
        from spmdfix import formats
    except ImportError as err:  # pragma: no cover - formats.py ships with the package
        raise click.UsageError(f"this output format needs spmdfix.formats ({err})") from err
    return formats


def _text(jobs, outcomes, show_fixes: bool, notes: bool = True, show_unresolved: bool = False) -> str:
    # Each finding's lines keyed by the file it lies in and its place there (an unreadable file's line first
    # in its file, the SPMD910 lines of a file's vmaps after its findings), then sorted (stable): a finding
    # another file's vmap places in model.py is printed among model.py's, by row, as ruff orders diagnostics.
    # (concise: a finding's block is its one line, with where its vmap is, to tell it from another printed the
    # same: `report.distinguished`)
    blocks: list[tuple[tuple[str, int], list[str], tuple[str | None] | None]] = []
    fixable = hidden = reported = 0
    for job, o in zip(jobs, outcomes):
        own = _abs(o)
        if unreadable_reported(job, o):
            row, column = o.where
            blocks.append(((own, -1), [f"{o.display}:{row}:{column}: {rules.UNREADABLE.code} {o.reason}"], None))
            reported += 1
            continue
        if o.findings:
            unsafe, strategy = job.options.unsafe_fixes, job.options.strategy  # (what `fix` of the file applies)
            found = text_lines(_report(o), unsafe, show_fixes, o.cells, strategy)
            each = _finding_blocks(found)
            origins = vmap_places(_report(o), o.cells)
            if len(each) == len(o.findings) == len(origins):
                for finding, block, origin in zip(o.findings, each, origins):
                    where = os.path.abspath(finding.span.path) if finding.span.path else own
                    blocks.append(((where, finding.span.start), block if notes else block[:1], None if notes else (origin,)))
            else:  # (not one first line per finding: kept together, in the file's place)
                # (what explains a finding is indented under it: concise keeps the finding lines alone)
                blocks.append(((own, 0), found if notes else [line for line in found if not line.startswith(" ")], None))
            reported += len(o.findings)
            fixable += sum(choose_fix(f, strategy, unsafe) is not None for f in o.findings)
            hidden += sum(
                choose_fix(f, strategy, unsafe) is None and choose_fix(f, strategy, True) is not None
                for f in o.findings
            )
        if show_unresolved and o.unfollowed:
            blocks.append(((own, sys.maxsize), unfollowed_lines(_report(o), o.unfollowed, notes, o.cells), None))
    blocks.sort(key=lambda block: block[0])
    lines: list[str] = []
    concise: list[tuple[int, str | None]] = []  # (concise: each finding's line, by index, and where its vmap is)
    for _, block, origin in blocks:
        if origin is not None:
            concise.append((len(lines), origin[0]))
        lines.extend(block)
    if concise:
        told = distinguished([(lines[at], where) for at, where in concise])
        for (at, _), line in zip(concise, told):
            lines[at] = line
    lines.append(summary_line(reported, fixable, hidden, unfollowed_vmaps(outcomes), listed=show_unresolved))
    return "\n".join(lines) + "\n"


def _finding_blocks(lines: list[str]) -> list[list[str]]:
    """`text_lines`' output cut into one block a finding: its first line, then the indented lines under it."""
    blocks: list[list[str]] = []
    for line in lines:
        if line.startswith(" ") and blocks:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    return blocks


def statistics_report(jobs, outcomes, output_format: str) -> str:
    """`--statistics`: the number of findings per rule, as text or JSON."""
    counts: Counter = Counter()
    fixable: Counter = Counter()
    for job, o in zip(jobs, outcomes):
        if unreadable_reported(job, o):
            counts[rules.UNREADABLE.code] += 1
        for f in o.findings:
            counts[f.code] += 1
            fixable[f.code] += choose_fix(f, job.options.strategy, job.options.unsafe_fixes) is not None
    vmaps = unfollowed_vmaps(outcomes)
    if vmaps:  # information, not findings: the count of the closing summary
        counts[rules.UNFOLLOWED.code] = vmaps
    if output_format == "json":
        import json  # (only for JSON-like reports: a text report does not import it)

        rows = [
            {
                "code": code,
                "name": rules.RULES[code].name,
                "count": n,
                "fixable": fixable[code],
            }
            for code, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        ]
        return json.dumps(rows, indent=2) + "\n"
    lines = statistics_lines(counts)
    return "\n".join(lines) + "\n" if lines else ""


def render(
    jobs,
    outcomes,
    output_format: str,
    show_fixes: bool,
    show_unresolved: bool = False,
    docs: Callable[[], str | None] | None = None,
) -> str:
    """The report of the findings of `outcomes` in one of `OUTPUT_FORMATS`; with `show_unresolved` also
    the places the analysis could not follow (SPMD910, information: SARIF's notifications, GitHub's
    notices). `docs` gives the base of the rule links (the `docs-url` setting, `links.docs_base`), asked
    for only by the formats that link to rules (JSON's `url`, SARIF's `helpUri`)."""
    if output_format in TEXT_FORMATS:
        return _text(jobs, outcomes, show_fixes, notes=output_format != "concise", show_unresolved=show_unresolved)
    import json

    base = docs() if docs is not None else None
    records = _records(jobs, outcomes, show_unresolved, base)
    if output_format == "json":
        return json.dumps(records, indent=2, ensure_ascii=False) + "\n"
    formats = formats_module()
    if output_format == "json-lines":
        return formats.json_lines(records)
    if output_format == "sarif":
        return json.dumps(formats.sarif(records, __version__, docs=base), indent=2, ensure_ascii=False) + "\n"
    return formats.github(records)


def emit(text: str, output_file: Path | None) -> None:
    if output_file is None:
        click.echo(text, nl=False)
        return
    try:
        output_file.parent.mkdir(parents=True, exist_ok=True)
        output_file.write_text(text, encoding="utf-8")
    except OSError as err:
        raise click.ClickException(f"cannot write {output_file}: {err.strerror or err}") from err
