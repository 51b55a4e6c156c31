"""The results cache (`.spmdfix_cache/`): a file's outcome is served again while nothing it was computed
from has changed, as ruff's cache does.

What an outcome depends on, and so what its entry is keyed by:
- the bytes of the file (a SHA-256 digest);
- for a module that was analysed, the digests of every other module of the project its analysis read or
  looked for (`results.Checked.depends`, from the project index: None for a file looked for and absent), and
  the project root it searched from; for a module a partial run checked (`spmdfix.reaching`), also each
  module importing it whose vmaps were analysed, and the state of the project's import graph that decided
  which modules import it (`results.IMPORTERS_KEY`: a new importer, or one deleted, invalidates);
- the settings of its job (`Job` without its path: options, rule selection, mode, limits);
- the tool: its version and a digest of its own source files (an edited checkout is another tool), which
  names the cache file, so another version never reads it.

Knowing a file's digest without reading it: each entry keeps the file's stamp (`stamps.FileStamp`: the
stat key, size, mtime, ctime, inode, device, taken just before the bytes were read, as git's index does).
A file whose stat is unchanged is not read again; any write to a file changes its ctime, which no user call
can set back. A stamp that is not settled (taken within `stamps.RACY_NS` of the file's last change: a
change in the same clock tick keeps the times) is not trusted, so such a file is read and hashed; so is
every file whose stat differs, and an unchanged digest then serves the entry (and refreshes its stat).

What a walk kept of each directory (its source files and subdirectories once excludes and ignore files have
spoken) is kept too, in a second file (`listings-...`, same format and rules), keyed by the stamps of the
directory and of every ignore file that applies, the excludes of its settings and `--respect-gitignore`
(`discovery.ListingMemo`): a warm run then stats each directory and its ignore files instead of matching every
entry against their patterns. Each file found is still stat'ed against its entry, as above. The import
scans a partial run's graph is built from are kept in a third file (`scans-...`, `spmdfix.cache_graph`).

Where: `.spmdfix_cache/` in the project root (the nearest directory above the working directory holding
`pyproject.toml`, `spmdfix.toml` or `.git`, else the working directory), or `--cache-dir` /
`SPMDFIX_CACHE_DIR`. The directory holds a `.gitignore` of `*` and a `CACHEDIR.TAG`. One file per tool
version, read once at the start of a run and written once at its end, atomically (a temporary file and
`os.replace`), after merging in what other runs wrote meanwhile: runs at the same time never see a torn
file, and the worst a race does is drop entries, which are computed again. A run that changed only a few
entries (an edit between two checks) appends them to the file's journal instead (`results-...journal`, one
record a run, read after the file; `cache_file.append_journal`); once the journal holds a sixteenth of the
file's entries, the next run writes the file whole with the journal merged in and removes the journal. A file that cannot be read as
a cache (torn by a crash, another format, a forged pickle) is an empty cache: the loader only builds
spmdfix's own data classes, never arbitrary objects.

The pieces: `spmdfix.cache_keys` (where the cache lives, the tool's and a job's keys), `spmdfix.cache_file`
(what a cache file holds: entries, short results, the restricted loaders, atomic writes); this module holds
the cache of one run (`Cache`) and its hooks around a run (`CachedRun`).
"""

from __future__ import annotations

import dataclasses
import os
import pickle
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix.cache_file import (
    CHECKED_TAG,
    FORMAT,
    Entry,
    append_journal,
    load_journal,
    load_plain,
    mark,
    pack,
    unpack,
    write_atomic,
)
from spmdfix.cache_keys import (
    holding_state,
    importers_of_state,
    importers_state_of,
    project_root_of,
    settings_digest,
    settings_key,
    tool_key,
    walks_directory,
)
from spmdfix.discovery import ListingMemo, absolute_path
from spmdfix.perf import freeze_alive, gc_paused, record
from spmdfix.results import HOLDING_KEY, IMPORTERS_KEY, IMPORTERS_OF_KEY, PROJECT_ROOT_KEY, WALKED, Checked, FileResult, Mode, Skipped
from spmdfix.stamps import read_stamped, stat_key, trusted, unchanged
from spmdfix.word_scan import proven

if TYPE_CHECKING:
    from spmdfix.config import TableMemo
    from spmdfix.runner import Job

CACHEABLE = (Checked, Skipped)  # a `Fixed` result writes; `Unreadable` and `Failed` ones may be passing
# The journal of the results file takes a run's changes while it holds at most this share of the file's entries
# (1/JOURNAL_SHARE), and at least JOURNAL_MIN of them; past that a run writes the results file whole.
JOURNAL_SHARE, JOURNAL_MIN = 16, 64
# The depends of a module that names a mesh or a spec, checked in a run over its whole project (no partial
# run, `runner.job.walks_project`): served by the fast lanes when the run walks the file's project too.
WALKED_ONLY = ((IMPORTERS_KEY, WALKED),)


@record
class PlainCounts:
    """The files `Cache.serve_plain` served in a run, and how many of them passed the prefilter (parsed)
    and had suppressed findings: all a report shows of them (their outcomes hold nothing else)."""

    files: int = 0
    parsed: int = 0
    suppressed: int = 0


# --- the cache ------------------------------------------------------------------------------------------


class Cache:
    """The entries of one cache file, by absolute path. `lookup` in the main process; `store` the outcomes
    workers computed (with their `stamp`); `save` once at the end. Never raises for a cache that cannot be
    read or written: a run without a cache is only slower."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.file = self.directory / f"results-{FORMAT}-{tool_key()}.pickle"
        self.listings_file = self.directory / f"listings-{FORMAT}-{tool_key()}.pickle"
        self.listings: ListingMemo | None = None
        self.tables_file = self.directory / f"tables-{FORMAT}-{tool_key()}.pickle"
        self.tables: TableMemo | None = None
        self.journal_file = self.directory / f"results-{FORMAT}-{tool_key()}.journal"
        self._loaded_stat = _stat_of(self.file)  # before the read: a file replaced after it differs
        self._plain: dict[str, tuple] = load_plain(self.file)  # made `Entry`s when asked for (`entry`)
        # (read after the results file: a journal that another run's compaction removed in between is a
        # miss for each of its entries, never a stale one, since every entry is checked when served)
        self._journaled, self._journal_torn = load_journal(self.journal_file, self._plain)
        self._entries: dict[str, Entry | None] = {}
        self.loaded = len(self._plain)
        self.changed: dict[str, Entry | None] = {}  # what this run adds (None: drop the entry)
        self._digests: dict[str, str | None] = {}  # this run's digest of each path read or trusted
        self._settings_keys: dict[tuple, tuple[object, object, str]] = {}  # `settings_key_of`'s memo
        self._walks: dict[tuple, bool] = {}  # `_walks_directory`'s memo
        self.hits = 0
        self.plain = PlainCounts()  # what `serve_plain` served

    # Reading -------------------------------------------------------------------------------------------
    def entry(self, path: str) -> Entry | None:
        """The entry of an absolute path (None: none, or a damaged one)."""
        if path not in self._entries:
            item = self._plain.get(path)
            try:
                self._entries[path] = Entry.from_plain(item) if item is not None else None
            except (ValueError, TypeError):
                self._entries[path] = None
        return self._entries[path]

    def lookup(self, job: Job) -> FileResult | None:
        """The cached outcome of `job` when the file, its settings and every module its analysis read are
        unchanged; None otherwise (the job must run, then `store` its outcome)."""
        if job.mode is not Mode.CHECK:
            return None
        key = absolute_path(job.path)
        if key not in self._entries and key not in self._digests:
            served = self._served_by_stat(job, key)
            if served is not None:
                return served
        entry = self.entry(key)
        if entry is None or entry.settings != self._settings_key(job):
            return None
        if self.digest(key, entry) != entry.stamp.digest:
            return None
        for path, digest in entry.depends:
            if path == PROJECT_ROOT_KEY:
                now = project_root_of(job)
            elif path == IMPORTERS_KEY:
                now = importers_state_of(job)
            elif path.startswith(IMPORTERS_OF_KEY):
                now = importers_of_state(job, path[len(IMPORTERS_OF_KEY) :])
            elif path.startswith(HOLDING_KEY):
                now = holding_state(job, path[len(HOLDING_KEY) :])
            else:
                now = self.digest(path)
            if now != digest:
                return None
        outcome = unpack(entry.outcome, job)
        self.hits += outcome is not None
        return outcome

    def _served_by_stat(self, job: Job, key: str) -> FileResult | None:
        """`lookup`'s answer in the common case, from the plain entry without building it (`_trusted_plain`).
        None when that case does not hold (`lookup` then decides as usual): a warm run asks this of every
        file, and the general path's objects and calls were most of its time."""
        item = self._trusted_plain(key, self._settings_key(job), job.walked, job.project_root)
        if item is None:
            return None
        outcome = unpack(item[5], job)
        if outcome is not None:
            self._digests[key] = item[2]
            self.hits += 1
        return outcome

    def _trusted_plain(
        self, path: str, settings: str, walked: tuple[str, ...] = (), project_root: Path | None = None
    ) -> tuple | None:
        """The entry of the absolute `path` as the cache file holds it (`Entry.to_plain`'s tuple) when its
        outcome is packed short (`pack`), its analysis read no other module, it is of `settings` (a job's
        `settings_key`), and the file's stat is the entry's, taken well after the last change
        (`stamps.unchanged`); else None. No `Entry` is built: both warm paths ask this of every file.

        An entry whose only dependency is `WALKED_ONLY` (a module naming a mesh or a spec, checked by a run
        over its whole project) is trusted when this run walks the file's project too (`walked`, the run's
        `Job.walked`; `project_root`, its `project-root` setting: `cache_keys.walks_directory`), as
        `lookup` would decide from `importers_state_of`."""
        item = self._plain.get(path)
        if type(item) is not tuple or len(item) != 6:
            return None
        stat, taken, digest, key, depends, packed = item
        if key != settings or type(stat) is not tuple or type(taken) is not int or type(digest) is not str:
            return None
        if type(packed) is not tuple or len(packed) != 4:
            return None
        if depends and (depends != WALKED_ONLY or not self._walks_directory(walked, os.path.dirname(path), project_root)):
            return None
        if not unchanged(path, stat, taken):
            return None
        proven(path, stat)  # (the word search of this run need not stat it again: `word_scan.stat_of`)
        return item

    def _walks_directory(self, walked: tuple[str, ...], directory: str, project_root: Path | None) -> bool:
        """`cache_keys.walks_directory`, once per directory in this run (the warm lane asks it of every module
        that names a mesh or a spec)."""
        ident = (walked, directory, project_root)
        found = self._walks.get(ident)
        if found is None:
            found = self._walks[ident] = walks_directory(walked, directory, project_root)
        return found

    def _settings_key(self, job: Job) -> str:
        """`settings_key(job)`, computed once per settings object of the run (a directory's files share
        theirs; hashing the options for each of thousands of files cost more than the rest of a lookup)."""
        return self.settings_key_of(job.options, job.enabled, job.mode, job.want_edits, job.include_generated, job.max_bytes)

    def settings_key_of(
        self, options: object, enabled: frozenset[str], mode: str, want_edits: bool, include_generated: bool, max_bytes: int
    ) -> str:
        """`settings_key` of a job with these fields, memoised by the identity of `options` and `enabled`."""
        ident = (id(options), id(enabled), mode, want_edits, include_generated, max_bytes)
        found = self._settings_keys.get(ident)
        if found is None or found[0] is not options or found[1] is not enabled:
            key = settings_digest(options, mode, enabled, (want_edits, include_generated, max_bytes))
            found = self._settings_keys[ident] = (options, enabled, key)
        return found[2]

    def serve_plain(
        self, path: str, settings: str, walked: tuple[str, ...] = (), project_root: Path | None = None
    ) -> bool:
        """Whether the file at the absolute, normal `path` is served without a job or an outcome (the warm
        lane, `discovery.iter_sources`'s `lane`): its entry is trusted (`_trusted_plain`, with the run's
        `walked` directories and the file's `project_root` setting, as its job would have them) and plain (checked, no
        finding, no error: an outcome that shows nowhere in a report but in the closing counts). True:
        counted in `plain` (files, parsed, suppressed), and the entry is kept by `save`. False: the file goes
        the usual way (`lookup`), which decides on its own."""
        item = self._trusted_plain(path, settings, walked, project_root)
        if item is None:
            return False
        tag, parsed, suppressed, reason = item[5]
        if tag != CHECKED_TAG or reason != "" or type(parsed) is not bool or type(suppressed) is not int:
            return False
        self._digests[path] = item[2]  # (also what keeps the entry in `save`)
        self.hits += 1
        self.plain.files += 1
        self.plain.parsed += parsed
        self.plain.suppressed += suppressed
        return True

    def digest(self, path: str, entry: Entry | None = None) -> str | None:
        """The digest of the file's bytes now (the stat shortcut when the entry's stat proves them
        unchanged; else it is read and hashed); None when it cannot be read. `entry`: the path's entry,
        when the caller has it."""
        if path in self._digests:
            return self._digests[path]
        if entry is None:
            entry = self.entry(path)
        found: str | None = None
        try:
            now = stat_key(os.stat(path))
            if entry is not None and trusted(entry.stamp, now):
                found = entry.stamp.digest
            else:
                _, stamp = read_stamped(path)
                found = stamp.digest
                if entry is not None and found == entry.stamp.digest:
                    # The same bytes under a new stat (copied, touched): keep the entry, trust the new stat.
                    refreshed = dataclasses.replace(entry, stamp=stamp)
                    self._entries[path] = refreshed
                    self.changed[path] = refreshed
        except OSError:
            found = None
        self._digests[path] = found
        return found

    def listing_memo(self, rules_key: Callable[[str], Hashable]) -> ListingMemo:
        """The directory listings of earlier walks (`discovery.ListingMemo`, read from the cache directory
        now), for a walk whose `excluded` decides by `rules_key`'s key; saved by `save`."""
        self.listings = ListingMemo(load_plain(self.listings_file), rules_key)
        return self.listings

    def table_memo(self) -> TableMemo:
        """The pyproject.toml files earlier runs found without a `[tool.spmdfix]` table
        (`config.TableMemo`, read from the cache directory now); saved by `save`."""
        from spmdfix.config import TableMemo

        known = {p: k for p, k in load_plain(self.tables_file).items() if type(p) is str and type(k) is tuple}
        self.tables = TableMemo(known)
        return self.tables

    # Writing -------------------------------------------------------------------------------------------
    def store(self, job: Job, outcome: FileResult) -> None:
        """Keep `outcome` for the next run when it can be served again (a check's result, read with a
        stamp, of a file checked or deliberately skipped: `CACHEABLE`); drop the file's old entry otherwise."""
        key = absolute_path(job.path)
        stamp = outcome.stamp
        if job.mode is not Mode.CHECK or stamp is None or not isinstance(outcome, CACHEABLE):
            if self.entry(key) is not None:
                self.changed[key] = None
            return
        depends = tuple(outcome.depends) if isinstance(outcome, Checked) else ()  # (a `Skipped` file read nothing)
        entry = Entry(stamp, settings_key(job), depends, pack(outcome))
        self._entries[key] = entry
        self.changed[key] = entry
        self._digests[key] = stamp.digest

    def save(self) -> None:
        """Write this run's entries, merged into what the file holds now (another run may have written it
        since this one read it); entries of files that no longer exist are dropped. The same for the
        directory listings of this run's walk (`listing_memo`), in a file of their own."""
        memo, tables = self.listings, self.tables
        if not self.changed and (memo is None or not memo.changed) and (tables is None or not tables.changed):
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            mark(self.directory)
            if self.changed:
                self._save_entries()
            if memo is not None and memo.changed:
                plain = load_plain(self.listings_file)
                plain.update(memo.changed)
                plain = {d: r for d, r in plain.items() if d in memo.changed or os.path.isdir(d)}
                write_atomic(self.listings_file, pickle.dumps((FORMAT, plain), protocol=pickle.HIGHEST_PROTOCOL))
            if tables is not None and tables.changed:
                plain = load_plain(self.tables_file)
                plain.update(tables.changed)
                plain = {p: k for p, k in plain.items() if p in tables.changed or os.path.isfile(p)}
                write_atomic(self.tables_file, pickle.dumps((FORMAT, plain), protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:
            pass  # a read-only tree, a full disk: the next run computes again

    def _save_entries(self) -> None:
        """Append this run's changes to the journal when they are few and the results file is still the one
        this run loaded (`_journal_takes`); else write the results file whole (`_compact`)."""
        unchanged = self._loaded_stat is not None and _stat_of(self.file) == self._loaded_stat
        if unchanged and self._journal_takes(len(self.changed)):
            changes = {path: None if entry is None else entry.to_plain() for path, entry in self.changed.items()}
            try:
                append_journal(self.journal_file, changes)
                return
            except OSError:
                pass  # (written whole below)
        self._compact(unchanged)

    def _journal_takes(self, changes: int) -> bool:
        """Whether `changes` more entries go to the journal: it read whole (no torn record) and stays small
        beside the results file (`JOURNAL_SHARE` of its entries, at least `JOURNAL_MIN`). A one-byte edit's
        run then writes a record of one entry, not the 2.4 MB of the benchmark corpus's 3,330 (about 10 ms
        of an edit run's 90: bench/README.md)."""
        limit = max(JOURNAL_MIN, self.loaded // JOURNAL_SHARE)
        return not self._journal_torn and self._journaled + changes <= limit

    def _compact(self, unchanged: bool) -> None:
        """Write the results file whole: what it holds now (what this run loaded, unless another run replaced
        it since: its stat tells; the file is only ever replaced, never written in place; reading it again
        cost an edit run a tenth of its time), the journal as it is now (other runs may have appended), and
        this run's changes; entries of files that no longer exist are dropped. Then the journal is removed: a
        record another run appends in between is lost, which costs that run's files a check, no more. A merge
        only decides what is kept: every entry is checked when served."""
        plain = dict(self._plain) if unchanged else load_plain(self.file)
        load_journal(self.journal_file, plain)
        for path, entry in self.changed.items():
            if entry is None:
                plain.pop(path, None)
            else:
                plain[path] = entry.to_plain()
        seen = self._digests  # a file this run read or trusted exists: no stat for it
        plain = {p: e for p, e in plain.items() if p in self.changed or seen.get(p) is not None or os.path.exists(p)}
        write_atomic(self.file, pickle.dumps((FORMAT, plain), protocol=pickle.HIGHEST_PROTOCOL))
        self.journal_file.unlink(missing_ok=True)

    @property
    def stored(self) -> int:
        """Entries this run added or refreshed."""
        return sum(entry is not None for entry in self.changed.values())


def _stat_of(file: Path) -> tuple[int, int, int, int, int] | None:
    """The stat key of a cache file (None when it cannot be taken)."""
    try:
        return stat_key(os.stat(file))
    except OSError:
        return None


# --- a run with the cache ------------------------------------------------------------------------------


class CachedRun:
    """The cache's two hooks around a run: `misses` passes on the jobs the cache cannot serve (asking them
    for a stamp) and keeps the served outcomes; `finish` stores the new outcomes, saves the cache, and
    returns every job and outcome, sorted by `order`."""

    def __init__(self, cache: Cache) -> None:
        self.cache = cache
        self.served: list[tuple[Job, FileResult]] = []

    def misses(self, jobs: Iterable[Job], process_lifetime: bool = False) -> Iterator[Job]:
        """The jobs the cache cannot serve (asking each for a stamp); the served outcomes are kept.

        The walk and the lookups make a few objects per file and no reference cycles: the cyclic collector
        is off while this generator runs (on again while the consumer has a miss: it may analyse it), as
        its passes over those objects were a tenth of a warm run. process_lifetime: the served outcomes
        live as long as the process (a CLI run): once the walk is done, every object then alive goes to
        the collector's permanent generation (`gc.freeze`), so that no later pass traverses them either."""
        with gc_paused() as paused:
            for job in jobs:
                outcome = self.cache.lookup(job)
                if outcome is not None:
                    self.served.append((job, outcome))
                    continue
                paused.resume()
                try:
                    yield dataclasses.replace(job, stamp=True) if job.mode is Mode.CHECK else job
                finally:
                    paused.pause()
            if process_lifetime:
                freeze_alive()

    def finish(
        self, jobs: Sequence[Job], outcomes: Sequence[FileResult], order: Callable[[Job], object]
    ) -> tuple[list[Job], list[FileResult]]:
        for job, outcome in zip(jobs, outcomes):
            self.cache.store(job, outcome)
        self.cache.save()
        pairs = sorted([*zip(jobs, outcomes), *self.served], key=lambda pair: order(pair[0]))
        return [job for job, _ in pairs], [outcome for _, outcome in pairs]
