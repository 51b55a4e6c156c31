"""The one source-in API that the CLI, the language server and the tests call.

`check_source` (source text -> findings) is pure and cheap: a textual prefilter, then `ast` and the
analysis (`source_analysis`); no libcst. `fix_source` applies chosen fixes with the libcst transforms and
re-checks until no chosen fix is left (as ruff does), and `fix_modules` does the same across the modules of a
project: both run the one fix loop (`fix_engine.fix_texts`). `fix_edits_for` builds the text edits of given
fixes on demand (a language server's code action, the JSON `fix` field). `Options` and `choose_fix` live in
`spmdfix.model` (the CLI's main process needs them without the analysis) and are re-exported here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import field
from pathlib import Path

from spmdfix import perf
from spmdfix.analysis.index import MAX_MODULES, ProjectIndex
from spmdfix.module_memo import MODULES
from spmdfix.files import find_project_root
from spmdfix.fix_engine import Reviewer, Selector, accept_all, fix_edits, fix_texts, report_all
from spmdfix.model import Edit, Finding, Fix, Options, Unfollowed
from spmdfix.model import choose_fix  # noqa: F401 - re-exported (the module docstring)
from spmdfix.perf import frozen
from spmdfix.prefilter import may_have_findings
from spmdfix.project_files import DISK
from spmdfix.source_analysis import Analysis, analyse_text, analyse_tree


@frozen(slots=True)
class FixResult:
    """Outcome of `fix_source`: the new source, the fixes applied, the findings left, errors, the
    reported findings of the source before any fix (`found`: what is left if the new source is not written),
    the suppressed findings of the new source, and the edits of the input that make the new source (every
    pass composed: what a language server's fix-all sends)."""

    source: str
    applied: tuple[Fix, ...]
    remaining: tuple[Finding, ...]
    errors: tuple[str, ...] = field(default=())
    found: tuple[Finding, ...] = field(default=())
    suppressed: tuple[Finding, ...] = field(default=())  # what `select` held back on the result's source
    edits: tuple[Edit, ...] = field(default=())  # edits of `fix_source`'s input that give `source`, sorted
    unfollowed: tuple[Unfollowed, ...] = field(default=())  # where the analysis of `source` stopped

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def analyse_source(
    source: str,
    options: Options = Options(),
    *,
    path: str | Path | None = None,
    index: ProjectIndex | None = None,
    prefiltered: bool = False,
    tree: ast.Module | None = None,
) -> Analysis:
    """`check_source`'s findings, and the places the analysis could not follow (`Analysis`). Never raises.
    prefiltered: the caller knows `source` passes the prefilter (it asked before, in another process): it is
    analysed without asking again. tree: `ast.parse(source)`, when the caller parsed it before and keeps it
    (an analysis never changes a tree: `reaching` parses an importer's text once for every analysis of it)."""
    if not prefiltered and not may_have_findings(source):
        return Analysis([])
    if tree is not None:
        with perf.gc_paused():
            return analyse_tree(source, tree, options, path, index)
    with perf.gc_paused():
        analysis, tree = analyse_text(source, options, path, index)
        if tree is not None:
            perf.retain_tree(tree, len(source))  # (a worker's: `perf.retain_trees`)
        # Let the tree go while the collector is paused: reference counting frees it here, where a collection
        # as the collector resumes would otherwise walk all of it first (0.1 s of CPU for jax's 12,600-line
        # pjit_test.py in a `-j 1` run). A kept tree is frozen out of the collector's reach (`perf.retain_tree`).
        del tree
        return analysis


def check_source(
    source: str, options: Options = Options(), *, path: str | Path | None = None, index: ProjectIndex | None = None
) -> list[Finding]:
    """Findings of one module's source, sorted by position. Never raises.

    A source that does not parse gives one SPMD900 finding at the error; a module whose text cannot hold a
    collision (`prefilter.may_have_findings`) is not parsed at all. With the module's `path` and a project
    `index` (`project_index`), names imported from other modules of the project are followed: a finding or
    a related place may then lie in another module (its spans carry that module's path, `model.Span.path`).
    """
    return analyse_source(source, options, path=path, index=index).findings


_INDEXES: dict[Path, ProjectIndex] = {}


def project_index(path: str | Path, root: str | Path | None = None) -> ProjectIndex:
    """The project index of the project `path` belongs to (one per root and process, reused by every file
    of a run). `root`: the project root, else the nearest directory above `path` with `pyproject.toml`,
    `setup.cfg` or `.git`, else the base of its package (`files.find_project_root`)."""
    top = Path(root).resolve() if root is not None else find_project_root(Path(path).resolve())
    index = _INDEXES.get(top)
    if index is None:
        index = _INDEXES[top] = new_project_index(top)
    return index


def new_project_index(
    root: str | Path,
    overlay: dict[str, str] | None = None,
    max_modules: int = MAX_MODULES,
    earlier: ProjectIndex | None = None,
    refresh: bool = False,
) -> ProjectIndex:
    """A new project index of `root` that reads the files on disk (`project_files.DiskFiles`) except those of
    `overlay` (absolute path -> text), and models each module it loads (`ModuleModel.build`, on the scopes
    this process built for the same text before: `module_memo.MODULES`); who imports a module comes from the
    project's import graph (`project_graph.importers_source`), and which modules hold a word from its listing
    (`project_graph.holding_source`). `earlier`: an index of the same root, still
    current, whose reads of the files the new one takes (`ProjectIndex(earlier=...)`). `refresh`: the project
    is listed again when a fix is first judged (`importers_source`: a language server's files change under
    it)."""
    from spmdfix.project_graph import holding_source, importers_source

    # (each module parsed once per process, whichever index loads it: `module_memo`)
    importers = importers_source(root, overlay, refresh)
    return ProjectIndex(
        str(root), files=DISK, analyse=MODULES.build, overlay=overlay, max_modules=max_modules,
        importers=importers, parse=MODULES.parse, earlier=earlier,
        holding=holding_source(root, overlay, refresh), importers_unknown=importers.why_unknown,
    )


def forget_indexes(written: Iterable[str | Path] | None = None) -> None:
    """Drop the cached project indexes (`project_index`) of the projects holding any of the `written` files
    (every one when `written` is None): an index keeps the first read of every module it loaded, so after
    files change (a run writes them, or anything else does), a later run in the same process (a library
    user, a test) would otherwise analyse against their old texts. Each command of the command line starts
    by forgetting them all (`cli.main`)."""
    if written is None:
        _INDEXES.clear()
    else:
        paths = [Path(p).resolve() for p in written]
        for top in [t for t, index in _INDEXES.items() if any(index.contains(p) for p in paths)]:
            del _INDEXES[top]
    # The import graphs go with them (the importers' findings a partial run kept, `reaching`, are kept per
    # index: a new index starts afresh).
    from spmdfix import project_graph

    project_graph.forget_graphs()


def fix_edits_for(source: str, fixes: Iterable[Fix]) -> dict[str, tuple[Edit, ...] | str]:
    """Text edits of each fix, built with libcst on `source`; a string says why one failed. Keyed by the
    fix's key (`Fix.key`, its id's text): these maps go between processes and into reports.

    libcst parses only the statements the fixes edit (`codemods._apply.ModuleEditor`). Raises
    `libcst.ParserSyntaxError` when an edit needs the whole module and libcst cannot parse it (a source
    that does not parse at all).
    """
    return {str(fix_id): built for fix_id, built in fix_edits(source, fixes).items()}


def fix_source(
    source: str,
    options: Options = Options(),
    select: Selector = report_all,
    review: Reviewer = accept_all,
    *,
    path: str | Path | None = None,
    index: ProjectIndex | None = None,
) -> FixResult:
    """Apply the chosen fix of every reported finding, re-checking after each pass until none is left: the
    fix loop (`fix_engine.fix_texts`) over this one module.

    `select(text, findings)` splits findings into (reported, suppressed): only reported ones are fixed, and
    a fix that would also change a suppressed finding (it shares its id) is not applied, `auto` then
    taking the finding's next fix (the CLI passes its `# noqa` and select/ignore rules). `review(text,
    offered)` returns the ids of the offered (fix, edits) to apply, in order (the CLI's interactive mode
    asks the user). A fix whose edits overlap an earlier one's, or of an isolation group (`Fix.isolation`)
    one applied already, waits for the next pass. Never raises: the result's
    source is `source` itself when nothing applies, or when the new text would not parse (reported in
    `errors`); `remaining` holds the reported findings of the last text, `suppressed` its suppressed ones.

    Each pass parses its text with `ast` once, for the analysis and for finding the statements the edits
    touch; libcst parses only those statements. `path` and `index` as for `check_source`; fixes that edit
    other modules are left to `fix_modules`.
    """
    key = "" if path is None else str(path)
    with perf.gc_paused():
        run = fix_texts({key: source}, [key], options, select, review, lambda texts: index)
    outcome = run.targets[key]
    return FixResult(
        run.texts[key],
        run.applied,
        outcome.reported,
        run.errors,
        outcome.found,
        outcome.suppressed,
        run.edits(key),
        outcome.unfollowed,
    )


@frozen(slots=True)
class ModulesFixResult:
    """Outcome of `fix_modules`: the new text of each module it changed (absolute path -> text), the fixes
    applied, the findings left on each target, errors, and the modules each applied fix edits (absolute paths,
    in the order of `applied`)."""

    texts: dict[str, str]
    applied: tuple[Fix, ...]
    remaining: dict[str, tuple[Finding, ...]]
    errors: tuple[str, ...] = ()
    edited: tuple[tuple[str, ...], ...] = ()
    # What the judgement read (`JudgementReads`): every file from disk (absolute path, SHA-256 of the bytes, None
    # for one absent or unreadable), and the modules of `texts` it read (their given text, not the disk's).
    read: tuple[tuple[str, str | None], ...] = ()
    overlaid: tuple[str, ...] = ()


# A module read twice by one run with other bytes the second time: no file holds these "bytes".
CHANGED_DURING_THE_RUN = "<changed during the run>"


class JudgementReads:
    """What the analyses of one `fix_modules` run read, which its fixes rest on: each pass's project index's
    `everything_read` (the finding's module, the modules of its chain, what was looked for and absent) and the
    modules the fix loop read itself (its targets, the modules a fix edits); the modules of the given texts
    apart (`overlaid`: those texts, not the files, were judged). `fix` writes the fixes only when every file
    read still holds those bytes (`files.check_as_judged`, breaker20)."""

    def __init__(self, root: str | Path, given: Mapping[str, str]) -> None:
        self.root = root
        self.given = frozenset(given)
        self.read: dict[str, str | None] = {}
        self.overlaid: set[str] = set()
        self._last: ProjectIndex | None = None  # (folded when the next is made: one index alive at a time)

    def index_for(self, current: Mapping[str, str]) -> ProjectIndex:
        """The fix loop's `IndexFactory`: a fresh project index over the current texts."""
        self.fold()
        self._last = new_project_index(self.root, overlay=dict(current))
        return self._last

    def text(self, path: str) -> str | None:
        """The fix loop's `Reader`: the module's text (`files.source_of`), its bytes noted as read."""
        from spmdfix.files import source_of
        from spmdfix.stamps import digest_bytes

        found = source_of(path)
        self._note(path, digest_bytes(found.raw) if found is not None else None)
        return found.text if found is not None else None

    def fold(self) -> None:
        """Note what the last index made read (its overlay's modules as overlaid, the others by their bytes)."""
        index, self._last = self._last, None
        if index is None:
            return
        for path, digest in index.everything_read():
            if path in index.overlay:
                if path in self.given:
                    self.overlaid.add(path)
            else:
                self._note(path, digest)

    def _note(self, path: str, digest: str | None) -> None:
        if self.read.setdefault(path, digest) != digest:
            self.read[path] = CHANGED_DURING_THE_RUN


def fix_modules(
    targets: Iterable[str | Path],
    options: Options,
    root: str | Path,
    select: Selector = report_all,
    texts: dict[str, str] | None = None,
    review: Reviewer = accept_all,
) -> ModulesFixResult:
    """Apply the chosen fixes of the targets' findings, including those that edit other modules of the
    project (a strip in the callee's file, an axis added to a mesh in a config module), re-checking after
    each pass as `fix_source` does: the fix loop (`fix_engine.fix_texts`) over the modules of `root`.

    `texts`: the current text of modules already changed (absolute path -> text); every other module is
    read from disk. Each pass analyses with a fresh project index over those texts, builds each fix's
    edits per module with libcst, applies the fixes whose edits overlap no earlier one's and whose isolation
    group (`Fix.isolation`) no earlier one holds, and keeps the new texts only when every one parses. Never
    raises; nothing is written. `review` as for `fix_source`; the edits it is offered in another module than
    the target carry that module's path (`Span.path`).
    """
    given = dict(texts or {})
    reads = JudgementReads(root, given)
    paths = [str(Path(t).resolve()) for t in targets]
    run = fix_texts(given, paths, options, select, review, reads.index_for, read=reads.text)
    reads.fold()
    reads.overlaid.update(path for path in paths if path in reads.given)  # (a target given: its text judged)
    remaining = {path: outcome.reported for path, outcome in run.targets.items()}
    return ModulesFixResult(
        run.changed(), run.applied, remaining, run.errors, run.edited, tuple(sorted(reads.read.items())),
        tuple(sorted(reads.overlaid)),
    )
