"""The import scans of the project's modules, kept in the results cache's directory (`ScanFile`): what the
import graph (`spmdfix.project_graph`) of a partial run is built from, so that a warm `spmdfix check FILE`
reads only the modules changed since the last run instead of every module of the project.

A file `scans-<FORMAT>-<tool key>.pickle` beside the results (another version of spmdfix never reads it) of
`(FORMAT, {absolute path: (stat key, time the stat was taken (ns), imports, may hold a vmap)})`, each import
`(level, module, names)`: tuples, strings, numbers and booleans only, read by the loader that refuses every
class (`cache_file.load_plain`). A scan is served for a file whose stat key is the one kept and was settled
when taken (`stamps.settled`, as the results' stamps are); anything else in the file (damage, another format,
a forged entry) is no scan and the module is read again. Written at once (`cache_file.write_atomic`) after a
graph is built, merged into what the file holds then, so runs at the same time lose at most some scans.

Beside them, which words each file holds (`WordFile`, for `word_scan`): the project's `holding` questions, which
a warm run asks again to check a result that rests on them, are answered from it for every file not changed;
the directory records of the judgement's listings (`ListingFile`); and the answers themselves, by the state of
the project they were given for (`AnswerFile`). `keep_project_stores` hands all four to the run.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

from spmdfix.cache_file import FORMAT, load_plain, mark, write_atomic
from spmdfix.cache_keys import tool_key
from spmdfix.import_scan import Import
from spmdfix.stamps import StatKey, settled


class ScanFile:
    """The scans kept in the cache directory `directory` (`import_scan.ScanStore`): read once when made,
    written by `flush`. Never raises for a file that cannot be read or written (the modules are read
    again)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.file = self.directory / f"scans-{FORMAT}-{tool_key()}.pickle"
        self._plain: dict[str, tuple] = load_plain(self.file)
        self.changed: dict[str, tuple] = {}
        self._imports: dict[object, Import] = {}  # each `(level, module, names)` read, and its `Import`

    def known(self, path: str, key: StatKey) -> tuple[tuple[Import, ...], bool] | None:
        """The imports and whether the bytes may hold a vmap of the file at `path`, when a scan of it with
        the stat key `key`, taken once the file had settled, is kept; else None."""
        item = self._plain.get(path)
        if type(item) is not tuple or len(item) != 4:
            return None
        stat, taken, imports, vmap = item
        if stat != key or type(taken) is not int or type(vmap) is not bool or not settled(key, taken):
            return None
        if type(imports) is not tuple:
            return None
        made = self._imports
        try:
            # (each import read once per run: the modules of a project share most of theirs)
            return tuple(made[plain] if plain in made else made.setdefault(plain, _import(plain)) for plain in imports), vmap
        except TypeError:  # (also a plain value that cannot be hashed)
            return None

    def keep(self, path: str, key: StatKey, taken_ns: int, imports: tuple[Import, ...], vmap: bool) -> None:
        """Keep a settled scan this process made, for `flush`."""
        self.changed[path] = (tuple(key), taken_ns, tuple((i.level, i.module, i.names) for i in imports), vmap)

    def flush(self) -> None:
        """Write the scans kept since the last flush, merged into what the file holds now; scans of files
        that no longer exist are dropped."""
        if not self.changed:
            return
        plain = load_plain(self.file)
        plain.update(self.changed)
        plain = {p: s for p, s in plain.items() if p in self.changed or os.path.exists(p)}
        _write_plain(self.directory, self.file, plain)  # (failing: the next run reads the modules again)
        self._plain, self.changed = plain, {}


def _import(plain: object) -> Import:
    """The `Import` of a kept `(level, module, names)`; raises TypeError for anything else."""
    if type(plain) is not tuple or len(plain) != 3:
        raise TypeError("not an import")
    level, module, names = plain
    if type(level) is not int or type(module) is not str or type(names) is not tuple:
        raise TypeError("not an import")
    if not all(type(name) is str for name in names):
        raise TypeError("not an import")
    return Import(level, module, names)


class WordFile:
    """Which words the project's files hold (`word_scan.WordStore`), kept in the cache directory `directory`:
    a file `words-<FORMAT>-<tool key>.pickle` of `(FORMAT, {absolute path: (stat key, SHA-256 or "", {word:
    held}))})`, plain values only, read by the loader that refuses every class (`cache_file.load_plain`). Only
    settled files' readings are kept (`word_scan.words_held`), and one is served only for the same stat key;
    anything else in the file is no reading and the file is read again. Read once when made, written by
    `flush`, merged into what the file holds then. Never raises for a file that cannot be read or written."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.file = self.directory / f"words-{FORMAT}-{tool_key()}.pickle"
        self._plain: dict[str, tuple] = load_plain(self.file)
        self.changed: dict[str, tuple] = {}

    def known(self, path: str, key: StatKey) -> tuple[str, dict[str, bool]] | None:
        """The kept reading of the file at `path` when it was kept for the stat key `key`; else None."""
        item = self.changed.get(path) or self._plain.get(path)
        if not _same_bytes_reading(item, key):
            return None
        return item[1], dict(item[2])  # type: ignore[index]

    def keep(self, path: str, key: StatKey, reading: tuple[str, dict[str, bool]]) -> None:
        """Keep a reading of a settled file this process made, for `flush`."""
        self.changed[path] = (tuple(key), reading[0], dict(reading[1]))

    def flush(self) -> None:
        """Write the readings kept since the last flush, merged into what the file holds now (a reading of
        the same bytes kept by another process adds its words); readings of files that no longer exist are
        dropped."""
        if not self.changed:
            return
        plain = load_plain(self.file)
        for path, (key, digest, held) in self.changed.items():
            other = plain.get(path)
            if _same_bytes_reading(other, key):
                digest, held = digest or other[1], {**other[2], **held}  # type: ignore[index]
            plain[path] = (key, digest, held)
        plain = {p: s for p, s in plain.items() if p in self.changed or os.path.exists(p)}
        _write_plain(self.directory, self.file, plain)  # (failing: the next run reads the files again)
        self._plain, self.changed = plain, {}


def _same_bytes_reading(item: object, key: tuple) -> bool:
    """Whether a kept `item` is a well-formed reading of the bytes whose stat key is `key`."""
    if type(item) is not tuple or len(item) != 3 or item[0] != key:
        return False
    _, digest, held = item
    return type(digest) is str and type(held) is dict and all(type(w) is str and type(h) is bool for w, h in held.items())


class ListingFile:
    """The directory records of the judgement's listings (`project_graph.judged_files`, for
    `project_graph.keep_listings_in`), kept in the cache directory `directory`: a file
    `judged-listings-<FORMAT>-<tool key>.pickle` of `(FORMAT, {absolute directory: record})`, each record a
    `discovery.ListingMemo` one (stamp, context, kept entries: plain values, checked by `ListingMemo.get` before
    use). A warm run's word search (`cache_keys.holding_state`) lists the whole project: jax's repository took
    12 ms to list again, 2 ms from kept records. Read once when made, written by `flush`, merged into what the
    file holds then; records of directories that no longer exist are dropped. Never raises for a file that
    cannot be read or written."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.file = self.directory / f"judged-listings-{FORMAT}-{tool_key()}.pickle"
        self.known: dict[str, tuple] = load_plain(self.file)
        self.changed: dict[str, tuple] = {}

    def keep(self, records: dict[str, tuple]) -> None:
        """Keep the new records of a walk this process made, for `flush`."""
        self.changed.update(records)

    def flush(self) -> None:
        """Write the records kept since the last flush, merged into what the file holds now."""
        if not self.changed:
            return
        plain = load_plain(self.file)
        plain.update(self.changed)
        plain = {d: r for d, r in plain.items() if d in self.changed or os.path.isdir(d)}
        _write_plain(self.directory, self.file, plain)  # (failing: the next run lists the directories again)
        self.known, self.changed = plain, {}


class AnswerFile:
    """The answers about the projects' modules (`project_graph.AnswerStore`: who imports a module, who holds a
    word, as digests), kept in the cache directory `directory`: a file `answers-<FORMAT>-<tool key>.pickle` of
    `(FORMAT, {project root: (state, {question: digest})})`, the state `project_graph.judged_state`'s (the
    listing and every listed file's settled stat key), plain values only, read by the loader that refuses every
    class. An answer is served only while the project's state is the one kept; anything else in the file is no
    answer and the question is asked again. Read once when made, written by `flush`, merged into what the file
    holds then (answers of the same state); projects whose root no longer exists are dropped. Never raises for
    a file that cannot be read or written."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.file = self.directory / f"answers-{FORMAT}-{tool_key()}.pickle"
        self._plain: dict[str, tuple] = load_plain(self.file)
        self.changed: dict[str, tuple[str, dict[str, str]]] = {}

    def known(self, root: str) -> tuple[str, dict[str, str]] | None:
        """The kept (state, answers) of the project at `root`, when well formed; else None."""
        item = self.changed.get(root) or self._plain.get(root)
        return (item[0], dict(item[1])) if _answers(item) else None  # type: ignore[index]

    def keep(self, root: str, state: str, answers: dict[str, str]) -> None:
        """Keep this process's answers about the project at `root` in the state `state`, for `flush`."""
        self.changed[root] = (state, dict(answers))

    def flush(self) -> None:
        """Write the answers kept since the last flush, merged into what the file holds now (another
        process's answers for the same state add theirs)."""
        if not self.changed:
            return
        plain = load_plain(self.file)
        for root, (state, answers) in self.changed.items():
            other = plain.get(root)
            if _answers(other) and other[0] == state:  # type: ignore[index]
                answers = {**other[1], **answers}  # type: ignore[index]
            plain[root] = (state, answers)
        plain = {r: a for r, a in plain.items() if r in self.changed or os.path.isdir(r)}
        _write_plain(self.directory, self.file, plain)  # (failing: the next run asks the questions again)
        self._plain, self.changed = plain, {}


def _answers(item: object) -> bool:
    """Whether a kept `item` is a well-formed (state, {question: digest})."""
    if type(item) is not tuple or len(item) != 2 or type(item[0]) is not str or type(item[1]) is not dict:
        return False
    return all(type(q) is str and type(d) is str for q, d in item[1].items())


def keep_project_stores(directory: Path | None) -> None:
    """Keep this run's import scans, words, judgement's listings and answers about the project in the results
    cache's directory `directory` (`ScanFile`, `WordFile`, `ListingFile`, `AnswerFile`), read from there first;
    None: in this process only (a run without the cache)."""
    from spmdfix import import_scan, project_graph, word_scan

    import_scan.keep_scans_in(ScanFile(directory) if directory is not None else None)
    word_scan.keep_words_in(WordFile(directory) if directory is not None else None)
    project_graph.keep_listings_in(ListingFile(directory) if directory is not None else None)
    project_graph.keep_answers_in(AnswerFile(directory) if directory is not None else None)


def flush_project_stores() -> None:
    """Write what this process added to the stores `keep_project_stores` gave it (the scans are written when
    a graph is built: `import_scan.flush_scans`). A forked worker writes its own (the stores are inherited)."""
    from spmdfix import project_graph, word_scan

    word_scan.flush_words()
    project_graph.flush_listings()
    project_graph.flush_answers()


def _write_plain(directory: Path, file: Path, plain: dict) -> None:
    """Write `(FORMAT, plain)` to `file` in the cache directory `directory` at once (`write_atomic`), the
    directory made and marked first; a read-only tree or a full disk writes nothing (never raises)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        mark(directory)
        write_atomic(file, pickle.dumps((FORMAT, plain), protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        pass
