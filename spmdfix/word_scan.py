"""Which words a file of the project holds (a plain search of its bytes, nothing parsed), kept by the file's
stat key: in this process (`_HELD`) and in the store of the run (`keep_words_in`: `cache_graph.WordFile`, in
the results cache's directory), so that the next process reads only the files changed since.

The project's `holding` questions (`project_graph.ProjectGraph.holding`, `project_graph.WordListing`) ask it
of every file of the project: hazard H2's method search (`analysis.importers.method_definer`: may a class of
the project give `obj.sum`?) asks which modules hold `sum`, and a name no module defines (`__getattribute__`
in jax's repository) makes the answer rest on every module holding the word. A warm run checks that answer
again (`cache_keys.holding_state`); before the store, it read the 1,074 modules of jax's repository each time
(the corpus's warm run 0.11 s -> 0.17 s). A reading is trusted only for a file whose stat key had settled when
it was taken (`stamps.settled`), as the import scans are (`import_scan`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Protocol

from spmdfix.stamps import StatKey, settled, stat_key

Reading = tuple[str, dict[str, bool]]  # (SHA-256 of the bytes, or "" when no word asked is in them; word -> held)


class WordStore(Protocol):
    """Where the readings of earlier processes are kept (`keep_words_in`): `known` answers the reading of the
    file at `path` whose settled stat key is `key`, when one is kept; `keep` is given each reading of a settled
    file this process made; `flush` writes what was kept."""

    def known(self, path: str, key: StatKey) -> Reading | None: ...

    def keep(self, path: str, key: StatKey, reading: Reading) -> None: ...

    def flush(self) -> None: ...


_STORE: list[WordStore] = []  # the store of this process's run, when it has one
# This process's readings of settled files, by path: (stat key, SHA-256 or "", word -> held).
_HELD: dict[str, tuple[StatKey, str, dict[str, bool]]] = {}


# Stat keys of files this run has proven settled and unchanged already (`proven`): path -> key.
_PROVEN: dict[str, StatKey] = {}


def keep_words_in(store: WordStore | None) -> None:
    """Keep and look up the readings in `store` from now on (None: only in this process); a new run, whose
    files are stat'ed again (`proven`)."""
    _STORE[:] = [store] if store is not None else []
    _PROVEN.clear()


def proven(path: str, key: StatKey) -> None:
    """Tell that the file at `path` was just seen with the settled stat key `key` (the results cache's warm
    lane stats every file of the run: `stamps.unchanged`), so that `stat_of` need not stat it again in this
    run (a warm run's word search stats every module of the project: 1,074 in jax's repository)."""
    _PROVEN[path] = key


def flush_words() -> None:
    """Write the readings kept since the store was read (`WordStore.flush`), when there is a store."""
    for store in _STORE:
        store.flush()


def forget_words() -> None:
    """Drop this process's readings (a test changed a project's files faster than stat keys show)."""
    _HELD.clear()
    _PROVEN.clear()


def stat_of(path: str) -> tuple[StatKey, bool] | None:
    """(the stat key of the file at `path`, whether it had settled when taken: `stamps.settled`); None when
    it cannot be stat'ed. A file this run proved unchanged already (`proven`) is not stat'ed again."""
    known = _PROVEN.get(path)
    if known is not None:
        return known, True
    taken = time.time_ns()
    try:
        key = stat_key(os.stat(path))
    except (OSError, ValueError):
        return None
    return key, settled(key, taken)


def words_held(
    path: str, stat: tuple[StatKey, bool] | None, words: list[str], read: Callable[[], bytes | None]
) -> Reading | None:
    """(the SHA-256 of the bytes of the file at `path` when a word read in them so far is there, else "",
    which of `words` they hold); None when `read` gives None (the file cannot be read, or is not searched).
    `stat` is the file's (stat key, settled) as its caller took it, None for a text that is not the file's (an
    editor's unsaved buffer): a settled file's reading is served from this process or the store while the key
    stays the same, else `read` is called and its answer kept."""
    settled_key = stat[0] if stat is not None and stat[1] else None
    prior: dict[str, bool] = {}
    digest = ""
    if settled_key is not None:
        known = _HELD.get(path)
        if known is not None and known[0] == settled_key:
            digest, prior = known[1], known[2]
        if not all(w in prior for w in words) and _STORE:
            stored = _STORE[0].known(path, settled_key)
            if stored is not None:
                digest, prior = _merged(digest, prior, stored)
                _HELD[path] = (settled_key, digest, prior)
        if all(w in prior for w in words):
            return digest, {w: prior[w] for w in words}
    raw = read()
    if raw is None:
        return None
    present = {w: w.encode("utf-8") in raw for w in words}
    held = {**prior, **present}
    import hashlib  # (here: a warm run whose files are all kept reads none and need not load OpenSSL)

    digest = hashlib.sha256(raw).hexdigest() if any(held.values()) else ""
    if settled_key is not None:
        _HELD[path] = (settled_key, digest, held)
        if _STORE:
            _STORE[0].keep(path, settled_key, (digest, held))
    return digest, present


def _merged(digest: str, prior: dict[str, bool], stored: Reading) -> Reading:
    """This process's reading and the store's of the same bytes (the same settled stat key), as one."""
    return digest or stored[0], {**stored[1], **prior}
