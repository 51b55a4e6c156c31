"""The project indexes of a long-lived server, kept only while what they read is unchanged.

A `ProjectIndex` parses the modules of the project the analysis follows imports into, once, and keeps them;
`spmdfix check` builds one per run, but the server lives for hours while files change under it. Here an
index is reused (typing in one document reuses its parsed imports) only while:

- the unsaved buffers it was built with (the open documents other than the one analysed) are unchanged: they
  are part of its key;
- every file it read, failed to read or looked for and did not find is as it was on disk: each is stamped
  (its `os.stat` key: size, mtime, ctime, inode, device; or absent) when first seen, a loaded module's bytes
  checked against the digest the index parsed, and the stamps are compared before each reuse
  (`stamps.seen`, `stamps.still`). A stamp that is not settled (taken within `stamps.RACY_NS` of the file's
  last change: a rewrite in the same clock tick keeps every time) proves nothing, so the index is rebuilt
  until the file has settled, as the results cache trusts a stat. A file changed by anything (another
  editor, `git checkout`) is seen at the next analysis without any notification from the client;
- the import graph answers it was given are still those of the project now: who imports each module it asked
  about (a cross-module fix is judged against those importers, `analysis.importers`) and which modules may
  reach the analysed one (`ProjectGraph.state`, a partial run's importers). A module created, deleted or
  re-pointed anywhere in the project (a new `train2.py` calling the shard_map'd function, a reader of the
  mesh, a module using `__import__`) is seen at the next analysis, the project listed again
  (`project_graph.graph_of(refresh=True)`, which re-reads only the files whose stamp changed).

Holds a few indexes (one per analysed document and set of buffers), least recently used dropped first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path

from spmdfix.analysis.index import ProjectIndex
from spmdfix.module_memo import MODULES
from spmdfix.perf import record
from spmdfix.project_files import DISK
from spmdfix.project_graph import ProjectGraph, graph_of
from spmdfix.stamps import Seen, digest_file, seen, still

MAX_INDEXES = 8


class _GraphAnswers:
    """The importers source of one kept index (`ProjectIndex(importers=...)`): the import graphs of `root` with
    `overlay`'s texts, each listed when first needed: the judgement's (`graph_of(judged=True)`: every answer it
    gave is kept) and the partial run's (the state of the analysed module's importers, `ProjectGraph.state`,
    when a partial run needs it: `track_state`); both compared with the project's graphs now before the index
    is reused (`unchanged`)."""

    def __init__(self, root: Path, analysed: Path, overlay: Mapping[str, str]) -> None:
        self.root, self.analysed, self.overlay = root, str(analysed), dict(overlay) or None
        self._graph: ProjectGraph | None = None
        self._kept: ProjectGraph | None = None  # the process's graph of the files on disk `_graph` was made from
        self._judged: ProjectGraph | None = None  # the judgement's graph with the overlay
        self._judged_kept: ProjectGraph | None = None  # ... and the process's graph it was made from
        self.state: str | None = None
        self.asked: dict[str, object] = {}
        self.held: dict[str, object] = {}  # `holding`'s answers given, by word

    @property
    def listed(self) -> ProjectGraph | None:
        """The graph as last listed (by `graph` or `unchanged`), None before the first question."""
        return self._graph

    def graph(self) -> ProjectGraph:
        if self._graph is None:
            self._graph = graph_of(self.root, refresh=True, overlay=self.overlay)
            self._kept = graph_of(self.root)
        return self._graph

    def judged(self) -> ProjectGraph:
        """The judgement's graph (`graph_of(judged=True)`) with the overlay, listed on the first question."""
        if self._judged is None:
            self._judged = graph_of(self.root, refresh=True, overlay=self.overlay, judged=True)
            self._judged_kept = graph_of(self.root, judged=True)
        return self._judged

    def __call__(self, path: str) -> dict[str, frozenset[str]] | None:
        answer = self.asked[path] = self.judged().importers_with_dynamic(path)
        return answer

    def why_unknown(self) -> str:
        """The index's `importers_unknown`: why the judgement's graph answered None (`ProjectGraph.why_incomplete`)."""
        return self.judged().why_incomplete or "the project's import graph is not known"

    def holding(self, word: str) -> tuple[tuple[str, str], ...] | None:
        """The index's `holding` (`analysis.index.Holding`): the modules of the judgement's graph whose text
        holds `word` (`ProjectGraph.holding`); every answer given is kept (`unchanged`)."""
        answer = self.held[word] = self.judged().holding(word)
        return answer

    def track_state(self) -> None:
        """Record which modules may reach the analysed one (a partial run's importers), once."""
        if self.state is None:
            self.state = self.graph().state(self.analysed)

    def unchanged(self) -> bool:
        """Whether the project's import graphs now (listed again) give the same answers and state; True when
        the index never used them."""
        return self._judged_unchanged() and self._state_unchanged()

    def _state_unchanged(self) -> bool:
        if self._graph is None:
            return True
        # The project listed again: the same kept graph when no directory's listing and no file's stamp changed
        # (`graph_of(refresh=True)`, `ProjectGraph.unchanged`), whose answers with the same overlay are those given.
        kept = graph_of(self.root, refresh=True)
        if kept is self._kept:
            return True
        now = graph_of(self.root, overlay=self.overlay)
        if self.state is not None and now.state(self.analysed) != self.state:
            return False
        self._graph, self._kept = now, kept  # (same state: later questions are asked of the project now)
        return True

    def _judged_unchanged(self) -> bool:
        if self._judged is None:
            return True
        kept = graph_of(self.root, refresh=True, judged=True)
        if kept is self._judged_kept:
            return True
        now = graph_of(self.root, overlay=self.overlay, judged=True)
        if any(now.importers_with_dynamic(path) != answer for path, answer in self.asked.items()):
            return False
        if any(now.holding(word) != answer for word, answer in self.held.items()):
            return False
        self._judged, self._judged_kept = now, kept
        return True


@record
class _Kept:
    index: ProjectIndex
    graph: _GraphAnswers
    stamps: dict[str, Seen] = field(default_factory=dict)
    stale: bool = False


class ProjectIndexes:
    """The server's project indexes by (root, analysed file, other buffers); see the module docstring."""

    def __init__(self, max_indexes: int = MAX_INDEXES) -> None:
        self.max_indexes = max_indexes
        self._kept: OrderedDict[tuple, _Kept] = OrderedDict()

    def get(self, root: Path, analysed: Path, overlay: Mapping[str, str], partial: bool = False) -> ProjectIndex:
        """An index of `root` whose modules are the files on disk except the `overlay` (absolute path -> unsaved
        text); `analysed` is the file analysed with it (its own text is passed to the analysis, not here);
        `partial`: that analysis looks for the importers reaching it (`reaching.reached`), so a new one makes
        the index stale too. The same index as before when nothing it read changed, else a new one."""
        key = (str(root), str(analysed), tuple(sorted((p, hash(t)) for p, t in overlay.items())))
        kept = self._kept.get(key)
        if kept is not None and not kept.stale and self._unchanged(kept):
            self._kept.move_to_end(key)
            if partial:
                kept.graph.track_state()
            return kept.index
        # (who imports a module, for the cross-module safety of a fix, as the CLI's index has it:
        # `api.new_project_index`; the open documents' texts are part of the overlay)
        # (each module parsed once, whichever index loads it: `module_memo`; an edit of a document makes an
        # index of its own for the partial run, `reaching.reached`)
        graph = _GraphAnswers(root, analysed, overlay)
        index = ProjectIndex(
            str(root), files=DISK, analyse=MODULES.build, overlay=overlay, importers=graph, parse=MODULES.parse,
            holding=graph.holding, importers_unknown=graph.why_unknown,
        )
        kept = self._kept[key] = _Kept(index, graph)
        if partial:
            graph.track_state()
        self._kept.move_to_end(key)
        while len(self._kept) > self.max_indexes:
            self._kept.popitem(last=False)
        return kept.index

    def analysed(self, index: ProjectIndex) -> None:
        """After an analysis with `index`: stamp the files it saw for the first time. A loaded module whose
        bytes on disk are no longer those it parsed (changed between its read and now) makes it stale."""
        kept = next((k for k in self._kept.values() if k.index is index), None)
        if kept is None:
            return
        for path, digest in index.files_seen().items():
            if path in kept.stamps or path in index.overlay:
                continue
            kept.stamps[path] = seen(path)
            if digest is not None and digest_file(path) != digest:
                kept.stale = True

    def graph(self, index: ProjectIndex) -> ProjectGraph | None:
        """The import graph with its overlay that the kept `index` was last judged against: listed by `get` when
        it returned `index` (to reuse it, or for a partial run), so that the analysis following it need not
        list the project again (`reaching.reached(graph=...)`); None when `get` did not list it."""
        kept = next((k for k in self._kept.values() if k.index is index), None)
        return kept.graph.listed if kept is not None else None

    def clear(self) -> None:
        """Drop every index (a configuration changed)."""
        self._kept.clear()

    @staticmethod
    def _unchanged(kept: _Kept) -> bool:
        return all(still(path, stamp) for path, stamp in kept.stamps.items()) and kept.graph.unchanged()
