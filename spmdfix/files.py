"""File I/O at the edge: discovery (excludes, .gitignore), decoding that keeps every byte, and atomic writes.

A module is read as bytes and decoded by its PEP 263 cookie or BOM (`tokenize.detect_encoding`), with line
endings left as they are; it is written back in the same encoding (BOM included), through a temporary file
in the same directory and `os.replace`, keeping its permissions, and only when the text changed and the
file on disk is still the one that was read. A read-only file is reported, not replaced (`os.replace` would
replace it: renaming needs write access to the directory only); a symlink is followed and its target written.
"""

from __future__ import annotations

import codecs
import errno
import functools
import io
import operator
import os
import re
import stat
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix.stamps import Stamp, settled, settled_now, stamp_of, stat_key

if TYPE_CHECKING:
    import pathspec

SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")
GITIGNORE = ".gitignore"
PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", ".git")  # what marks a project's root (`find_project_root`)
MAX_BYTES = 10 * 1024 * 1024
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")

# excluded(absolute_path, is_dir): the path as a string, since discovery asks for every entry it walks.
Excluded = Callable[[str, bool], bool]
# lane(path as walked, absolute path) -> True when the caller takes the file over (`iter_sources`).
Lane = Callable[[str, str], bool]
# excluded_in(absolute directory) -> the test of its entries: (absolute path, is_dir, name) -> excluded.
ExcludedIn = Callable[[str], Callable[[str, bool, str], bool]]


class FileError(Exception):
    """A file could not be read, decoded or written; the message says why, in plain words."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A decoded module: its path, text, the encoding to write it back with, and the bytes read."""

    path: Path
    text: str
    encoding: str
    raw: bytes


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
    given = [Path(p) for p in paths]
    for original, path in zip(paths, given):
        try:
            exists = path.exists()
        except OSError as err:
            raise FileError(f"{original}: cannot access: {err.strerror or err}") from err
        if not exists and not _link_loop(path):
            raise FileError(f"{original}: no such file or directory")
    unlisted = [] if unlisted is None else unlisted
    return _unique(_sources(given, excluded, respect_gitignore, force_exclude, unlisted, memo, excluded_in), lane)


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
            ignores = _outer_gitignores(path) if respect_gitignore else ()
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


def find_project_root(path: Path) -> Path:
    """The nearest directory at or above `path` holding `pyproject.toml`, `setup.cfg` or `.git` (the
    project whose modules the cross-module analysis follows); the directory of `path` itself when there
    is none."""
    start = path if path.is_dir() else path.parent
    start = start.resolve()
    for directory in (start, *start.parents):
        if any((directory / marker).exists() for marker in PROJECT_MARKERS):
            return directory
    return start


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


class _IgnoreFile:
    """One ignore file's patterns, with a quick test in front of pathspec's (`GitIgnoreSpec`, built on the
    first entry the quick test cannot decide: compiling every pattern costs more than most walks ask).

    Made from `lines`, or from the file at `path` (read on the first question: a walk whose directory
    listings are all served by a `ListingMemo` never reads it); `stamp` is then the file's
    `(stat key, time taken)`, taken before the read, which the memo keys listings by."""

    def __init__(self, lines: list[str] | None = None, path: str | None = None, stamp: Stamp | None = None) -> None:
        self._lines = lines
        self.path = path
        self.stamp = stamp
        self._quick: _QuickTests | None | bool = False  # False: not built yet
        self._spec: pathspec.GitIgnoreSpec | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            try:
                with open(self.path or "", encoding="utf-8", errors="replace") as handle:
                    self._lines = handle.read().splitlines()
            except OSError:
                self._lines = []  # as if absent: no pattern
        return self._lines

    @property
    def quick(self) -> _QuickTests | None:
        """The quick tests of the ignoring and of the re-including patterns (`_quick_tests`), or None."""
        if self._quick is False:
            self._quick = _quick_tests(self.lines)
        return self._quick  # type: ignore[return-value]

    @property
    def spec(self) -> pathspec.GitIgnoreSpec:
        if self._spec is None:
            import pathspec

            self._spec = pathspec.GitIgnoreSpec.from_lines(self.lines)
        return self._spec

    def include(self, rel: str) -> bool | None:
        """Whether the patterns ignore `rel` (True), re-include it (False), or say nothing (None).

        pathspec tries each pattern in turn (a 170-line ignore file made discovery cost 0.3 s on the
        benchmark corpus); a quick test of regular expressions answers for the entries no pattern
        matches, which are most. pathspec's decision is always that of a pattern matching the entry (one
        that does not match is skipped), so when the matching patterns all ignore, or all re-include (`!`),
        their side is the answer: the quick tests of each side say which match, and pathspec's spec (10-15
        ms of CPU to build for an ignore file of 160 patterns) decides only an entry that patterns of both
        sides match."""
        quick = self.quick
        if quick is not None:
            ignoring, including = quick
            ignored = ignoring.search(rel)
            if including is None or not including.search(rel):
                return True if ignored else None
            if not ignored:
                return False
        return self.spec.check_file(rel).include


_NAMED_GROUP = re.compile(r"\(\?P<\w+>")
_ANY_DIRECTORY = "^(?:.+/)?"  # how pathspec starts a pattern that may match below any directory
_ANY_NAME = "[^/]*"  # how pathspec spells `*`
# How pathspec ends a pattern (the group marks a match of a directory's contents), and the same test
# without the group: a name that may be a file or a directory, and a directory only (`build/`).
_ENDINGS = {"(?:(?P<ps_d>/)|$)": "(?:/|$)", "(?P<ps_d>/)": "/"}
_ANY_END = _ENDINGS["(?:(?P<ps_d>/)|$)"]


def _quick_tests(lines: list[str]) -> _QuickTests | None:
    """The quick tests (`_QuickTest`) of an ignore file's `lines`: one matching where some ignoring pattern
    does, and one where some re-including pattern (`!`) does (None when there is none); None when they
    cannot be built (pathspec then decides every entry)."""
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    sides: dict[bool, list[str]] = {True: [], False: []}
    for line in lines:
        try:
            regex, include = GitIgnoreSpecPattern.pattern_to_regex(line)
        except Exception:  # noqa: BLE001 - pathspec decides what a bad line means; no quick test then
            return None
        if include is None or regex is None:
            continue  # a comment or blank line
        if not isinstance(regex, str) or "(?P=" in regex:
            return None
        sides[bool(include)].append(regex)
    try:
        return _any_pattern(sides[True]), (_any_pattern(sides[False]) if sides[False] else None)
    except re.error:
        return None


def _any_pattern(regexes: list[str]) -> _QuickTest:
    """A test (`_QuickTest`: regular expressions) that matches where one of pathspec's `regexes` (which
    pathspec matches with `search`) does. Raises `re.error` when one cannot be compiled.

    Compiling the expressions is most of what reading an ignore file costs (a 170-line file takes about
    5 ms, and a warm run reads every ignore file of the tree), so patterns are grouped by how they start
    and end, and each group is one alternation: `^(?:A|B|...)(?:/|$)` for anchored patterns, `/(?:A|B|...)/`
    for directories at any depth (pathspec's `^(?:.+/)?` start), and so on. A pattern of another shape
    keeps its whole regex, its named group made plain (an alternation may not repeat a group name). This
    halves the text to compile; the matches are the same.

    A name at any depth that starts with `*` and may be a file (`*.so`, `*.py[cod]`, `*$py.class`: a third
    of a Python ignore file's patterns) goes without its `[^/]*` start to a group searched at every character
    (`floating`): `[^/]*X` matches at the start of some component exactly where `X` matches at some
    position (the `[^/]*` takes what lies between that position and its component's start, which holds
    no `/`). Matched at each component's start instead, `[^/]*` took the whole component and gave it back
    a character at a time for each such pattern; searched, the positions where no part of the group can
    start are skipped (`re` does so for an alternation whose parts all start with a plain character).

    A plain name at any depth (`build/`, `__pycache__/`, `.venv`: half of a Python ignore file's patterns)
    is not compiled at all: it matches where it is one of the path's components (followed by a `/` for a
    directory's pattern), which a set of the names answers."""
    whole: list[str] = []
    grouped: dict[tuple[str, str], list[str]] = {}
    names: list[str] = []
    dir_names: list[str] = []
    for regex in regexes:
        shape = _shape(regex)
        if shape is None:
            whole.append(f"(?:{_NAMED_GROUP.sub('(?:', regex)})")
            continue
        start, body, end = shape
        if start == "/" and end == _ANY_END and body.startswith(_ANY_NAME) and body != _ANY_NAME:
            start, body = "", body[len(_ANY_NAME) :]
        literal = _literal(body) if start == "/" else None
        if literal is not None:  # (a name: compared as a string, not compiled)
            (names if end == _ANY_END else dir_names).append(literal)
            continue
        grouped.setdefault((start, end), []).append(body)

    def alternation(start: str) -> str:
        ends = [f"(?:{'|'.join(bodies)}){end}" for (where, end), bodies in grouped.items() if where == start]
        return ends[0] if len(ends) == 1 else f"(?:{'|'.join(ends)})" if ends else ""

    rooted = [*whole, *([f"^{alternation('^')}"] if alternation("^") else [])]
    anywhere = alternation("/")
    return _QuickTest(
        _compiled("|".join(rooted)),
        _compiled(alternation("")),
        _compiled(f"/{anywhere}" if anywhere else ""),
        frozenset(names),
        frozenset(dir_names),
    )


# re.escape's output, and one of its escapes (strings: compiled by `re` when an ignore file is first read)
_LITERAL = r"(?:\\[^0-9A-Za-z]|[^\\()\[\]{}?*+\-|^$.&~#\s/])+"
_UNESCAPE = r"\\(.)"


def _literal(body: str) -> str | None:
    """The text a regex part matches when it is plain text (`re.escape`'s output, as pathspec spells a
    pattern's plain characters) with no `/`; None for any other part."""
    if re.fullmatch(_LITERAL, body) is None:
        return None
    text = re.sub(_UNESCAPE, r"\1", body)
    return text if "/" not in text else None


def _compiled(regex: str) -> re.Pattern | None:
    return re.compile(regex) if regex else None


class _QuickTest:
    """`_any_pattern`'s test: `rooted` searched (pathspec's own regexes, and the anchored patterns grouped),
    `floating` searched (the any-depth patterns that start with `*`, without it), and `anywhere` (the other
    patterns that may match below any directory) searched in the path with a `/` in front. `anywhere`
    starts with a `/` where pathspec's start `^(?:.+/)?` allows the start of any component: a component
    starts at 0 or after a `/` (the path's end included, after a trailing `/`), which is where a `/` stands
    in the path with one in front, so the matches are the same. One search of `(?:^|/)(?:A|B|...)` tried
    that alternation at every character of the path; one that starts with a plain `/` is tried only where
    one stands (a match at each component's start from Python cost twice as much again). `names` and
    `dir_names`: the plain names at any depth, matching a component, and a component followed by a `/`."""

    __slots__ = ("anywhere", "dir_names", "floating", "names", "rooted")

    def __init__(
        self,
        rooted: re.Pattern | None,
        floating: re.Pattern | None,
        anywhere: re.Pattern | None,
        names: frozenset[str] = frozenset(),
        dir_names: frozenset[str] = frozenset(),
    ) -> None:
        self.rooted = rooted
        self.floating = floating
        self.anywhere = anywhere
        self.names = names
        self.dir_names = dir_names

    def search(self, rel: str) -> bool:
        """Whether a pattern matches the relative path `rel` (`/`-separated, not starting with `/`)."""
        if (
            (self.rooted is not None and self.rooted.search(rel) is not None)
            or (self.floating is not None and self.floating.search(rel) is not None)
            or (self.anywhere is not None and self.anywhere.search("/" + rel) is not None)
        ):
            return True
        parts = rel.split("/")  # (each part is followed by a `/` but the last, followed by the end)
        return not self.names.isdisjoint(parts) or not self.dir_names.isdisjoint(parts[:-1])


_PLAIN_ESCAPE = r"\\."  # an escaped character, which the test of a part's syntax skips (compiled when used)


def _shape(regex: str) -> tuple[str, str, str] | None:
    """(start, body, end) of a pathspec regex of a common shape, each part plain regex text to join with
    others of the same start: start `^` (anchored) or `/` (at any depth); None for another shape (a body
    with groups, alternatives or anchors, say, which could not be joined as it is; escaped, as in
    `*$py.class`, these characters are plain)."""
    for ending, end in _ENDINGS.items():
        if regex.endswith(ending):
            body = regex[: -len(ending)]
            break
    else:
        return None
    if body.startswith(_ANY_DIRECTORY):
        start, body = "/", body[len(_ANY_DIRECTORY) :]
    elif body.startswith("^"):
        start, body = "^", body[1:]
    else:
        return None
    syntax = re.sub(_PLAIN_ESCAPE, "", body)
    if "(" in syntax or "|" in syntax or syntax.endswith("\\") or "$" in syntax or "^" in syntax.replace("[^", "["):
        return None
    return start, body, end


_QuickTests = tuple["_QuickTest", "_QuickTest | None"]  # (of the ignoring patterns, of the re-including ones)
_Ignores = tuple[tuple[str, _IgnoreFile], ...]  # (absolute directory, its ignore file's patterns)


def _read_ignore_file(path: str) -> _IgnoreFile | None:
    """The ignore file at `path` (read when first asked), or None when there is no regular file there."""
    if not os.access(path, os.F_OK):
        return None  # most directories have none: asked without raising (a failed stat's exception costs more)
    found = stamp_of(path)
    if found is None or found[1]:
        return None
    return _IgnoreFile(path=path, stamp=found[0])


def _outer_gitignores(root: Path) -> _Ignores:
    """Ignore files that apply to `root` from above: its ancestors' up to the git work tree's root."""
    absolute = Path(os.path.abspath(root))
    chain = [absolute, *absolute.parents]
    top = next((d for d in chain if (d / ".git").exists()), None)
    if top is None:
        return ()
    out: list[tuple[str, _IgnoreFile]] = []
    info = _read_ignore_file(str(top / ".git" / "info" / "exclude")) if (top / ".git").is_dir() else None
    if info is not None:
        out.append((str(top), info))
    for directory in reversed(chain[1 : chain.index(top) + 1]):
        spec = _read_ignore_file(str(directory / GITIGNORE))
        if spec is not None:
            out.append((str(directory), spec))
    return tuple(out)


def _ignore_rules(ignores: _Ignores, absolute: str) -> list[tuple[str, _IgnoreFile]]:
    """The ignore files that apply to the entries of the absolute directory `absolute`, deepest first, each
    with the directory's path relative to the ignore file's (`/`-separated, with a `/` after it; empty for
    the directory's own): an entry's path relative to it is that and the entry's name (`_gitignored`)."""
    rules = []
    for directory, ignore_file in reversed(ignores):
        rel = absolute[len(directory) :].lstrip(os.sep).replace(os.sep, "/")
        rules.append((rel + "/" if rel else "", ignore_file))
    return rules


def _gitignored(rules: list[tuple[str, _IgnoreFile]], name: str, is_dir: bool) -> bool:
    """The decision of the deepest ignore file with a pattern matching the entry `name` of the directory
    whose `_ignore_rules` are `rules` (False without one)."""
    tail = name + "/" if is_dir else name
    for prefix, ignore_file in rules:
        include = ignore_file.include(prefix + tail)
        if include is not None:
            return include
    return False


def gitignored(path: str | os.PathLike) -> bool:
    """Whether a walk of its git work tree would skip the file at `path` for `.gitignore` (the work tree's
    `.gitignore` files from its root down and `.git/info/exclude`, as `iter_sources` applies them): the file
    itself or a directory above it, below the root, is ignored. False outside a git work tree. For callers
    handed files one by one (the libcst codemod commands), not for discovery, which decides while walking."""
    absolute = os.path.abspath(path)
    top = next((d for d in Path(absolute).parents if (d / ".git").exists()), None)
    if top is None:
        return False
    ignores = _outer_gitignores(top)  # (`.git/info/exclude`; nothing above the work tree's root applies)
    directory = str(top)
    names = Path(absolute).relative_to(top).parts
    for depth, name in enumerate(names):
        own = _read_ignore_file(_join(directory, GITIGNORE))
        if own is not None:
            ignores = (*ignores, (directory, own))
        is_dir = depth < len(names) - 1
        if (is_dir and name == ".git") or _gitignored(_ignore_rules(ignores, directory), name, is_dir):
            return True
        directory = _join(directory, name)
    return False


class ListingMemo:
    """What earlier walks kept of each directory, served again while nothing that decided it changed.

    A directory's kept entries (the names of its subdirectories and source files that no exclude, ignore
    file or `.git` rule drops) depend on its entries, the rules of its ignore files and of the ignore
    files above it, the excludes that apply to it, and `respect_gitignore`. A record holds the kept
    entries with the directory's stamp (`os.stat` and the time taken before listing it) and a context key:
    `rules_key(directory)` (which must say everything `excluded` decides for that directory's entries: the
    CLI gives its exclude patterns), `respect_gitignore`, and the path and stamp of each ignore file that
    applies. Adding, removing or renaming an entry changes the directory's mtime and ctime; editing an
    ignore file changes its stamp; so an unchanged directory stamp and context prove the same kept
    entries. The files themselves are not vouched for: each is still stat'ed by the results cache.

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

    def context(self, directory: str, ignores: _Ignores, respect: bool) -> str | None:
        """The context key of a directory's listing; None when an ignore file is not settled."""
        rules = self.rules_key(directory)
        found = self._contexts.get((rules, ignores, respect))
        if found is None:
            if not all(f.stamp is not None and settled(*f.stamp) for _, f in ignores):
                return None
            import hashlib

            plain = (respect, rules, [(d, f.path, f.stamp[0]) for d, f in ignores])  # type: ignore[index]
            found = self._contexts[(rules, ignores, respect)] = hashlib.sha256(repr(plain).encode()).hexdigest()[:32]
        return found

    def get(self, directory: str, stamp: Stamp, context: str) -> tuple[tuple[str, bool], ...] | None:
        """The kept entries of an unchanged directory (None: none recorded, changed, or not a record)."""
        record = self.known.get(directory)
        try:
            key, recorded_context, kept = record  # type: ignore[misc]
            if key != stamp[0] or recorded_context != context:
                return None
            for name, is_dir in kept:
                if not (type(name) is str and type(is_dir) is bool and _plain_name(name)):
                    return None
        except (TypeError, ValueError):
            return None
        self.served += 1
        return kept

    def put(self, directory: str, stamp: Stamp, context: str, kept: tuple[tuple[str, bool], ...]) -> None:
        if settled(*stamp):
            self.changed[directory] = (stamp[0], context, kept)


def _plain_name(name: str) -> bool:
    """A name a directory listing can hold (a record naming `..` or a path is not one)."""
    return bool(name) and name not in (".", "..") and os.sep not in name and "/" not in name and "\0" not in name


_NAME = operator.attrgetter("name")  # (a directory's entries are sorted by it: in C, not a lambda per entry)


def _join(directory: str, name: str) -> str:
    """`os.path.join` of a directory and an entry name (a tenth of its cost)."""
    return directory + name if directory.endswith(os.sep) else directory + os.sep + name


class _Walk:
    """One walk's rules: `files` gives the source files under a directory."""

    def __init__(self, excluded_in: ExcludedIn, respect: bool, unlisted: list[str], memo: ListingMemo | None) -> None:
        self.excluded_in = excluded_in
        self.respect = respect
        self.unlisted = unlisted
        self.memo = memo

    def files(self, path: str, absolute: str, ignores: _Ignores) -> Iterator[tuple[str, str, bool]]:
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
                stack.append(self._listing(child, child_abs, child_ignores))
            else:
                yield entry[1], entry[2], len(entry) == 3

    def _listing(self, path: str, absolute: str, ignores: _Ignores) -> Iterator[tuple]:
        """One directory's entries to keep, in name order: (True, path, absolute, ignores) for a directory,
        (False, path, absolute) for a regular source file, (False, path, target, True) for a symbolic link
        to one (target: its real path, `_unique`'s key). A
        directory that cannot be listed says so in `unlisted`."""
        if self.respect:
            own = _read_ignore_file(_join(absolute, GITIGNORE))
            if own is not None:
                ignores = (*ignores, (absolute, own))
        memo, stamp, context = self.memo, None, None
        if memo is not None:
            found = stamp_of(absolute)  # before the listing: a change after it shows in the next walk
            stamp = found[0] if found is not None and found[1] else None
            context = memo.context(absolute, ignores, self.respect) if stamp is not None else None
            kept = memo.get(absolute, stamp, context) if context is not None else None  # type: ignore[arg-type]
            if kept is not None:
                for name, is_dir in kept:
                    child_abs = _join(absolute, name)
                    if is_dir:
                        yield True, _join(path, name), child_abs, ignores
                    else:
                        yield False, _join(path, name), child_abs
                return
        try:
            entries = sorted(os.scandir(absolute), key=_NAME)
        except OSError as err:
            shown = os.path.normpath(path).replace(os.sep, "/")
            self.unlisted.append(f"{shown}: skipped: cannot list the directory: {err.strerror or err}")
            return
        kept_names: list[tuple[str, bool]] = []
        linked = False
        excluded = None  # this directory's test (`excluded_in`), asked for when an entry needs it
        rules = _ignore_rules(ignores, absolute) if ignores else None
        spelled = _join(path, "")  # (the directory's path with a separator after it, for its entries')
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
            if excluded(child_abs, is_dir, name) or (rules is not None and _gitignored(rules, name, is_dir)):
                continue
            if is_dir:
                kept_names.append((name, True))
                yield True, spelled + name, child_abs, ignores
            elif entry.is_symlink():
                linked = True
                if entry.is_file():
                    # `_unique`'s key: is_symlink answers from the listing, without an lstat per file
                    yield False, spelled + name, os.path.realpath(child_abs), True
            elif entry.is_file():
                kept_names.append((name, False))
                yield False, spelled + name, child_abs
        if memo is not None and stamp is not None and context is not None and not linked:
            memo.put(absolute, stamp, context, tuple(kept_names))


def read_source(path: Path) -> SourceFile:
    """Read and decode one module. Raises `FileError` when it cannot be read or decoded."""
    try:
        raw = read_bytes(path)
    except OSError as err:
        raise FileError(f"cannot read: {err.strerror or err}") from err
    return decode(path, raw)


def read_bytes(path: str | os.PathLike, limit: int | None = None) -> bytes:
    """The bytes of the file at `path`. Raises OSError (also for a file that is not a regular one:
    `not_regular`), and `TooLarge` (its size) when the file holds more than `limit` bytes (None: no limit),
    before reading it.

    One open, one fstat and one read (a second when the file grew since the fstat): half the CPU of
    `Path.read_bytes` plus an `os.stat` for the size, per file of a whole-tree run."""
    # O_NONBLOCK: opening a FIFO without a writer would wait forever; it is refused below (`not_regular`)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        not_regular(st.st_mode)
        size = st.st_size
        if limit is not None and size > limit:
            raise TooLarge(size)
        raw = os.read(fd, size + 1)  # one byte more: a file that grew since is read to its end below
        if len(raw) != size:
            chunks = [raw]
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
            raw = b"".join(chunks)
        return raw
    finally:
        os.close(fd)


_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def not_regular(mode: int) -> None:
    """Raise OSError ("not a regular file: a named pipe (FIFO)", ...) unless `mode` (an `os.stat` mode) is a
    regular file's: a FIFO, a device or a socket named on the command line is refused (SPMD901) instead of
    read, which could block forever or never end."""
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    raise OSError(errno.EINVAL, f"not a regular file: {kind}")


class TooLarge(Exception):
    """A file over the size limit `read_bytes` was given; `size` is its size in bytes."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def plain_ascii(raw: bytes) -> bool:
    """True when `decode` reads `raw` as ASCII text as it is (no byte over 0x7f, no PEP 263 cookie): the
    text is known without decoding it."""
    return raw.isascii() and no_cookie(raw)


def no_cookie(raw: bytes) -> bool:
    """True when the first two lines of `raw` hold no PEP 263 cookie: `decode` then reads the bytes as UTF-8
    (after a BOM or not), and they are its text when they decode so."""
    return b"coding" not in raw[: _end_of_second_line(raw)]


def text_of(path: str) -> str | None:
    """The decoded text of the module at `path` (absolute), as the project index read it: what a finding
    or a related place in that module points into. None when it cannot be read or decoded. Cached as
    `source_of` caches it."""
    found = source_of(path)
    return found.text if found is not None else None


def source_of(path: str) -> SourceFile | None:
    """The module at `path` read and decoded (`read_source`), or None when it cannot be; cached while the
    file's stat key (`stamps.stat_key`: size, mtime, ctime, inode, device) stays the same. A file whose key
    is not settled (changed within `stamps.RACY_NS`) is read again on every call: a rewrite in the same
    clock tick keeps the times, and a long-lived process (the language server) would otherwise go on
    analysing the old text."""
    try:
        key = stat_key(os.stat(path))
    except OSError:
        return None
    if not settled_now(key):
        return _read_source_or_none(path)
    return _source_of(path, key)


@functools.lru_cache(maxsize=64)
def _source_of(path: str, stat: tuple[int, int, int, int, int]) -> SourceFile | None:
    return _read_source_or_none(path)


def _read_source_or_none(path: str) -> SourceFile | None:
    try:
        return read_source(Path(path))
    except FileError:
        return None


def decode(path: Path, raw: bytes) -> SourceFile:
    """Decode module bytes by BOM / PEP 263 cookie (default UTF-8). Raises `FileError` on bad bytes."""
    if plain_ascii(raw):
        # What detect_encoding finds for these bytes (no BOM, no cookie: UTF-8), without its line reading.
        return SourceFile(path, raw.decode("ascii"), "utf-8", raw)
    if no_cookie(raw):
        # What detect_encoding finds without a cookie (UTF-8, "utf-8-sig" after a BOM), without its line
        # reading, for bytes that decode so (a third of a tree's modules are not ASCII); others go on below,
        # which words the error.
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            if raw.startswith(codecs.BOM_UTF8):
                return SourceFile(path, text[1:].removeprefix("\ufeff"), "utf-8-sig", raw)
            return SourceFile(path, text, "utf-8", raw)
    import tokenize  # (most modules are plain ASCII: a run over them does not import it)

    try:
        encoding, first_lines = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as err:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise FileError(_decode_message(raw, "utf-8", bad, declared=False)) from err
        raise FileError(f"cannot decode: {err}") from err
    declared = encoding != "utf-8" or any(_COOKIE.match(line) for line in first_lines)
    try:
        text = raw.decode(encoding)
    except LookupError as err:
        raise FileError(f"cannot decode: unknown encoding {encoding!r}") from err
    except UnicodeDecodeError as err:
        raise FileError(_decode_message(raw, encoding, err, declared)) from err
    if encoding == "utf-8-sig":
        text = text.removeprefix("\ufeff")
    return SourceFile(path, text, encoding, raw)


def _end_of_second_line(raw: bytes) -> int:
    """Where PEP 263's two cookie lines end (the whole text when it has fewer)."""
    second = raw.find(b"\n", raw.find(b"\n") + 1)
    return len(raw) if second < 0 or raw.find(b"\n") < 0 else second


def _decode_message(raw: bytes, encoding: str, err: UnicodeDecodeError, declared: bool) -> str:
    """Where the first undecodable byte is (1-based line and byte column) and what would help."""
    line = raw.count(b"\n", 0, err.start) + 1
    column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
    where = f"byte 0x{raw[err.start]:02x} at line {line}, column {column}"
    if declared:
        return f"cannot decode as {encoding}: {where} ({err.reason})"
    return f"cannot decode as utf-8: {where} is not UTF-8 and the file has no PEP 263 coding cookie"


def encode(source: SourceFile, text: str) -> bytes:
    """The bytes of `text` in the file's own encoding (a BOM kept when the file had one)."""
    return text.encode(source.encoding)


def write_source(source: SourceFile, text: str) -> bool:
    """Atomically replace the file's content with `text`; False when nothing changed.

    Raises `FileError` when the file is read-only, changed on disk since it was read, or the write fails;
    the file is then left as it was.
    """
    data = encode(source, text)
    if data == source.raw:
        return False
    target = Path(os.path.realpath(source.path))
    try:
        st = target.stat()
    except OSError as err:
        raise FileError(f"cannot write: {err.strerror or err}") from err
    if not os.access(target, os.W_OK) or not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise FileError("not written: the file is read-only")
    if target.read_bytes() != source.raw:
        raise FileError("not written: the file changed on disk since it was read")
    try:
        _replace_atomically(target, data, stat.S_IMODE(st.st_mode))
    except OSError as err:
        raise FileError(f"cannot write: {err.strerror or err}") from err
    return True


def _replace_atomically(target: Path, data: bytes, mode: int) -> None:
    """Write `data` to a temporary file beside `target`, flushed to disk with permission bits `mode`, then
    rename it over `target`: a reader sees the old bytes or the new ones, never a part. Raises OSError (the
    temporary file is removed, `target` left as it was)."""
    import tempfile  # only when writing

    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".spmdfix", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomically(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` whole or not at all, creating its directory; a file already there is
    replaced (a report, not a source file: no check that it is unchanged). Raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _replace_atomically(path, text.encode("utf-8"), 0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
