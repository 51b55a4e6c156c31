"""The project indexes of a long-lived server, kept only while what they read is unchanged.

A `ProjectIndex` parses the modules of the project the analysis follows imports into, once, and keeps them;
`spmdfix check` builds one per run, but the server lives for hours while files change under it. Here an
index is reused (typing in one document reuses its parsed imports) only while:

- the unsaved buffers it was built with (the open documents other than the one analysed) are unchanged: they
  are part of its key;
- every file it read, failed to read or looked for and did not find is as it was on disk: each is stamped
  (its `os.stat` key: size, mtime, ctime, inode, device; or absent) when first seen, a loaded module's bytes
  checked against the digest the index parsed, and the stamps are compared before each reuse. A stamp taken
  within `cache.RACY_NS` of the file's last change proves nothing (a rewrite in the same clock tick keeps
  every time), so the index is rebuilt until the file has settled, as the results cache trusts a stat. A
  file changed by anything (another editor, `git checkout`) is seen at the next analysis without any
  notification from the client.

Holds a few indexes (one per analysed document and set of buffers), least recently used dropped first.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from spmdfix import cache
from spmdfix.analysis.index import ProjectIndex
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.cache import stat_key
from spmdfix.project_files import DISK

MAX_INDEXES = 8

Stamp = tuple[tuple[int, int, int, int, int] | None, int]  # (`cache.stat_key`, None when absent; time taken, ns)


def _stamp(path: str) -> Stamp:
    taken = time.time_ns()
    try:
        return stat_key(os.stat(path)), taken
    except OSError:
        return None, taken


def _still(path: str, stamp: Stamp) -> bool:
    """Whether the file at `path` is as `stamp` saw it: absent then and now, or the same stat key, taken
    well after the file's last change (`cache.RACY_NS`)."""
    key, taken = stamp
    now = _stamp(path)[0]
    if now != key:
        return False
    return key is None or max(key[1], key[2]) < taken - cache.RACY_NS


def _digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


@dataclass(slots=True)
class _Kept:
    index: ProjectIndex
    stamps: dict[str, Stamp] = field(default_factory=dict)
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
        index = ProjectIndex(str(root), files=DISK, analyse=ModuleModel.build, overlay=overlay)
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
            kept.stamps[path] = _stamp(path)
            if digest is not None and _digest(path) != digest:
                kept.stale = True

    def clear(self) -> None:
        """Drop every index (a configuration changed)."""
        self._kept.clear()

    @staticmethod
    def _unchanged(kept: _Kept) -> bool:
        return all(_still(path, stamp) for path, stamp in kept.stamps.items())
