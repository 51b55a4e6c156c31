"""`.gitignore` rules as discovery applies them: one ignore file's patterns (`IgnoreFile`, a quick test of
regular expressions in front of pathspec's `GitIgnoreSpec`), the ignore files that apply to a directory from
above it (`outer_gitignores`) and the decision for one entry (`ignored_by`), and `gitignored` for a file
handed over alone.

An ignore file is read when first asked (a walk whose listings the results cache serves never reads it);
its stamp, taken before the read, is what the cache's `discovery.ListingMemo` keys a directory's listing by.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix.dir_entries import absent
from spmdfix.stamps import Stamp, stamp_of

if TYPE_CHECKING:
    import pathspec

GITIGNORE = ".gitignore"


def join_entry(directory: str, name: str) -> str:
    """`os.path.join` of a directory and an entry name (a tenth of its cost)."""
    return directory + name if directory.endswith(os.sep) else directory + os.sep + name


class IgnoreFile:
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
Ignores = tuple[tuple[str, IgnoreFile], ...]  # (absolute directory, its ignore file's patterns)


def read_ignore_file(path: str) -> IgnoreFile | None:
    """The ignore file at `path` (read when first asked), or None when there is no regular file there (or
    this run's walk saw none in its directory: `dir_entries.absent`)."""
    directory, name = os.path.split(path)
    if absent(directory, name) or not os.access(path, os.F_OK):
        return None  # most directories have none: asked without raising (a failed stat's exception costs more)
    found = stamp_of(path)
    if found is None or found[1]:
        return None
    return IgnoreFile(path=path, stamp=found[0])


def outer_gitignores(root: Path) -> Ignores:
    """Ignore files that apply to `root` from above: its ancestors' up to the git work tree's root."""
    absolute = Path(os.path.abspath(root))
    chain = [absolute, *absolute.parents]
    top = next((d for d in chain if (d / ".git").exists()), None)
    if top is None:
        return ()
    out: list[tuple[str, IgnoreFile]] = []
    info = read_ignore_file(str(top / ".git" / "info" / "exclude")) if (top / ".git").is_dir() else None
    if info is not None:
        out.append((str(top), info))
    for directory in reversed(chain[1 : chain.index(top) + 1]):
        spec = read_ignore_file(str(directory / GITIGNORE))
        if spec is not None:
            out.append((str(directory), spec))
    return tuple(out)


def ignore_rules(ignores: Ignores, absolute: str) -> list[tuple[str, IgnoreFile]]:
    """The ignore files that apply to the entries of the absolute directory `absolute`, deepest first, each
    with the directory's path relative to the ignore file's (`/`-separated, with a `/` after it; empty for
    the directory's own): an entry's path relative to it is that and the entry's name (`ignored_by`)."""
    rules = []
    for directory, ignore_file in reversed(ignores):
        rel = absolute[len(directory) :].lstrip(os.sep).replace(os.sep, "/")
        rules.append((rel + "/" if rel else "", ignore_file))
    return rules


def ignored_by(rules: list[tuple[str, IgnoreFile]], name: str, is_dir: bool) -> bool:
    """The decision of the deepest ignore file with a pattern matching the entry `name` of the directory
    whose `ignore_rules` are `rules` (False without one)."""
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
    ignores = outer_gitignores(top)  # (`.git/info/exclude`; nothing above the work tree's root applies)
    directory = str(top)
    names = Path(absolute).relative_to(top).parts
    for depth, name in enumerate(names):
        own = read_ignore_file(join_entry(directory, GITIGNORE))
        if own is not None:
            ignores = (*ignores, (directory, own))
        is_dir = depth < len(names) - 1
        if (is_dir and name == ".git") or ignored_by(ignore_rules(ignores, directory), name, is_dir):
            return True
        directory = join_entry(directory, name)
    return False
