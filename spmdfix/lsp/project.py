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
  editor, `git checkout`) is seen at the next analysis without any notification from the client.

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
from spmdfix.project_graph import importers_source
from spmdfix.stamps import Seen, digest_file, seen, still

MAX_INDEXES = 8


@record
class _Kept:
    index: ProjectIndex
    stamps: dict[str, Seen] = field(default_factory=dict)
    stale: bool = False


class ProjectIndexes:
    """The server's project indexes by (root, analysed file, other buffers); see the module docstring."""

    def __init__(self, max_indexes: int = MAX_INDEXES) -> None:
        self.max_indexes = max_indexes
        self._kept: OrderedDict[tuple, _Kept] = OrderedDict()

    def get(self, root: Path, analysed: Path, overlay: Mapping[str, str]) -> ProjectIndex:
        """An index of `root` whose modules are the files on disk except the `overlay` (absolute path -> unsaved
        text); `analysed` is the file analysed with it (its own text is passed to the analysis, not here).
        The same index as before when nothing it read changed, else a new one."""
        key = (str(root), str(analysed), tuple(sorted((p, hash(t)) for p, t in overlay.items())))
        kept = self._kept.get(key)
        if kept is not None and not kept.stale and self._unchanged(kept):
            self._kept.move_to_end(key)
            return kept.index
        # (who imports a module, for the cross-module safety of a fix, as the CLI's index has it:
        # `api.new_project_index`; the open documents' texts are part of the overlay)
        # (each module parsed once, whichever index loads it: `module_memo`; an edit of a document makes an
        # index of its own for the partial run, `reaching.reached`)
        index = ProjectIndex(
            str(root), files=DISK, analyse=MODULES.build, overlay=overlay,
            importers=importers_source(root, overlay), parse=MODULES.parse,
        )
        kept = self._kept[key] = _Kept(index)
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

    def clear(self) -> None:
        """Drop every index (a configuration changed)."""
        self._kept.clear()

    @staticmethod
    def _unchanged(kept: _Kept) -> bool:
        return all(still(path, stamp) for path, stamp in kept.stamps.items())
