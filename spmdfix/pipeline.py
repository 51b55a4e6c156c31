"""The per-file entry point: one file's text and its settings in, its findings (or its fixed text) out.

Every front end goes through here, so a file gets the same findings and the same fixes wherever it is
checked (as Fixit's one generator does for its front ends): the CLI's runner (`spmdfix.runner`, which
reads and writes files), the language server (on the editor's unsaved buffer), notebooks (through their
virtual module) and the libcst codemod commands. The steps, all pure (text in, data out):

1. prepare (`prepare`): a notebook (`.ipynb`) becomes its virtual module of code cells; a file marked
   `@generated` in its first lines is skipped unless asked for (`Skip`).
2. analyse: `api.check_source` on the text (with the module's path and the project index when the
   caller has one), plus the SPMD900 findings of notebook cells that do not parse.
3. select (`select`): only the rule codes the file's settings enable (`select`, `ignore`,
   `per-file-ignores` of `[tool.spmdfix]`, `FileSettings.enabled`) are reported, and a finding whose line
   has a suppression comment (`# noqa`, `# spmdfix: ignore[...]`, `spmdfix.noqa`) is suppressed; a fix
   that would also change a suppressed finding is not offered (`choice.without_blocked_fixes`); a finding
   of a rule the settings make unfixable (`unfixable`, `fixable`) is reported without its fixes; a notebook's
   finding comes without the fixes that edit another module (`notebook_alone`: a notebook is fixed alone).
4. choose: each finding's fix under the settings' `strategy` and `unsafe-fixes` (`model.choose_fix`);
   `fix_prepared` applies the chosen fixes pass after pass (`api.fix_source`), with the file's `new-axis`.

A file's settings come from `spmdfix.file_settings` (`resolve`). The analysis (`spmdfix.api`) is imported
when first needed: the CLI's main process imports this module while its worker processes analyse.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spmdfix import rules
from spmdfix.file_settings import FileSettings
from spmdfix.model import (
    LAYOUT_CHANGING,
    LAYOUT_REASON,
    UNFIXABLE_REASON,
    Applicability,
    Edit,
    Finding,
    Fix,
    Refusal,
    Span,
    Unfollowed,
)
from spmdfix.perf import record
from spmdfix.choice import without_blocked_fixes

if TYPE_CHECKING:
    from spmdfix import notebook
    from spmdfix.analysis.index import ProjectIndex
    from spmdfix.api import Reviewer

GENERATED_MARK = "@generated"
GENERATED_LINES = 5


# --- preparing a file's text ---------------------------------------------------------------------------


class Skip(Exception):
    """A file deliberately not analysed; the message says why."""


def is_generated(text: str) -> bool:
    """True when one of the first `GENERATED_LINES` lines (split at "\\n") says `@generated`. The mark holds
    no line break, so it is in one of those lines exactly when it is in the text before the end of the last
    of them: a search up to there, without splitting (and copying) the rest of the text."""
    end = -1
    for _ in range(GENERATED_LINES):
        end = text.find("\n", end + 1)
        if end < 0:
            end = len(text)
            break
    return text.find(GENERATED_MARK, 0, end) >= 0


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@record(frozen=True)
class Prepared:
    """A file's text made ready for analysis: `text` is what is analysed (a notebook's virtual module, else
    the file's text itself), and `render` turns a new analysed text back into the file's text."""

    file_text: str
    text: str
    nb: notebook.Notebook | None = None

    def render(self, new_text: str) -> str:
        """The file's new content for a new analysed text. Raises `notebook.NotebookError`."""
        if self.nb is None:
            return new_text
        from spmdfix import notebook  # (imported where a notebook is read: a module's run never needs it)

        return notebook.render(self.nb, new_text)

    def extra_findings(self, text: str) -> list[Finding]:
        """Findings the analysis of `text` cannot see: syntax errors of left-out notebook cells."""
        if self.nb is None:
            return []
        from spmdfix import notebook
        from spmdfix.prefilter import may_have_findings

        return notebook.syntax_findings(self.nb, text) if may_have_findings(text) else []

    def cells(self, text: str) -> notebook.CellIndex | None:
        """For a notebook, where the rows of `text` come from (cells); None for a module."""
        if self.nb is None:
            return None
        from spmdfix import notebook

        return notebook.cell_index(text)


def prepare(path: Path | None, text: str, include_generated: bool = False) -> Prepared:
    """The analysed text of a module or notebook (a notebook when `path` ends in `.ipynb`).

    Raises `Skip` for a file not to analyse (marked `@generated`, a notebook not in Python), and
    `notebook.NotebookError` for a notebook that cannot be read.
    """
    if path is None or path.suffix != ".ipynb":
        if not include_generated and is_generated(text):
            raise Skip(f"skipped: marked {GENERATED_MARK} (use --include-generated to check it)")
        return Prepared(text, text)
    from spmdfix import notebook
    from spmdfix.prefilter import may_have_findings

    try:
        nb = notebook.parse(text)
    except notebook.NotPython as err:
        raise Skip(f"skipped: {err}") from err
    virtual = notebook.virtual_source(nb)
    if may_have_findings(virtual):
        nb = notebook.check_cells(nb)
        virtual = notebook.virtual_source(nb)
    return Prepared(text, virtual, nb)


# --- checking -------------------------------------------------------------------------------------------


def select(
    text: str,
    findings: Iterable[Finding],
    enabled: frozenset[str],
    unfixable: frozenset[str] = frozenset(),
    layout_changing_fixes: str = "safe",
    buffers: Mapping[str, str] | None = None,
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (),
) -> tuple[list[Finding], list[Finding]]:
    """(reported, suppressed): findings of `enabled` codes, split by the suppression comments of `text` (and
    of the other modules a finding names, `buffers` standing for the files it holds: `noqa.split_suppressed`); a
    reported finding of an `unfixable` code (`Options.unfixable`) comes without its fixes, each said as a
    refusal, so that neither `check` offers nor `fix` applies them (ruff's `unfixable`). With
    `layout_changing_fixes` "unsafe" (`Options.layout_changing_fixes`), every safe fix that moves the batch
    (`model.LAYOUT_CHANGING`) is unsafe, its reason naming the setting. `per_file_ignores`
    (`Options.per_file_ignores`): a finding is not reported either when an entry ignores its code for the
    other module it lies in (model.py's spec, found from train.py) or for the other module holding its vmap's
    `spmd_axis_name` (train.py, in a partial run of model.py): as a `# noqa` on either line, either file's
    entry removes it."""
    from spmdfix import noqa  # (only where a text was analysed: a warm run analyses none)

    enabled_here = [f for f in findings if f.code in enabled]
    if per_file_ignores:
        enabled_here = [f for f in enabled_here if not _ignored_elsewhere(f, per_file_ignores, noqa.vmap_place(f))]
    reported, suppressed = noqa.split_suppressed(text, enabled_here, buffers)
    if unfixable:
        reported = [_without_fixes(f) if f.code in unfixable and f.fixes else f for f in reported]
    if layout_changing_fixes == "unsafe":
        reported = [layout_unsafe(f) for f in reported]
    return reported, suppressed


def _ignored_elsewhere(finding: Finding, ignores, vmap: Span | None) -> bool:
    """Whether `per-file-ignores` (`ignores`) ignore the code of `finding` for another module it names: the
    one it lies in, or the one holding its vmap's `spmd_axis_name` (`noqa.vmap_place`)."""
    from spmdfix.settings import ignored_at

    paths = {span.path for span in (finding.span, vmap) if span is not None and span.path}
    return any(finding.code in ignored_at(ignores, path) for path in paths)


def layout_unsafe(finding: Finding) -> Finding:
    """`finding` with its safe layout-changing fixes unsafe, the reason saying the setting does it (the
    claim it had, and where the batch goes, follow)."""
    fixes = tuple(
        replace(fix, applicability=Applicability.UNSAFE, reason=f"{LAYOUT_REASON}; {fix.reason}")
        if fix.transform in LAYOUT_CHANGING and fix.applicability == Applicability.SAFE
        else fix
        for fix in finding.fixes
    )
    return replace(finding, fixes=fixes)


def _without_fixes(finding: Finding) -> Finding:
    """`finding` of an unfixable rule: no fixes, each said as a refusal (before the analysis' own)."""
    return replace(finding, fixes=(), refusals=unfixable_refusals(finding) + finding.refusals)


def unfixable_refusals(finding: Finding) -> tuple[Refusal, ...]:
    """The refusals that say each fix of `finding`, of an unfixable rule, is not offered."""
    reason = UNFIXABLE_REASON.format(code=finding.code)
    return tuple(Refusal(fix.transform, reason) for fix in finding.fixes)


def _where(path: Path | None, index: ProjectIndex | None) -> dict[str, Any]:
    """The keyword arguments that let the analysis follow imports into other modules of the project: the
    module's path and the project index, only when the caller has an index."""
    return {} if index is None else {"path": path, "index": index}


@record(frozen=True)
class Checked:
    """The findings of one file's text under its settings.

    text: the analysed text (`Prepared.text`) that the spans of `findings` refer to. findings: the reported
    findings, sorted, each without the fixes a suppressed finding blocks. suppressed: the findings a comment
    suppresses. syntax_error: the SPMD900 finding when the text does not parse (also when `ignore`d).
    unfollowed: the places on the way from the file's spmd vmaps into code of the project that the analysis
    could not follow (`model.Unfollowed`; empty when SPMD910 is not selected): not findings, but what a
    front end may count or list (the CLI's summary and `--show-unresolved`).
    """

    text: str
    settings: FileSettings
    findings: tuple[Finding, ...] = ()
    suppressed: tuple[Finding, ...] = ()
    syntax_error: Finding | None = None
    unfollowed: tuple[Unfollowed, ...] = ()

    def chosen(self, finding: Finding) -> Fix | None:
        """The fix `fix` applies for `finding` under the file's settings, or None."""
        return self.settings.chosen(finding)

    @property
    def fixable(self) -> bool:
        """True when some finding has a fix that `fix` applies."""
        return any(self.chosen(f) is not None for f in self.findings)


def findings_of(
    prepared: Prepared,
    text: str,
    settings: FileSettings,
    *,
    path: Path | None = None,
    index: ProjectIndex | None = None,
    reached: Iterable[Finding] = (),
) -> tuple[list[Finding], list[Finding], Finding | None]:
    """(reported, suppressed, syntax error) of `text`, an analysed text of the prepared file (the reported
    findings keep every fix: `check_prepared` drops the blocked ones). reached: as `check_prepared`'s."""
    return _analysed(prepared, text, settings, path, index, reached=reached)[:3]


def _analysed(
    prepared: Prepared,
    text: str,
    settings: FileSettings,
    path: Path | None,
    index: ProjectIndex | None,
    prefiltered: bool = False,
    reached: Iterable[Finding] = (),
) -> tuple[list[Finding], list[Finding], Finding | None, tuple[Unfollowed, ...]]:
    """`findings_of`, and the places the analysis could not follow when SPMD910 is selected. prefiltered: as
    `api.analyse_source`'s; reached: as `check_prepared`'s."""
    from spmdfix import (
        api,  # the analysis: imported where files are checked (a worker, the server)
    )

    analysis = api.analyse_source(text, settings.options, prefiltered=prefiltered, **_where(path, index))
    found = analysis.findings + prepared.extra_findings(text)
    if reached:
        own = set(found)
        found += [f for f in dict.fromkeys(reached) if f not in own]
    found.sort(key=lambda f: (f.span.path, f.span.start, f.code, f.message))
    error = next((f for f in found if f.code == rules.SYNTAX_ERROR.code), None)
    options = settings.options
    buffers = index.overlay if index is not None else None  # (a language server's unsaved documents)
    reported, suppressed = select(
        text, found, settings.enabled, options.unfixable, options.layout_changing_fixes, buffers, options.per_file_ignores
    )
    if prepared.nb is not None:
        reported = [notebook_alone(f) for f in reported]
    unfollowed = analysis.unfollowed if rules.UNFOLLOWED.code in settings.enabled else ()
    return reported, suppressed, error, unfollowed


def notebook_alone(finding: Finding) -> Finding:
    """A notebook's `finding` without the fixes that edit another module (add-axis of a mesh in config.py, a
    strip of an imported module's specs), each said as a refusal: a notebook is fixed alone (it is no module
    of the project: nothing imports it), so `fix` never applies them, and `check` must not offer them as
    `[*]` (newuser7's trial: `check` said "2 fixable", `fix` applied none and said nothing). Its next fix,
    one within the notebook, is then the one `auto` takes."""
    if not any(fix.edits_other_modules for fix in finding.fixes):
        return finding
    from spmdfix.paths import relpath

    kept, refused = [], []
    for fix in finding.fixes:
        if not fix.edits_other_modules:
            kept.append(fix)
            continue
        others = sorted({relpath(e.span.path).replace("\\", "/") for e in fix.node_edits if e.span.path})
        refused.append(Refusal(fix.transform, (
            f"it edits {', '.join(others)}, and a notebook is fixed alone (nothing imports it): no fix of a "
            "notebook's finding edits another module"
        )))
    return replace(finding, fixes=tuple(kept), refusals=tuple(refused) + finding.refusals)


def check_prepared(
    prepared: Prepared,
    settings: FileSettings,
    *,
    path: Path | None = None,
    index: ProjectIndex | None = None,
    prefiltered: bool = False,
    reached: Iterable[Finding] = (),
    reached_unfollowed: Iterable[Unfollowed] = (),
) -> Checked:
    """The findings of a prepared file (see the module doc: analyse, select). Raises what the analysis
    raises (front ends catch it per file). prefiltered: the caller knows the text passes the prefilter
    (`api.analyse_source`). reached: findings located in this file that the analysis of other modules gave
    (`reaching.reached`: a partial run), selected with the file's own; one equal to an own finding is dropped.
    reached_unfollowed: the SPMD910 records located in this file that those analyses gave, kept with the
    file's own (when SPMD910 is selected)."""
    reported, suppressed, error, unfollowed = _analysed(prepared, prepared.text, settings, path, index, prefiltered, reached)
    if reached_unfollowed and rules.UNFOLLOWED.code in settings.enabled:
        unfollowed += tuple(r for r in dict.fromkeys(reached_unfollowed) if r not in unfollowed)
    reported = without_blocked_fixes(reported, suppressed)
    return Checked(prepared.text, settings, tuple(reported), tuple(suppressed), error, unfollowed)


def check_file(
    path: Path | None,
    text: str,
    settings: FileSettings = FileSettings(),
    *,
    index: ProjectIndex | None = None,
    include_generated: bool = False,
    reached: Iterable[Finding] = (),
    reached_unfollowed: Iterable[Unfollowed] = (),
) -> Checked:
    """The findings of one file: `text` is its content (the editor's unsaved buffer, or what was read),
    `path` where it lives (None for a buffer without one), `settings` what its configuration resolves to
    (`file_settings.resolve`), `index` the project index for imports from other modules (None: this module
    alone), `reached` the findings other modules place in it and `reached_unfollowed` their SPMD910 records
    located in it (as `check_prepared`'s: a partial run).

    Raises `Skip` and `notebook.NotebookError` as `prepare` does.
    """
    return check_prepared(
        prepare(path, text, include_generated), settings, path=path, index=index, reached=reached,
        reached_unfollowed=reached_unfollowed,
    )


# --- fixing ---------------------------------------------------------------------------------------------


def fix_edits(text: str, fixes: Iterable[Fix]) -> dict[str, tuple[Edit, ...] | str]:
    """The text edits of each of `fixes` (by key) on `text`, an analysed text whose findings carry them; a
    string says why one could not be built (`api.fix_edits_for`: a code action, JSON's `fix` field).

    Raises `libcst.ParserSyntaxError` when libcst cannot parse `text`.
    """
    from spmdfix import api

    return api.fix_edits_for(text, fixes)


@record(frozen=True)
class Fixed:
    """The outcome of fixing one file.

    text: the analysed text after the fixes (the prepared text itself when nothing applied; render it
    with `Prepared.render`). remaining: the reported findings of `text` (notebook cells that do not parse
    included). suppressed: how many findings of `text` a comment suppresses. found_before: how many were
    reported before any fix (what stays if `text` is not written). edits: the edits of the prepared text
    that give `text` (`api.FixResult.edits`). unfollowed: where the analysis of `text` stopped
    (`Checked.unfollowed`). held: the suppressed findings themselves."""

    text: str
    applied: tuple[Fix, ...] = ()
    remaining: tuple[Finding, ...] = ()
    errors: tuple[str, ...] = field(default=())
    suppressed: int = 0
    found_before: int = 0
    edits: tuple[Edit, ...] = ()
    unfollowed: tuple[Unfollowed, ...] = ()
    held: tuple[Finding, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def fix_prepared(
    prepared: Prepared,
    settings: FileSettings,
    *,
    review: Reviewer | None = None,
    path: Path | None = None,
    index: ProjectIndex | None = None,
) -> Fixed:
    """Apply the chosen fix of every reported finding of a prepared file, pass after pass (`api.fix_source`):
    only findings of enabled codes that no comment suppresses are fixed, never with a fix shared with a
    suppressed one; `review(text, offered)` may choose among the offered fixes (the CLI's interactive mode).
    Never raises for a fix that cannot be built or would not parse (it is in `errors`).
    """
    from spmdfix import api

    enabled, unfixable, layout = settings.enabled, settings.options.unfixable, settings.options.layout_changing_fixes

    def split(current: str, findings: list[Finding]) -> tuple[list[Finding], list[Finding]]:
        reported, suppressed = select(
            current,
            findings,
            enabled,
            unfixable,
            layout,
            buffers=index.overlay if index is not None else None,
            per_file_ignores=settings.options.per_file_ignores,
        )
        if prepared.nb is not None:  # (as `check` offers them: `notebook_alone`)
            reported = [notebook_alone(f) for f in reported]
        return reported, suppressed

    where = _where(path, index)
    if review is None:
        result = api.fix_source(prepared.text, settings.options, split, **where)
    else:
        result = api.fix_source(prepared.text, settings.options, split, review, **where)
    remaining = list(result.remaining)
    before = len(result.found)
    if prepared.nb is not None:
        extra = [f for f in prepared.extra_findings(result.source) if f.code in enabled]
        remaining = sorted(remaining + extra, key=lambda f: (f.span.path, f.span.start))
        before += sum(f.code in enabled for f in prepared.extra_findings(prepared.text))
    unfollowed = result.unfollowed if rules.UNFOLLOWED.code in enabled else ()
    return Fixed(
        result.source,
        result.applied,
        tuple(remaining),
        result.errors,
        len(result.suppressed),
        before,
        result.edits,
        unfollowed,
        tuple(result.suppressed),
    )


def fix_file(
    path: Path | None,
    text: str,
    settings: FileSettings = FileSettings(),
    *,
    index: ProjectIndex | None = None,
    include_generated: bool = False,
    review: Reviewer | None = None,
) -> tuple[Prepared, Fixed]:
    """Fix one file's `text` under its `settings` (arguments as `check_file`'s); the prepared file (whose
    `render` gives the new file text) and the outcome. Raises `Skip` and `notebook.NotebookError` as
    `prepare` does."""
    prepared = prepare(path, text, include_generated)
    return prepared, fix_prepared(prepared, settings, review=review, path=path, index=index)
