"""The migration report of `spmdfix fix --report FILE` (`.html` or `.md`): what a whole run found and did.

A reviewer of a migration wants, per file: each finding, the fix chosen for it and why (its safety class and
the measured reason the planner gave), the alternatives not taken and why, the diff, and what is left for a
human; and the totals of the run. This module builds that as data (`build`) from the results of a check of
the files as they were (the findings with every fix and refusal) and of the fix run (the fixes applied, the
findings left, the other modules changed), and renders it as Markdown (`markdown`) or as one self-contained
HTML page (`html_page`: inline style, no script, no link or resource outside the page).

Pure: no I/O (the command writes the text it returns).
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from spmdfix.paths import relpath
from spmdfix.model import AUTO, Applicability, Finding, Fix, Options, Transform, choose_fix
from spmdfix.diffs import unified_diff
from spmdfix.perf import frozen
from spmdfix.report import FileReport, location, no_fix_reason
from spmdfix.results import Checked, Failed, FileResult, Fixed, Unreadable


@frozen(slots=True)
class FixNote:
    """One fix of a finding as the report shows it: its transform, safety class, title and the planner's reason
    (`Fix.reason`, which cites what was measured); `why_not` says why it was not the one taken ("" for the
    chosen fix)."""

    transform: str
    applicability: str
    title: str
    reason: str
    why_not: str = ""


@frozen(slots=True)
class FindingEntry:
    """One finding of the files as they were: where (`path:row:col`), code, message; the fix chosen (None
    when none is taken) and whether the run applied it; the other fixes, and the transforms not offered with
    their reasons."""

    where: str
    code: str
    name: str
    message: str
    chosen: FixNote | None
    applied: bool
    alternatives: tuple[FixNote, ...]
    refusals: tuple[tuple[str, str], ...]


@frozen(slots=True)
class LeftEntry:
    """A finding left after the run, for a human: where, code, message and why no fix took it."""

    where: str
    code: str
    message: str
    why: str


@frozen(slots=True)
class FileEntry:
    """What the report says of one file: its findings before, its diff ("" when unchanged), the findings left,
    and what went wrong (an unreadable file, a fix that could not be applied)."""

    display: str
    findings: tuple[FindingEntry, ...]
    diff: str
    left: tuple[LeftEntry, ...]
    problems: tuple[str, ...]


@frozen(slots=True)
class Totals:
    """The run's figures: files checked, files with findings, findings found, fixes applied (by transform and
    safety class), files changed, findings left, spmd vmaps not followed to the end, files with problems."""

    files: int
    files_with_findings: int
    found: int
    applied: tuple[tuple[str, str, int], ...]
    changed: int
    left: int
    unfollowed: int
    problems: int

    @property
    def applied_count(self) -> int:
        return sum(n for _, _, n in self.applied)


@frozen(slots=True)
class MigrationReport:
    """The whole report: how the run was asked (strategy, unsafe fixes, preview only), its files (those with
    something to say, in the run's order) and totals."""

    strategy: str
    unsafe_fixes: bool
    preview: bool
    files: tuple[FileEntry, ...]
    totals: Totals


def build(
    before: Sequence[FileResult],
    after: Sequence[FileResult],
    others: Mapping[str, tuple[str, str]],
    options: Sequence[Options],
    preview: bool,
) -> MigrationReport:
    """The report of one fix run.

    before: the results of checking the run's files as they were (`Mode.CHECK`: the findings with every fix
    and refusal); after: the results of the fix run, in the same order of files, with the fixes that edit
    other modules applied (`cli.crossmodule.with_cross_module_fixes`); others: {absolute path: (old, new)} of
    the modules outside the run's files that those fixes changed (shown by their path); options: each file's
    options (its strategy and `--unsafe-fixes`, from the settings of its directory); preview: nothing was written (`--diff`). Raises ValueError when `before`
    and `after` do not hold the same files in the same order."""
    if [str(b.path) for b in before] != [str(a.path) for a in after] or len(options) != len(after):
        raise ValueError("the check and the fix run did not cover the same files")
    applied_ids = {fix.id for a in after if isinstance(a, Fixed) for fix in a.applied}
    # The modules as the findings were found in them: a finding of one file may lie in another module, which a
    # fix may have rewritten on disk since (newuser9: the place read from the new text was off).
    texts = {
        str(key): text
        for b, a in zip(before, after)
        if (text := _found_text(b, a)) is not None
        for key in {Path(b.path).absolute(), Path(b.path).resolve()}
    }
    texts.update({path: old for path, (old, _) in others.items()})
    files = []
    for b, a, o in zip(before, after, options):
        entry = _file_entry(b, a, o, applied_ids, texts)
        if entry.findings or entry.diff or entry.left or entry.problems:
            files.append(entry)
    for path, (old, new) in sorted(others.items()):
        shown = _shown(path)
        files.append(FileEntry(shown, (), unified_diff(shown, old, new), (), ("changed by a fix of another module",)))
    applied = Counter(
        (str(fix.transform), str(fix.applicability)) for a in after if isinstance(a, Fixed) for fix in a.applied
    )
    totals = Totals(
        files=len(after),
        files_with_findings=sum(1 for b in before if b.findings),
        found=sum(len(b.findings) for b in before),
        applied=tuple(sorted((t, s, n) for (t, s), n in applied.items())),
        changed=sum(1 for a in after if isinstance(a, Fixed)) + len(others),
        left=sum(len(a.findings) for a in after),
        unfollowed=sum(len(a.unfollowed) for a in after),
        problems=sum(1 for f in files if _is_problem(f)),
    )
    strategies = ", ".join(sorted({str(o.strategy) for o in options})) or str(AUTO)
    return MigrationReport(strategies, any(o.unsafe_fixes for o in options), preview, tuple(files), totals)


def _found_text(before: FileResult, after: FileResult) -> str | None:
    """The text of a run's file as the check found it, for placing the findings that lie in it: the analysed
    text, else the file as read (by the check or the fix run); None when neither kept it (the place is then
    read from disk). A module the check did not parse (a spec but no vmap, in a run over its whole project)
    keeps no analysed text (`Checked.text == ""`): taken as its text, it placed a finding of another file's
    vmap at row 1 (newuser10's trial: `src/ddp/model.py:1:183` for `10:14`)."""
    text = getattr(before, "text", None)
    if text:
        return text
    for result in (before, after):
        source = getattr(result, "source", None)
        if source is not None and not str(result.path).endswith(".ipynb"):  # (a notebook's is its JSON)
            return source.text
    return None


def _is_problem(entry: FileEntry) -> bool:
    return any(p != "changed by a fix of another module" for p in entry.problems)


def _shown(path: str) -> str:
    return relpath(path).replace("\\", "/")


def _file_entry(
    before: FileResult, after: FileResult, options: Options, applied_ids: set, texts: Mapping[str, str]
) -> FileEntry:
    """One file's entry: its findings placed in the texts they were found in (`texts`), its diff, and what
    is left placed in the texts as written."""
    report = FileReport(before.display, str(before.path), before.text, before.findings)
    findings = tuple(_finding_entry(report, f, options, applied_ids, before.cells, texts) for f in before.findings)
    diff = ""
    if isinstance(after, Fixed):
        diff = unified_diff(after.display, after.source.text, after.new_text)
    left_report = FileReport(after.display, str(after.path), after.text, after.findings)
    left = tuple(
        LeftEntry(location(left_report, f.span, after.cells), f.code, f.message, _why_left(f, options))
        for f in after.findings
    )
    return FileEntry(before.display, findings, diff, left, _problems(before, after))


def _problems(before: FileResult, after: FileResult) -> tuple[str, ...]:
    out: list[str] = []
    for o in (before, after):
        if isinstance(o, Unreadable) and o.reason not in out:
            out.append(o.reason)
        if isinstance(o, Failed):
            out.append("internal error: " + (o.error.strip().splitlines() or [""])[-1])
    if isinstance(after, (Checked, Fixed)):
        out.extend(after.errors)
    return tuple(out)


def _finding_entry(
    report: FileReport, finding: Finding, options: Options, applied_ids: set, cells, texts: Mapping[str, str]
) -> FindingEntry:
    chosen = choose_fix(finding, options.strategy, options.unsafe_fixes)
    alternatives = tuple(
        _note(fix, _why_not(fix, chosen, options)) for fix in finding.fixes if chosen is None or fix.id != chosen.id
    )
    return FindingEntry(
        where=location(report, finding.span, cells, texts),
        code=finding.code,
        name=finding.name,
        message=finding.message,
        chosen=None if chosen is None else _note(chosen, ""),
        applied=chosen is not None and chosen.id in applied_ids,
        alternatives=alternatives,
        refusals=tuple((str(r.transform), r.reason) for r in finding.refusals),
    )


def _note(fix: Fix, why_not: str) -> FixNote:
    return FixNote(str(fix.transform), str(fix.applicability), fix.title, fix.reason, why_not)


def _why_not(fix: Fix, chosen: Fix | None, options: Options) -> str:
    """Why `fix` was not the one taken: the strategy names another transform, it is unsafe without
    `--unsafe-fixes`, or auto took an earlier one in its order."""
    if options.strategy != AUTO and fix.transform != options.strategy:
        return f"--strategy {options.strategy} was asked for"
    if fix.applicability == Applicability.UNSAFE and not options.unsafe_fixes:
        return "unsafe: applied only with --unsafe-fixes"
    if chosen is not None:
        return f"auto takes the first safe fix, and {chosen.transform} comes before {fix.transform} in its order"
    return "not chosen"


def _why_left(finding: Finding, options: Options) -> str:
    if options.strategy == AUTO:
        return no_fix_reason(finding)
    fix = finding.fix_for(Transform(options.strategy))
    if fix is None:
        return f"{options.strategy} is not offered for it; " + no_fix_reason(finding)
    if fix.applicability == Applicability.UNSAFE and not options.unsafe_fixes:
        return f"{options.strategy} is unsafe ({fix.reason}); --unsafe-fixes applies it"
    return "its fix could not be applied in this run (see the problems of the file)"


# --- Markdown ------------------------------------------------------------------------------------------


def markdown(report: MigrationReport) -> str:
    """The report as Markdown: a title, the totals, then a section per file."""
    out = ["# spmdfix migration report", "", _how(report), "", "## Totals", ""]
    out += [f"- {label}: {value}" for label, value in _totals_rows(report.totals, report.preview)]
    for entry in report.files:
        out += ["", f"## `{entry.display}`"]
        out += ["", *(f"- problem: {p}" for p in entry.problems)] if entry.problems else []
        for f in entry.findings:
            out += ["", f"### {f.code} at `{f.where}`", "", _md(f.message), ""]
            out.append(f"- **fix chosen**: {_md_fix(f.chosen)}; {_outcome(f, report.preview)}" if f.chosen else "- **no fix chosen**")
            out += [f"- alternative: {_md_fix(a)}; not taken: {_md(a.why_not)}" for a in f.alternatives]
            out += [f"- not offered: {t}: {_md(r)}" for t, r in f.refusals]
        if entry.diff:
            out += ["", "```diff", entry.diff.rstrip("\n"), "```"]
        if entry.left:
            out += ["", "Left for a human:", ""]
            out += [f"- `{x.where}` {x.code} {_md(x.message)} ({_md(x.why)})" for x in entry.left]
    if not report.files:
        out += ["", "No file had a finding."]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return text.replace("\n", " ")


def _md_fix(note: FixNote) -> str:
    return f"{note.transform} [{note.applicability}]: {_md(note.title)} — {_md(note.reason)}"


def _outcome(f: FindingEntry, preview: bool) -> str:
    if f.applied:
        return "to apply (preview)" if preview else "applied"
    return "not applied in this run (its edits overlapped another fix's, or a fix applied first removed the finding)"


def _how(report: MigrationReport) -> str:
    mode = "a preview (`--diff`): nothing was written" if report.preview else "the files were written"
    unsafe = "with" if report.unsafe_fixes else "without"
    return f"Strategy `{report.strategy}`, {unsafe} `--unsafe-fixes`; {mode}."


def _totals_rows(t: Totals, preview: bool) -> list[tuple[str, str]]:
    applied = ", ".join(f"{n} {tr} ({s})" for tr, s, n in t.applied) or "none"
    return [
        ("files checked", str(t.files)),
        ("files with findings", str(t.files_with_findings)),
        ("findings found", str(t.found)),
        ("fixes to apply (preview)" if preview else "fixes applied", f"{t.applied_count}: {applied}"),
        ("files to change (preview)" if preview else "files changed", str(t.changed)),
        ("findings left", str(t.left)),
        ("spmd vmaps not followed to the end (SPMD910)", str(t.unfollowed)),
        ("files with problems", str(t.problems)),
    ]


# --- HTML ----------------------------------------------------------------------------------------------

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#1b1b1b}
h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
h3{font-size:1.05em;margin-bottom:.3em}code,pre{font:13px/1.4 ui-monospace,monospace}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
pre{background:#f6f8fa;padding:.6em;overflow-x:auto}.add{color:#116329;background:#dafbe1;display:block}
.del{color:#82071e;background:#ffebe9;display:block}.hunk{color:#6639ba;display:block}.head{font-weight:600;display:block}
.safe{color:#116329;font-weight:600}.unsafe{color:#9a6700;font-weight:600}.left{background:#fff8c5}
ul{margin:.2em 0}
"""


def html_page(report: MigrationReport) -> str:
    """The report as one self-contained HTML page: inline style, no script, no link or resource that leaves
    the page (a browser opens it with no network request)."""
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">',
        "<title>spmdfix migration report</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>spmdfix migration report</h1>",
        f"<p>{_inline(_how(report))}</p>",
        '<h2 id="totals">Totals</h2><table>',
    ]
    parts += [f"<tr><th>{e(label)}</th><td>{e(value)}</td></tr>" for label, value in _totals_rows(report.totals, report.preview)]
    parts.append("</table>")
    if report.files:
        parts.append("<h2>Files</h2><ul>")
        parts += [f'<li><a href="#file-{i}"><code>{e(f.display)}</code></a></li>' for i, f in enumerate(report.files)]
        parts.append("</ul>")
    else:
        parts.append("<p>No file had a finding.</p>")
    for i, entry in enumerate(report.files):
        parts.append(f'<h2 id="file-{i}"><code>{e(entry.display)}</code></h2>')
        parts += [f"<p>Problem: {e(p)}</p>" for p in entry.problems]
        for f in entry.findings:
            parts.append(f'<section class="finding"><h3>{e(f.code)} at <code>{e(f.where)}</code></h3>')
            parts.append(f"<p>{_inline(f.message)}</p><ul>")
            if f.chosen is not None:
                parts.append(f"<li>Fix chosen: {_html_fix(f.chosen)}; {e(_outcome(f, report.preview))}</li>")
            else:
                parts.append("<li>No fix chosen</li>")
            parts += [f"<li>Alternative: {_html_fix(a)}; not taken: {_inline(a.why_not)}</li>" for a in f.alternatives]
            parts += [f"<li>Not offered: {e(t)}: {_inline(r)}</li>" for t, r in f.refusals]
            parts.append("</ul></section>")
        if entry.diff:
            parts.append(f"<h3>Diff</h3><pre>{_html_diff(entry.diff)}</pre>")
        if entry.left:
            parts.append('<h3>Left for a human</h3><ul class="left">')
            parts += [
                f"<li><code>{e(x.where)}</code> {e(x.code)} {_inline(x.message)} ({_inline(x.why)})</li>"
                for x in entry.left
            ]
            parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _inline(text: str) -> str:
    """Escaped text with its backticked parts as `<code>` (a text with an odd number of backticks is shown
    as it is)."""
    pieces = html.escape(text).split("`")
    if len(pieces) % 2 == 0:
        return html.escape(text)
    return "".join(p if i % 2 == 0 else f"<code>{p}</code>" for i, p in enumerate(pieces))


def _html_fix(note: FixNote) -> str:
    e = html.escape
    css = "safe" if note.applicability == str(Applicability.SAFE) else "unsafe"
    return (
        f'{e(note.transform)} <span class="{css}">[{e(note.applicability)}]</span>: '
        f"{_inline(note.title)} — {_inline(note.reason)}"
    )


def _html_diff(diff: str) -> str:
    out = []
    for line in diff.splitlines():
        if line.startswith(("--- ", "+++ ")):
            css = "head"
        else:
            css = {"@": "hunk", "+": "add", "-": "del"}.get(line[:1], "")
        text = html.escape(line)
        out.append(f'<span class="{css}">{text}</span>' if css else text + "\n")
    return "".join(out)


def render(report: MigrationReport, suffix: str) -> str:
    """The report in the format a file's suffix names: `.html` / `.htm` or `.md` / `.markdown`. Raises
    ValueError for any other suffix."""
    kind = suffix.lower()
    if kind in (".html", ".htm"):
        return html_page(report)
    if kind in (".md", ".markdown"):
        return markdown(report)
    raise ValueError(f"a report is written as .html or .md, not {suffix or 'a file without a suffix'}")


def report_suffixes() -> Iterable[str]:
    """The suffixes `render` accepts."""
    return (".html", ".htm", ".md", ".markdown")
