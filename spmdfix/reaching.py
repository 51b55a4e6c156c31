"""Partial runs: the findings that spmd vmaps of other modules of the project place in one module.

`spmdfix check src/pkg/model.py` alone must report the collision whose `jax.vmap(..., spmd_axis_name=...)` is
in `train.py`, which imports `model.py`: the finding sits at the spec in `model.py`, but only the analysis
of `train.py` finds it. `reached` analyses the modules that import the checked one, directly or through
other modules of the project (`project_graph.ProjectGraph.reaching`), whose text may hold a finding
(`prefilter.may_have_findings`: an spmd vmap, or a plain vmap over an Explicit placement), each with the
project index (`analysis.index`), and keeps their findings located in the checked module (`Span.path`) or
whose chain names a place in it (`places_in`: `layers.py` applies the shard_map with the spec
`activation_spec()` of `specs.py` builds, where the finding is located; a commit of `layers.py` alone makes the
collision), seen from it (`reframed`: the spec in the checked module, the vmap's place in the importer's file).

The modules the checked one imports directly and whose text may hold a vmap are analysed too, for the SPMD910
records they place in it (issue 22, never silent): `class Trainer(Base)` applies `self.vec(step)`, the vmap
factory `Base.__init__` of `base.py` assigns; the checked module names no vmap (the prefilter drops it) and
only the analysis of `base.py` finds the application (`analysis.inherited_factories`). A run over the whole
project reports it with `base.py`'s result; a partial run of the subclass's module alone, with its own.

A module with a vmap that an importer of the checked module imports is analysed too, though it imports nothing
of it (`ProjectGraph.passed_candidates`): `batched = helpers.make_batched(forward)` in train.py, helpers.py's
`make_batched` returning `jax.vmap(fn, spmd_axis_name='data')`, `forward` of model.py: only the analysis of
helpers.py (reading `fn` from train.py's call) finds the collision at model.py's spec.

Which module can hold such a finding at all is a question of its text (`prefilter.reached.may_hold_reached`: it
names a shard_map, a spec, a mesh or a sharding, or may be a place of a chain: a call inside a function, a name
imported from the project); a module that does none of these is not looked up in the graph.

A notebook (`.ipynb`) of the project is an importer too (`project_graph.project_files` lists it, read as the
module of its code cells): a cell's `jax.vmap(forward, spmd_axis_name='data')` with `forward` of model.py places
its collision at model.py's spec, which `spmdfix check src/pkg/model.py` reports as `spmdfix check .` does.
Nothing imports a notebook, and a partial run fixes no notebook (its fixes edit the cells, which only a run of
the notebook renders back: `runner.cross_module` fixes `.py` importers): such a finding comes with each of its
fixes said as a refusal (`notebook_importer_alone`) naming the run that applies it (`spmdfix fix nb.ipynb`).

What a result then depends on (`Reached.depends`, kept in `results.Checked.depends`): each importer analysed
(its path and digest) and the state of the graph that decided which importers there are
(`results.IMPORTERS_KEY`: a new importer, or one deleted, changes it).
"""

from __future__ import annotations

import ast
import os
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix.model import (
    Finding,
    Options,
    Span,
    Unfollowed,
    reframed,
)
from spmdfix.perf import frozen
from spmdfix.prefilter import may_have_findings
from spmdfix.prefilter.reached import may_be_reached, may_be_reached_bytes  # noqa: F401 - re-exported
from spmdfix.results import IMPORTERS_KEY, PARTIAL

if TYPE_CHECKING:
    from spmdfix.analysis.index import ProjectIndex
    from spmdfix.project_graph import ProjectGraph

@frozen(slots=True)
class Reached:
    """What `reached` found: the findings located in the checked module or whose chain names a place in it
    (seen from it: `places_in`), and what they depend
    on: (importer path, SHA-256 of its bytes, None when unreadable) of each importer (and of each module it
    imports that was analysed), and (`IMPORTERS_KEY`, the graph's state for the module); unfollowed: the SPMD910
    records those analyses locate in the checked module (seen from it)."""

    findings: tuple[Finding, ...] = ()
    depends: tuple[tuple[str, str | None], ...] = ()
    unfollowed: tuple[Unfollowed, ...] = ()


# (the findings and SPMD910 records of one analysis; checked module's path -> those located in it and the records
# located elsewhere, `reframed`)
_Analysed = tuple[
    tuple[Finding, ...],
    tuple[Unfollowed, ...],
    dict[str, tuple[tuple[Finding, ...], tuple[Unfollowed, ...], tuple[Unfollowed, ...]]],
]

# The findings of each importer analysed in this process with an index kept for the run (`api.project_index`,
# which reads each module once), per project root: root -> (the index, (path, digest, options) -> (findings,
# checked module's path -> those located in it as it sees them, `reframed`)); another index of the root (the
# old one forgotten: `api.forget_indexes`) starts afresh.
_ANALYSED: dict[str, tuple[ProjectIndex, dict[tuple, _Analysed]]] = {}


def reached(
    path: str | Path, text: str, index: ProjectIndex, options: Options, live: bool = False, graph: ProjectGraph | None = None
) -> Reached:
    """The findings that modules importing the module at `path` (whose current text is `text`) place in it or
    lead through it (`places_in`: a shard_map it applies with a spec another module builds; see the module
    doc), with what they depend on. `index`: the project index of the module's project; when
    it would read another text for the module than `text` (an unsaved buffer, stdin), the importers are
    analysed with an index that holds `text` (and the overlay of `index`). An importer in the overlay of
    `index` (a language server's open document) is analysed in its unsaved text; which modules import the
    checked one comes from the import graph of the files on disk, kept per process; `live` (a language
    server, whose files change under it) lists and scans them again (`graph_of(refresh=True)`), the unsaved
    texts of the overlay of `index` in place of their files, and keeps the trees of the importers it analyses
    for the next analysis of the same texts (`_TREES`); `graph`: that graph, when the caller has just
    listed it for this analysis (the language server's kept index did: `lsp.project.ProjectIndexes.graph`).
    Raises what the analysis raises (front ends catch it per file)."""
    from spmdfix import project_graph
    from spmdfix.api import analyse_source, new_project_index
    from spmdfix.project_files import DISK

    own = os.path.realpath(path)
    if not index.contains(own) or own.endswith(".ipynb"):
        return Reached()
    if graph is None and live:
        graph = project_graph.graph_of(index.root, refresh=True, overlay=dict(index.overlay) or None)
    elif graph is None:
        graph = project_graph.graph_of(index.root)
    depends: list[tuple[str, str | None]] = [(IMPORTERS_KEY, PARTIAL + graph.state(own))]
    # (a project too large to list, `/tmp`: its importers were not searched, and the run says so, never silent)
    unsearched = () if graph.complete else (unsearched_record(graph.why_incomplete),)
    undecided = frozenset(graph.undecided_candidates(own))
    importing = frozenset(graph.reaching_candidates(own))
    # (a module an importer of this one imports, whose vmap may apply a callable of this one the importer passes)
    passed = graph.passed_candidates(own)
    importers = tuple(
        dict.fromkeys((*graph.reaching_candidates(own), *graph.imported_candidates(own), *sorted(undecided), *passed))
    )
    if not importers:
        return Reached((), tuple(depends), unsearched)
    on_disk = DISK.read(own)
    memo: dict[tuple, _Analysed] = {}  # (an unsaved text's: not kept)
    if on_disk is not None and on_disk[0] == text and own not in index.overlay:
        if index.root not in _ANALYSED or _ANALYSED[index.root][0] is not index:
            _ANALYSED[index.root] = (index, {})
        memo = _ANALYSED[index.root][1]
    else:
        # (the files as `index` read them: a language server has just found it current, `lsp.project`)
        index = new_project_index(index.root, overlay={**index.overlay, own: text}, earlier=index, refresh=live)
    found: list[Finding] = []
    records: list[Unfollowed] = list(unsearched)
    for importer in importers:
        read = _buffer(index.overlay[importer]) if importer in index.overlay else _importer(importer)
        depends.append((importer, read[0] if read is not None else None))
        if read is None or not read[2]:
            continue
        key = (importer, read[0], options)
        kept = memo.get(key)
        if kept is None:
            tree = _tree(importer, read[0], read[1]) if live else None  # (a CLI run analyses each once)
            result = analyse_source(read[1], options, path=importer, index=index, prefiltered=True, tree=tree)
            kept = memo[key] = (tuple(result.findings), tuple(result.unfollowed), {})
        seen = kept[2].get(own)  # (seen from the checked module: the same on every analysis of the same text)
        if seen is None:
            seen = kept[2][own] = (
                # (located here, or elsewhere with a place of its chain here: the shard_map this module applies
                # with a spec another module builds, `specs.py`'s `activation_spec()`, which a commit of this
                # module alone may turn into a collision; newuser14's x02)
                tuple(reframed(f, importer, own) for f in kept[0] if places_in(f, own)),
                tuple(reframed(r, importer, own) for r in kept[1] if r.span.path == own),
                # (where the importer's analysis stopped, wherever that is, when it may reach this module
                # through names the analysis cannot decide: `ProjectGraph.undecided_candidates`)
                tuple(reframed(r, importer, own) for r in kept[1] if r.span.path != own),
            )
        found.extend(seen[0] if not importer.endswith(".ipynb") else (notebook_importer_alone(f, importer, own) for f in seen[0]))
        records.extend(r for r in seen[1] if r not in records)
        if importer in undecided:
            records.extend(r for r in seen[2] if r not in records)
        elif importer in importing:
            # (a vmap of a module importing this one, directly or not, whose analysis stopped at its start: its
            # spmd_axis_name or its function not known, which shard_maps it reaches, this module's among them,
            # is not known; breaker8 t03: `spmd_axis_name=MESH.axis_names[0]` in main.py, `P(DATA)` here)
            records.extend(r for r in seen[2] if r not in records and at_start(r))
        elif importer in passed:
            # (a vmap of a module an importer of this one imports, whose callable itself is not known: a parameter
            # `fn` its calls pass, this module's function maybe; its other records concern callables of its
            # own, which do not reach this module, which it does not import)
            records.extend(r for r in seen[2] if r not in records and r.callable_unknown)
    return Reached(tuple(found), tuple(depends), tuple(records))


def places_in(finding: Finding, path: str) -> bool:
    """Whether `finding` (of an importer's analysis) is located in the module at `path` or names a place of its
    chain there (a related location)."""
    return finding.span.path == path or any(r.span.path == path for r in finding.related)


def unsearched_record(why: str) -> Unfollowed:
    """The SPMD910 record of a partial run whose project's modules were not all listed (`ProjectGraph.complete`
    False; `why`: `ProjectGraph.why_incomplete`, "the project root /tmp holds more than 20,000 Python files"):
    the spmd vmaps of the modules importing the checked one may place findings in it, and none was searched
    (a file checked alone in a directory without a project marker has that directory as its root). Located at
    the start of the checked module, with no vmap of its own (`Unfollowed.importers_unsearched`)."""
    start = Span(0, 0)
    what = (
        f"the modules importing this one were not searched for spmd vmaps that reach it: {why}; a finding such a "
        "vmap places here is not reported (`project-root`, or a `pyproject.toml`, `setup.cfg` or `.git` at the "
        "project's own directory, bounds the project)"
    )
    return Unfollowed(start, start, what, importers_unsearched=True)


def notebook_importer_alone(finding: Finding, notebook: str, own: str) -> Finding:
    """`finding`, which the vmap of the notebook at `notebook` places in the checked module at `own` (absolute
    paths; the finding seen from `own`, `reframed`), without fixes: each said as a refusal. A notebook is fixed alone, by a run of the notebook
    (`pipeline.notebook_alone`: no fix of its finding edits another module, as a run over the whole project
    says), and a partial run of a module it imports edits no notebook (`runner.cross_module` fixes `.py`
    importers only): `check` must not mark as `[*]` what `fix` of the module would not apply."""
    if not finding.fixes:
        return finding
    import dataclasses

    from spmdfix.model import Refusal
    from spmdfix.paths import relpath

    shown = relpath(notebook).replace("\\", "/")
    refused, own_cells = [], []  # (the notebook's own fixes first: the `= help:` line names the first refusal)
    for fix in finding.fixes:
        others = sorted({relpath(e.span.path or own).replace("\\", "/") for e in fix.node_edits if e.span.path != notebook})
        if others:
            reason = (
                f"it edits {', '.join(others)}, and the vmap is in the notebook {shown}, which is fixed alone "
                "(nothing imports it): no fix of a notebook's finding edits another module"
            )
        else:
            reason = (
                f"it edits the notebook {shown}, whose vmap this is, and a run of this module alone fixes no "
                f"notebook (`spmdfix fix {shown}` applies it)"
            )
        (refused if others else own_cells).append(Refusal(fix.transform, reason))
    return dataclasses.replace(finding, fixes=(), refusals=(*own_cells, *refused, *finding.refusals))


def at_start(record: Unfollowed) -> bool:
    """Whether the analysis of `record`'s vmap stopped at the vmap itself (its `spmd_axis_name`, its function:
    the place lies inside the vmap call or decorator), before following anything it reaches; or where it looked
    for the vmapped callable itself, wherever that lies (`Unfollowed.callable_unknown`: `jax.vmap(layer)` with
    `layer = narrow(Layer())` and tweak.py's `narrow` returning `dataclasses.replace(layer, AXIS='data')`, the
    record at the replace; breaker9 t27, t41)."""
    if record.callable_unknown:
        return True
    return record.span.path == record.vmap.path and record.vmap.contains(record.span)


# Each importer read in this process: path -> (stat key, (digest, text, passes the prefilter) or None); the
# stat key is the one the import graph's scan took (`project_graph.scanned_stat`): a graph built again
# (`graph_of(refresh=True)`, a language server's) reads the file again when it changed.
_READ: dict[str, tuple[object, tuple[str, str, bool] | None]] = {}


def _importer(path: str) -> tuple[str, str, bool] | None:
    """(SHA-256 of the bytes, text, whether the text passes the prefilter) of an importer, once per process
    while its stat is unchanged (a partial run of each of a tree's modules asks about the same importers);
    None when it cannot be read."""
    from spmdfix.project_files import DISK
    from spmdfix.project_graph import scanned_stat

    key = scanned_stat(path)  # (the graph's scan took it: a run's files do not change under it)
    if key is None:
        return None
    known = _READ.get(path)
    if known is not None and known[0] == key:
        return known[1]
    read = DISK.read(path)
    out = (read[1], read[0], may_have_findings(read[0])) if read is not None else None
    _READ[path] = (key, out)
    return out


# The trees of the importers a language server (`reached(live=True)`) analysed: path -> (SHA-256 of the text,
# the text, its tree), the last `MAX_TREES` kept. An analysis never changes a tree, so the next analysis of
# the same text parses it no more: the server analyses a document's importers again for each typed text of
# it, with an index holding that text (their parse was a tenth of a typed edit on the 1,000-module project,
# whose layer module has 11 importers). A CLI run analyses each importer once per index: it keeps none.
_TREES: OrderedDict[str, tuple[str, str, ast.Module]] = OrderedDict()
MAX_TREES = 64


def _tree(path: str, digest: str, text: str) -> ast.Module | None:
    """The tree of `text`, the importer at `path` whose text has the SHA-256 `digest`: kept from an earlier
    analysis of the same text, else parsed now; None when it does not parse (the analysis says why)."""
    kept = _TREES.get(path)
    if kept is not None and kept[0] == digest and kept[1] == text:
        _TREES.move_to_end(path)
        return kept[2]
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    _TREES[path] = (digest, text, tree)
    _TREES.move_to_end(path)
    while len(_TREES) > MAX_TREES:
        _TREES.popitem(last=False)
    return tree


def _buffer(text: str) -> tuple[str, str, bool]:
    """(SHA-256 of the UTF-8 bytes, text, whether the text passes the prefilter) of an importer's unsaved text
    (a language server's open document, in the index's overlay): what is analysed instead of its file."""
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest(), text, may_have_findings(text)


def forget() -> None:
    """Drop the importers' findings and texts kept (after a run wrote files)."""
    _ANALYSED.clear()
    _READ.clear()
    _TREES.clear()


def names_another_module(finding: Finding) -> bool:
    """Whether `finding`, as the analysis of one module gives it, names a place in another module (its own
    location or a related one: a collision whose vmap and spec lie in two files)."""
    return bool(finding.span.path) or any(r.span.path for r in finding.related)


def _suppressed_once(outcomes: list) -> list:
    """`outcomes` with each suppressed finding that names two modules counted once in the run: the analysis
    of train.py and the partial run of model.py both suppress the collision of train.py's vmap at model.py's
    spec (`results.FileResult.suppressed_across`); the second result to hold it counts it no more."""
    import dataclasses

    seen: set[tuple] = set()
    out = []
    for o in outcomes:
        across = getattr(o, "suppressed_across", ())
        if across:
            here = os.path.realpath(o.path)
            keys = [_whole_key(finding, here) for finding in across]
            again = sum(key in seen for key in keys)
            seen.update(keys)
            if again:
                o = dataclasses.replace(o, suppressed=o.suppressed - again)
        out.append(o)
    return out


def _whole_key(finding: Finding, analysed: str) -> tuple:
    """What identifies `finding` of the module at `analysed` in any module's view of it: its code, axis, and
    its places with every path absolute ("" is the module analysed; `NUL` is no module's path)."""
    whole = reframed(finding, analysed, "\0")
    return (whole.code, whole.axis, whole.span, tuple(r.span for r in whole.related))


def reported_once(outcomes: list) -> list:
    """A run's results (`results.FileResult`) with each finding reported once: a finding the analysis of one
    file (`train.py`) places in another file of the run (`model.py`) that reports it too, seen from there (a
    partial run of it, `reached`), is left to that file's result, where it is located (an SPMD910 record
    alike); an SPMD910 record located in a file outside the run, which several partial runs report (each of
    `layers.py` and `config.py` the record of `train.py`'s vmap stopped at a star import: `reached`), is left to
    the first result holding it; a suppressed one is counted once (`_suppressed_once`). A finding a notebook's
    vmap places in a module (`reached`: without fixes there, `notebook_importer_alone`) is left to the
    notebook's result when the notebook is a file of the run: its own analysis reports it, with the fixes `fix`
    of the notebook applies (and, after a `fix`, only when they left it). Results are copied
    (`dataclasses.replace`) only when they change."""
    import dataclasses

    from spmdfix.results import Checked, Fixed

    outcomes = _suppressed_once(outcomes)
    by_path: dict[str, set[Finding]] = {}
    records: dict[str, set[Unfollowed]] = {}
    for o in outcomes:
        if isinstance(o, (Checked, Fixed)) and o.findings:
            by_path.setdefault(os.path.realpath(o.path), set()).update(o.findings)
        if isinstance(o, (Checked, Fixed)) and o.unfollowed:
            records.setdefault(os.path.realpath(o.path), set()).update(o.unfollowed)
    # (the notebooks of the run: nothing imports a notebook, so a place in one is its own vmap's)
    notebooks = {
        os.path.realpath(o.path) for o in outcomes if isinstance(o, (Checked, Fixed)) and str(o.path).endswith(".ipynb")
    }
    if len(by_path) < 2 and len(records) < 2 and not notebooks:
        return outcomes
    outside: set[Unfollowed] = set()  # (records located outside the run, as no module sees them: `reframed`)

    def elsewhere(value, mine: str, held: dict) -> bool:
        there = value.span.path
        return there in held and there != mine and reframed(value, mine, there) in held[there]

    def again(record: Unfollowed, mine: str) -> bool:
        """Whether `record` lies in a file outside the run and an earlier result reported it."""
        if not record.span.path or record.span.path in records:
            return False
        whole = reframed(record, mine, "\0")
        if whole in outside:
            return True
        outside.add(whole)
        return False

    reported: set[tuple] = set()  # (findings located outside the run, as no module sees them: `_whole_key`)

    def reported_before(finding: Finding, mine: str) -> bool:
        """Whether `finding` lies in a file outside the run and an earlier result reported it (the vmap's
        module and a module applying the shard_map, both checked, place the collision at a third's spec)."""
        if not finding.span.path or finding.span.path in by_path:
            return False
        key = _whole_key(finding, mine)
        if key in reported:
            return True
        reported.add(key)
        return False

    out = []
    for o in outcomes:
        if isinstance(o, (Checked, Fixed)):
            # (the file's own real path only where it is asked: a run's thousands of results name no place in
            # another file of the run, and `realpath` takes an `lstat` per component of the path)
            changes = {}
            if notebooks and not str(o.path).endswith(".ipynb"):
                kept = tuple(f for f in o.findings if not any(r.span.path in notebooks for r in f.related))
                if len(kept) != len(o.findings):
                    changes["findings"] = kept
                    o = dataclasses.replace(o, findings=kept)
            if any(f.span.path for f in o.findings):
                mine = os.path.realpath(o.path)
                kept = tuple(f for f in o.findings if not elsewhere(f, mine, by_path) and not reported_before(f, mine))
                if len(kept) != len(o.findings):
                    changes["findings"] = kept
            # (an SPMD910 record a base class's module places in a subclass's module that reports it too)
            if any(r.span.path for r in o.unfollowed):
                mine = os.path.realpath(o.path)
                left = tuple(r for r in o.unfollowed if not elsewhere(r, mine, records) and not again(r, mine))
                if len(left) != len(o.unfollowed):
                    changes["unfollowed"] = left
            if changes:
                o = dataclasses.replace(o, **changes)
        out.append(o)
    return out


