"""Discovery: the source files under the paths given, each once, as ruff finds them.

A directory is walked depth first in name order (a stack of listings, strings throughout); an entry is
skipped when the run's excludes say so, when a `.gitignore` that applies to it ignores it (`spmdfix.gitignore`),
or when it is a `.git` directory; symbolic links to directories are not followed. A warm run of the results
cache is served the listings of unchanged directories (`ListingMemo`) and takes over the files it already
knows (`iter_sources`' `lane`).
"""

from __future__ import annotations

import errno
import operator
import os
from collections.abc import Callable, Hashable, Iterable, Iterator
from pathlib import Path

from spmdfix.dir_entries import note, watched_in
from spmdfix.files import FileError
from spmdfix.gitignore import (
    GITIGNORE,
    Ignores,
    ignore_rules,
    ignored_by,
    join_entry,
    outer_gitignores,
    read_ignore_file,
)
from spmdfix.perf import sha256
from spmdfix.stamps import Stamp, settled, stamp_of

SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")
# excluded(absolute_path, is_dir): the path as a string, since discovery asks for every entry it walks.
Excluded = Callable[[str, bool], bool]
# lane(path as walked, absolute path) -> True when the caller takes the file over (`iter_sources`).
Lane = Callable[[str, str], bool]
# excluded_in(absolute directory) -> the test of its entries: (absolute path, is_dir, name) -> excluded.
ExcludedIn = Callable[[str], Callable[[str, bool, str], bool]]


def discover(
    paths: Iterable[str | os.PathLike],
    excluded: Excluded = lambda path, is_dir: False,
    respect_gitignore: bool = True,
    force_exclude: bool = False,
    unlisted: list[str] | None = None,
    memo: ListingMemo | None = None,
) -> list[Path]:
    """The source files under `paths` (`*.py`, `*.pyi`, `*.ipynb`), each once, sorted by path components.

    A file given is kept whatever its suffix; a directory is walked: an entry is skipped when
    `excluded(absolute_path, is_dir)` says so, when a `.gitignore` (of the walked directories, and of their
    ancestors up to the root of the git work tree holding them, plus `.git/info/exclude`) ignores it, or
    when it is a `.git` directory; symlinked directories are not followed. With `force_exclude`, a path
    given (or a directory between it and the working directory) that `excluded` matches is dropped too.
    A directory that cannot be listed is skipped, with a message appended to `unlisted` (when given).
    `memo` serves the kept entries of directories unchanged since an earlier walk (`ListingMemo`).
    Raises `FileError` for a path that does not exist.
    """
    found = iter_sources(paths, excluded, respect_gitignore, force_exclude, unlisted, memo)
    return sorted(found, key=lambda p: p.parts)


def iter_sources(
    paths: Iterable[str | os.PathLike],
    excluded: Excluded = lambda path, is_dir: False,
    respect_gitignore: bool = True,
    force_exclude: bool = False,
    unlisted: list[str] | None = None,
    memo: ListingMemo | None = None,
    lane: Lane | None = None,
    excluded_in: ExcludedIn | None = None,
) -> Iterator[Path]:
    """`discover`'s files as the walk finds them (each once; not sorted across the paths given), so that a
    caller can start on the first files while the walk goes on. Raises `FileError` for a path that does not
    exist, before yielding anything (the check is not deferred to the first `next`).

    lane: asked about each regular file a directory walk finds (not a path given, not a symbolic link),
    with its path as the walk spells it (joined onto the directory given) and its absolute path, before a
    `Path` is made of it; a file it answers True for is the caller's already and is not yielded (it still
    counts as found: another spelling of it is not yielded either). A warm run of the results cache
    serves most files this way without building anything for them.

    excluded_in: when given, what a walk asks instead of `excluded`, once per directory, for the test of
    that directory's entries (which must answer as `excluded` does, given the entry's name too): the
    work that is the same for every entry of a directory (its settings, say) is then done once."""
    paths = list(paths)
    given = [_physical(Path(p)) for p in paths]
    for original, path in zip(paths, given):
        try:
            exists = path.exists()
        except OSError as err:
            raise FileError(f"{original}: cannot access: {err.strerror or err}") from err
        if not exists and not _link_loop(path):
            raise FileError(f"{original}: no such file or directory")
    unlisted = [] if unlisted is None else unlisted
    return _unique(_sources(given, excluded, respect_gitignore, force_exclude, unlisted, memo, excluded_in), lane)


def _physical(path: Path) -> Path:
    """`path` with its part up to the last `..` resolved as the system resolves it when opening the path: a
    `..` after a symbolic link leaves the link's target, not the directory holding the link. A walk lists the
    absolute directory (`os.path.abspath`, which drops `link/..` as text) and reads its files through the path
    as spelled: given `A/link/..`, it listed `A` and read `A/link/../a.py` (B's, or nothing: a false SPMD901,
    and B's modules never checked); given `A/link/../b.py`, it reported B's module as `A/b.py`. Relative
    (to the working directory, whose path `os.getcwd` gives without links) when given relative; a path
    without `..` is returned as it is."""
    parts = path.parts
    if ".." not in parts:
        return path
    last = len(parts) - 1 - parts[::-1].index("..")
    resolved = os.path.join(os.path.realpath(os.path.join(*parts[: last + 1])), *parts[last + 1 :])
    return Path(resolved if path.is_absolute() else os.path.relpath(resolved))


def _link_loop(path: Path) -> bool:
    """Whether `path` is a symbolic link that resolves to itself (`Path.exists` says False for it, as for a
    missing file): it is kept as a file given, whose read then fails with the system's words ("Too many
    levels of symbolic links", SPMD901), as ruff reports it."""
    try:
        os.stat(path)
    except OSError as err:
        return err.errno == errno.ELOOP
    return False


def _sources(
    paths: list[Path],
    excluded: Excluded,
    respect_gitignore: bool,
    force_exclude: bool,
    unlisted: list[str],
    memo: ListingMemo | None,
    excluded_in: ExcludedIn | None = None,
) -> Iterator[tuple[Path | str, str | None, bool]]:
    """(path, `_unique`'s key or None, whether the path is a regular file a walk found: not a link, and
    `key` its absolute path); a walk's paths are strings, made `Path`s by `_unique` when yielded."""
    for path in paths:
        if force_exclude and excluded_as_given(path, excluded):
            continue
        if path.is_dir():
            ignores = outer_gitignores(path) if respect_gitignore else ()
            walk = _Walk(excluded_in or _each_entry(excluded), respect_gitignore, unlisted, memo)
            yield from walk.files(os.fspath(path), os.path.abspath(path), ignores)
        else:
            yield path, None, False


def _each_entry(excluded: Excluded) -> ExcludedIn:
    """`excluded` as an `ExcludedIn`: the same test for the entries of every directory."""

    def test(path: str, is_dir: bool, name: str) -> bool:
        return excluded(path, is_dir)

    return lambda directory: test


def _unique(paths: Iterator[tuple[Path | str, str | None, bool]], lane: Lane | None = None) -> Iterator[Path]:
    """Each file once, under the first spelling met (`a.py`, `./a.py` and `$PWD/a.py` are one file, and a
    symbolic link is its target: reported once, written once). Each path comes with its key (the walk
    knows it: the absolute path, or the link's target), or None to have it computed here, and whether it
    is a regular file a walk found (`lane` is asked about those only: see `iter_sources`)."""
    seen: set[str] = set()
    for path, key, regular in paths:
        if key is None:
            key = os.path.abspath(path)
            if os.path.islink(key):
                key = os.path.realpath(key)
        if key not in seen:
            seen.add(key)
            if regular and lane is not None and lane(path, key):  # type: ignore[arg-type]
                continue
            yield path if isinstance(path, Path) else Path(path)


def is_normal(absolute: str) -> bool:
    """Whether an absolute path is already spelled as `os.path.normpath` spells it (no `.`, `..` or empty
    component, no trailing separator), so that plain string operations on it agree with `os.path`'s."""
    sep = os.sep
    return (
        sep + sep not in absolute
        and sep + "." + sep not in absolute
        and sep + ".." + sep not in absolute
        and not absolute.endswith((sep + ".", sep + "..", sep))
        and (os.altsep is None or os.altsep not in absolute)
    )


def absolute_path(path: str | os.PathLike) -> str:
    """`os.path.abspath(path)`, without its work for a path already absolute and normal (what a walk from
    an absolute directory gives: a warm run asks for every file's)."""
    text = os.fspath(path)
    if text[:1] == os.sep and os.sep == "/" and is_normal(text):
        return text
    return os.path.abspath(text)


def excluded_as_given(path: Path, excluded: Excluded) -> bool:
    """True when `path` or a directory between it and the working directory is excluded (`--force-exclude`)."""
    absolute = Path(os.path.abspath(path))
    cwd = Path.cwd()
    if absolute == cwd or absolute in cwd.parents:
        return False  # where the run stands (a checkout in `build/`, say) is not something it excludes
    if excluded(str(absolute), path.is_dir()):
        return True
    return any(excluded(str(parent), True) for parent in absolute.parents if cwd in parent.parents)


class ListingMemo:
    """What earlier walks kept of each directory, served again while nothing that decided it changed.

    A directory's kept entries (the names of its subdirectories and source files that no exclude, ignore
    file or `.git` rule drops) depend on its entries, the rules of its ignore files and of the ignore
    files above it, the excludes that apply to it, and `respect_gitignore`. A record holds the kept
    entries with the directory's stamp (`os.stat` and the time taken before listing it) and a context key:
    `rules_key(directory)` (which must say everything `excluded` decides for that directory's entries: the
    CLI gives its exclude patterns), `respect_gitignore`, and the path and stamp of each ignore file that
    applies, and which of the names settings, ignore files and project roots are looked up by it holds
    (`dir_entries`). Adding, removing or renaming an entry changes the directory's mtime and ctime; editing
    an ignore file changes its stamp; so an unchanged directory stamp and context prove the same kept
    entries, and an unchanged stamp the same names. The files themselves are not vouched for: each is still stat'ed by the results cache.

    Not recorded (listed again on every walk): a directory or ignore file whose stamp is not settled
    (`stamps.settled`: a change in the same clock tick keeps the times, as for the results cache),
    and a directory holding a symbolic link with a source suffix (what it points to may change while the
    directory does not). `known`: records by absolute directory, as loaded (plain tuples, checked before
    use); `changed`: this walk's new records, for the caller to save."""

    def __init__(self, known: dict, rules_key: Callable[[str], Hashable]) -> None:
        self.known = known
        self.rules_key = rules_key
        self.changed: dict[str, tuple] = {}
        self.served = 0
        self._contexts: dict[tuple, str] = {}

    def context(self, directory: str, ignores: Ignores, respect: bool) -> str | None:
        """The context key of a directory's listing; None when an ignore file is not settled."""
        rules = self.rules_key(directory)
        found = self._contexts.get((rules, ignores, respect))
        if found is None:
            if not all(f.stamp is not None and settled(*f.stamp) for _, f in ignores):
                return None
            plain = (respect, rules, [(d, f.path, f.stamp[0]) for d, f in ignores])  # type: ignore[index]
            found = self._contexts[(rules, ignores, respect)] = sha256(repr(plain).encode()).hexdigest()[:32]
        return found

    def get(self, directory: str, stamp: Stamp, context: str) -> tuple[tuple[str, bool], ...] | None:
        """The kept entries of an unchanged directory (None: none recorded, changed, or not a record)."""
        record = self.known.get(directory)
        try:
            key, recorded_context, kept, _ = record  # type: ignore[misc]
            if key != stamp[0] or recorded_context != context:
                return None
            for name, is_dir in kept:
                if not (type(name) is str and type(is_dir) is bool and _plain_name(name)):
                    return None
        except (TypeError, ValueError):
            return None
        self.served += 1
        return kept

    def held(self, directory: str, stamp: Stamp) -> frozenset[str] | None:
        """Which of `dir_entries.WATCHED` the directory holds, as recorded with its listing, when its stamp
        is the recorded one (entries added, removed or renamed since would have changed it); else None."""
        record = self.known.get(directory)
        try:
            key, _, _, held = record  # type: ignore[misc]
            if key != stamp[0] or type(held) is not tuple or not all(type(name) is str for name in held):
                return None
        except (TypeError, ValueError):
            return None
        return frozenset(held)

    def put(
        self, directory: str, stamp: Stamp, context: str, kept: tuple[tuple[str, bool], ...], held: frozenset[str]
    ) -> None:
        if settled(*stamp):
            self.changed[directory] = (stamp[0], context, kept, tuple(sorted(held)))


def _plain_name(name: str) -> bool:
    """A name a directory listing can hold (a record naming `..` or a path is not one)."""
    return bool(name) and name not in (".", "..") and os.sep not in name and "/" not in name and "\0" not in name


_NAME = operator.attrgetter("name")  # (a directory's entries are sorted by it: in C, not a lambda per entry)


class _Walk:
    """One walk's rules: `files` gives the source files under a directory."""

    def __init__(self, excluded_in: ExcludedIn, respect: bool, unlisted: list[str], memo: ListingMemo | None) -> None:
        self.excluded_in = excluded_in
        self.respect = respect
        self.unlisted = unlisted
        self.memo = memo

    def files(self, path: str, absolute: str, ignores: Ignores) -> Iterator[tuple[str, str, bool]]:
        """The source files under the directory `path` (as given; `absolute` is the same directory), as
        paths joined onto `path` with their `_unique` keys and whether each is a regular file (not a
        symbolic link: its key is then its absolute path), depth first in name order. Strings throughout:
        pathlib would cost more than the walk itself. A stack of directory listings, not recursion: a tree
        may be deeper than Python's stack."""
        stack = [self._listing(path, absolute, ignores)]
        while stack:
            entry = next(stack[-1], None)
            if entry is None:
                stack.pop()
            elif entry[0]:  # a directory: its files come before the next entry of this one
                _, child, child_abs, child_ignores = entry
                stack.append(self._listing(child, child_abs, child_ignores, entered=True))
            else:
                yield entry[1], entry[2], len(entry) == 3

    def _listing(self, path: str, absolute: str, ignores: Ignores, entered: bool = False) -> Iterator[tuple]:
        """One directory's entries to keep, in name order: (True, path, absolute, ignores) for a directory,
        (False, path, absolute) for a regular source file, (False, path, target, True) for a symbolic link
        to one (target: its real path, `_unique`'s key). A
        directory that cannot be listed says so in `unlisted`. Notes which of the watched names the
        directory holds (`dir_entries.note`; `entered`: it is an entry of the directory listed before it, a
        directory and no link): its `.gitignore` is then read only where there is one."""
        memo, stamp, context, own_read = self.memo, None, None, False
        if memo is not None:
            found = stamp_of(absolute)  # before the listing: a change after it shows in the next walk
            stamp = found[0] if found is not None and found[1] else None
            held = memo.held(absolute, stamp) if stamp is not None else None
            if held is not None:
                note(absolute, held, entered)
                ignores, own_read = self._with_own(absolute, ignores), True
                context = memo.context(absolute, ignores, self.respect)
                kept = memo.get(absolute, stamp, context) if context is not None else None  # type: ignore[arg-type]
                if kept is not None:
                    for name, is_dir in kept:
                        child_abs = join_entry(absolute, name)
                        if is_dir:
                            yield True, join_entry(path, name), child_abs, ignores
                        else:
                            yield False, join_entry(path, name), child_abs
                    return
        try:
            entries = sorted(os.scandir(absolute), key=_NAME)
        except OSError as err:
            shown = os.path.normpath(path).replace(os.sep, "/")
            self.unlisted.append(f"{shown}: skipped: cannot list the directory: {err.strerror or err}")
            return
        held = watched_in([entry.name for entry in entries])
        note(absolute, held, entered)
        if not own_read:  # (not read above: the directory's names were not known before its listing)
            ignores = self._with_own(absolute, ignores)
            if stamp is not None:
                context = memo.context(absolute, ignores, self.respect)  # type: ignore[union-attr]
        kept_names: list[tuple[str, bool]] = []
        linked = False
        excluded = None  # this directory's test (`excluded_in`), asked for when an entry needs it
        rules = ignore_rules(ignores, absolute) if ignores else None
        spelled = join_entry(path, "")  # (the directory's path with a separator after it, for its entries')
        for entry in entries:
            is_dir = entry.is_dir(follow_symlinks=False)
            name = entry.name
            if not is_dir and not name.endswith(SOURCE_SUFFIXES):
                continue  # what no setting could keep: before the tests below, which cost more (most entries)
            if is_dir and name == ".git":
                continue
            if excluded is None:
                excluded = self.excluded_in(absolute)
            child_abs = entry.path
            if excluded(child_abs, is_dir, name) or (rules is not None and ignored_by(rules, name, is_dir)):
                continue
            if is_dir:
                kept_names.append((name, True))
                yield True, spelled + name, child_abs, ignores
            elif entry.is_symlink():
                linked = True
                if _links_to_a_file(entry):
                    # `_unique`'s key: is_symlink answers from the listing, without an lstat per file
                    yield False, spelled + name, os.path.realpath(child_abs), True
            elif entry.is_file():
                kept_names.append((name, False))
                yield False, spelled + name, child_abs
        if memo is not None and stamp is not None and context is not None and not linked:
            memo.put(absolute, stamp, context, tuple(kept_names), held)

    def _with_own(self, absolute: str, ignores: Ignores) -> Ignores:
        """`ignores` with the directory's own `.gitignore` added, when gitignores are respected and it has one."""
        if self.respect:
            own = read_ignore_file(join_entry(absolute, GITIGNORE))
            if own is not None:
                return (*ignores, (absolute, own))
        return ignores


def _links_to_a_file(entry: os.DirEntry) -> bool:
    """Whether a symbolic link of a listing leads to a regular file; False for a link that leads nowhere or
    loops (`Too many levels of symbolic links`), which a walk passes over as it passes over a dangling one."""
    try:
        return entry.is_file()
    except OSError:
        return False
