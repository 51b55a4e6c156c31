"""One module's source text in, its findings out: parse with `ast`, drive the analysis over the module's model
(`analysis.analyzer.Analyzer`), and plan the findings (`plan.plan_findings`).

The public entries built on this (`api.check_source`, `api.analyse_source`) add the prefilter and the
collector pause; the fix engine (`fix_engine`) calls it pass after pass, keeping the tree each pass parsed to
build the next pass's edits on it.
"""

from __future__ import annotations

import ast
import contextlib
import re
import sys
from pathlib import Path

from spmdfix import rules
from spmdfix.analysis.analyzer import Analyzer
from spmdfix.analysis.index import ProjectIndex, ProjectLink
from spmdfix.analysis.kinds import VmapKind
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.model import Finding, Options, Span, Unfollowed, reframed
from spmdfix.perf import frozen
from spmdfix.plan import plan_findings
from spmdfix.positions import LineIndex
from spmdfix.project_files import module_name

# Python 3.12 syntax a 3.11 parser rejects: PEP 695 (`type X = ...`, `def f[T]`, `class C[T]`) and PEP 701
# f-strings (quotes reused inside the braces): the SPMD900 hint names a newer Python only for these.
# (A pattern compiled where it is first used, by `re`'s cache: a module with a syntax error is rare.)
_NEWER_SYNTAX = r"^\s*type\s+\w+|\b(?:def|class)\s+\w+\s*\[|\b[fF][rR]?['\"]"


@frozen(slots=True)
class Analysis:
    """What the analysis of one module gives: its findings (sorted by position) and the places on the way
    from its spmd vmaps into code of the project that it could not follow (`model.Unfollowed`, one per vmap
    and place, sorted)."""

    findings: list[Finding]
    unfollowed: tuple[Unfollowed, ...] = ()


def analyse_text(
    source: str, options: Options, path: str | Path | None = None, index: ProjectIndex | None = None
) -> tuple[Analysis, ast.Module | None]:
    """The analysis of `source` (no prefilter asked), and its `ast` tree (None when it does not parse: the
    analysis is then one SPMD900 finding saying why). Never raises. `path` and `index` as for
    `api.check_source`."""
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        return Analysis([syntax_finding(source, err)]), None
    except RecursionError:
        return Analysis([_unparsed("cannot parse: the module is nested too deeply")]), None
    except MemoryError:
        # CPython's parser gives up with an empty MemoryError on long right-nested chains (200,000 terms of
        # `a ** b ** ...`, `x if c else ...`, `lambda: lambda: ...`; measured on 3.11).
        message = "cannot parse: the parser ran out of memory (an expression nested too deeply)"
        return Analysis([_unparsed(message)]), None
    except ValueError as err:
        return Analysis([_unparsed(f"cannot parse: {str(err) or type(err).__name__}")]), None
    return analyse_tree(source, tree, options, path, index), tree


def analyse_tree(
    source: str, tree: ast.Module, options: Options, path: str | Path | None = None, index: ProjectIndex | None = None
) -> Analysis:
    """The analysis of `source` whose `ast` tree is `tree`. Never raises: a module nested too deeply for the
    analysis's recursion gives one SPMD900 finding."""
    analyzer = None
    try:
        analyzer = _analyzer(source, tree, path, index)
        link = analyzer.model.project
        with link.index.checking(link.path, analyzer.model) if link is not None else contextlib.nullcontext():
            facts = analyzer.facts()
    except RecursionError:
        return Analysis([_unparsed("the module is nested too deeply to analyse")])
    finally:
        if analyzer is not None:  # (facts are plain data: the module's analysis is freed as it is let go)
            analyzer.ix.release()
    unfollowed = sorted(
        {
            Unfollowed(f.span, span, what, f.kind is VmapKind.SPMD, span in f.callable_lost)
            for f in facts for span, what in f.unresolved
        }
        | {Unfollowed(vmap, span, what) for vmap, span, what in analyzer.unknown_spmd}
        | {Unfollowed(vmap, span, what, False) for vmap, span, what in analyzer.unknown_placements}
    )
    analysis = Analysis(plan_findings(facts, options.new_axis), tuple(unfollowed))
    return _as_checked(analysis, source, link)


def _as_checked(analysis: Analysis, source: str, link: ProjectLink | None) -> Analysis:
    """`analysis` with the places in the checked module's own file that the analysis reached through another
    module (a vmap of model.py applied to a function of train.py that calls model.py's `block`: the project
    index's model of model.py) located as the checked module's (path ""), as every front end expects of its
    own findings; only when the index read the same text (an unsaved buffer or stdin otherwise differs)."""
    if link is None:
        return analysis
    own = link.path
    findings = [reframed(f, "", own) for f in analysis.findings]
    unfollowed = tuple(reframed(u, "", own) for u in analysis.unfollowed)
    moved = any(new is not old for new, old in zip([*findings, *unfollowed], [*analysis.findings, *analysis.unfollowed]))
    # (a place of the file came from the index's model of it, loaded: `peek` gives its text without a read)
    if not moved or link.index.peek(own) != source:
        return analysis
    return Analysis(findings, unfollowed)


def _analyzer(source: str, tree: ast.Module, path: str | Path | None, index: ProjectIndex | None) -> Analyzer:
    """The driver over the model of the module checked: without a project index or a path, that module alone;
    with them, its package read from the disk (`project_files.module_name`) and its names followed into the
    project."""
    if index is None or path is None:
        return Analyzer(ModuleModel.build(source, tree))
    where = Path(path).resolve()
    name, _, is_package = module_name(where)
    package = name if is_package else name.rpartition(".")[0]
    return Analyzer(ModuleModel.build(source, tree, "", package, ProjectLink(index, str(where))))


def _unparsed(message: str) -> Finding:
    """An SPMD900 finding at the start of the module."""
    return Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, message, Span(0, 0))


def syntax_finding(source: str, err: SyntaxError) -> Finding:
    """The SPMD900 finding of a `SyntaxError` of `source`, at the error's position (clamped into the text)."""
    lines = LineIndex(source)
    offset = 0
    if err.lineno:
        line0 = min(max(err.lineno - 1, 0), lines.line_count - 1)
        col = max((err.offset or 1) - 1, 0)
        offset = min(lines.line_start(line0) + min(col, len(lines.line_text(line0))), len(source))
    message = f"SyntaxError: {err.msg}"
    line = lines.line_text(line0) if err.lineno else ""
    if sys.version_info < (3, 12) and re.search(_NEWER_SYNTAX, line):
        message += " (spmdfix parses with this interpreter's grammar; newer syntax needs a newer Python)"
    return Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, message, Span(offset, offset))
