"""Globs as ruff reads them, for `exclude`, `extend-exclude` and `per-file-ignores`.

A pattern without `/` matches a file or directory name at any depth; a pattern with `/` is anchored at the
directory of the file that defines it (made absolute when loaded: `anchor`; `--exclude` patterns at the working
directory) and matches gitignore-style (pathspec's gitwildmatch). A `!` in front negates a pattern.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix.perf import record

if TYPE_CHECKING:
    import pathspec

_GLOB_ESCAPE = re.compile(r"([\\\[\]*?])")  # what gitwildmatch reads as glob syntax inside a path
_GLOB_SYNTAX = frozenset("*?[]!#\\")  # what makes a name pattern more than a name (`#`: a comment)


# eq=False, repr=False: nothing compares, hashes or prints this record, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@record(frozen=True)
class _Specs:
    """`patterns` split for matching: plain names compare by equality (files and directories, or
    directories only for `name/`), the other name globs and the anchored globs go to pathspec."""

    files: frozenset[str]
    dirs: frozenset[str]
    names: pathspec.PathSpec | None
    anchored: pathspec.PathSpec | None


@functools.lru_cache(maxsize=256)
def _specs(patterns: tuple[str, ...]) -> _Specs:
    names = [p for p in patterns if "/" not in p.rstrip("/")]
    anchored = [_rooted(p) for p in patterns if "/" in p.rstrip("/")]
    files, dirs = set(), set()
    # With a negation, gitignore's "last match wins" needs every pattern in order: all go to pathspec then.
    if not any(p.startswith("!") for p in names):
        plain = [p for p in names if not _GLOB_SYNTAX & set(p) and p.strip() == p and p.rstrip("/")]
        names = [p for p in names if p not in plain]
        dirs = {p.rstrip("/") for p in plain}
        files = {p for p in plain if not p.endswith("/")}
    if names or anchored:
        import pathspec  # 25 ms of imports: only when there are globs to match
    return _Specs(
        frozenset(files),
        frozenset(dirs),
        pathspec.GitIgnoreSpec.from_lines(names) if names else None,
        pathspec.GitIgnoreSpec.from_lines(anchored) if anchored else None,
    )


def _rooted(pattern: str) -> str:
    """An anchored pattern as matched against a path without its leading `/` (a `!` stays in front)."""
    negated = pattern.startswith("!")
    return ("!" if negated else "") + "/" + pattern.removeprefix("!").lstrip("/")


def glob_matches(patterns: tuple[str, ...], path: str | Path, is_dir: bool) -> bool:
    """True when the absolute `path` matches one of `patterns` (ruff's meaning, see the module doc).

    Strings are welcome: discovery asks for every entry it walks, and pathlib costs more than the match."""
    if not patterns:
        return False
    return glob_matcher(patterns)(os.fspath(path), is_dir)


@functools.lru_cache(maxsize=256)
def glob_matcher(patterns: tuple[str, ...]) -> Callable[..., bool]:
    """`glob_matches` of `patterns` as a function of (absolute path as a string, is_dir, and optionally the
    path's last component when the caller knows it: a walk does), with the patterns' split (`_specs`)
    looked up once: a caller asking about many paths under the same patterns (discovery, for every entry
    it walks) spares a hash of the patterns per path."""
    if not patterns:
        return _never
    specs = _specs(patterns)
    files, dirs, names, anchored = specs.files, specs.dirs, specs.names, specs.anchored
    basename = os.path.basename

    def matches(path: str, is_dir: bool, name: str | None = None) -> bool:
        if name is None:
            name = basename(path)
        if name in (dirs if is_dir else files):
            return True
        slash = "/" if is_dir else ""
        if names is not None and names.match_file(name + slash):
            return True
        if anchored is None:
            return False
        posix = path if os.sep == "/" else path.replace(os.sep, "/")
        return anchored.match_file(posix.lstrip("/") + slash)

    return matches


def _never(path: str, is_dir: bool, name: str | None = None) -> bool:
    return False


def anchor(pattern: str, base: Path) -> str:
    """A glob as stored: name patterns unchanged, patterns with a `/` made absolute at `base`."""
    negated = pattern.startswith("!")
    body = pattern[1:] if negated else pattern
    if "/" in body.rstrip("/") and not Path(body).is_absolute():
        relative = body.removeprefix("./")
        if ".." in Path(relative).parts:  # normalised away: the base's own characters are not escaped then
            joined = Path(os.path.abspath(base / relative)).as_posix()
        else:  # the base directory is a literal path: `proj[v2]/` must not read as a character class
            literal_base = _GLOB_ESCAPE.sub(r"\\\1", Path(os.path.abspath(base)).as_posix()).rstrip("/")
            joined = literal_base + "/" + relative.rstrip("/")
        body = joined + ("/" if body.endswith("/") else "")
    return ("!" if negated else "") + body
