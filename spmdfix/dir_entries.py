"""Which of the names that settings, ignore files and project roots are looked up by each directory a run's
walk listed holds, so that those lookups make no system call for a name the directory does not hold.

A walk (`discovery`) lists every directory of the run, or serves the listing an earlier run kept while the
directory's stamp is unchanged (`discovery.ListingMemo`, which keeps these names with it): it notes here
which of `WATCHED` each directory holds. The settings' search (`config`: `spmdfix.toml` and `pyproject.toml`
in each directory and its ancestors), the ignore files (`gitignore`: `.gitignore`) and the project roots'
markers (`files`: `pyproject.toml`, `setup.cfg`, `.git`) then ask `absent` first: a warm check of the
benchmark corpus made 2,249 `access` calls (2,223 of them for a missing file) and 1,161 marker `stat`s, for
names its walk had just seen missing.

Only absence is answered: a name the directory holds is looked up as before (a regular file? a link to
nothing?). Names are compared case-folded, so that on a case-insensitive file system a `PyProject.toml`
counts as holding `pyproject.toml`. Two more facts come with a listing: the directory is one (the results
cache's project-root lookups ask, `listed`), and, for a directory the walk entered from its parent's listing
(it never follows a symbolic link to a directory), it is no symbolic link (the real path's search asks,
`not_a_link`). The facts live for one run of a command that walks (`noting`, entered
by the CLI around its run): a long-lived process (the language server, `check --watch`, a library user)
never answers from what an earlier run saw.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator

# The names asked about (`config.CONFIG_NAME`, `config.PYPROJECT`, `gitignore.GITIGNORE`,
# `files.PROJECT_MARKERS`; tests/test_dir_entries.py checks the list), case-folded.
WATCHED = frozenset(name.casefold() for name in ("spmdfix.toml", "pyproject.toml", ".gitignore", "setup.cfg", ".git"))

_SEEN: dict[str, frozenset[str]] = {}  # absolute directory -> the WATCHED names it holds, while noting
_ENTERED: set[str] = set()  # the directories of `_SEEN` a walk entered as an entry of their parent
_NOTING: list[bool] = []  # non-empty inside `noting`


@contextlib.contextmanager
def noting() -> Iterator[None]:
    """Note what walks see (`note`) and answer `absent` from it inside the block; forget it all after."""
    _NOTING.append(True)
    try:
        yield
    finally:
        _NOTING.pop()
        if not _NOTING:
            _SEEN.clear()
            _ENTERED.clear()


def watched_in(names: Iterable[str]) -> frozenset[str]:
    """The `WATCHED` names among a directory's entry names, case-folded."""
    return WATCHED.intersection(name.casefold() for name in names)


def note(directory: str, held: frozenset[str], entered: bool = False) -> None:
    """Record that the absolute, normal `directory` was just listed (or its kept listing proven current) and
    holds exactly the `WATCHED` names `held` (`watched_in`); `entered`: the walk came to it as an entry of its
    parent's listing that is a directory and no symbolic link. Nothing is recorded outside `noting`."""
    if _NOTING:
        _SEEN[directory] = held
        if entered:
            _ENTERED.add(directory)


def listed(directory: str) -> bool:
    """Whether this run's walk listed the absolute, normal `directory` (so it is a directory)."""
    return directory in _SEEN


def not_a_link(directory: str) -> bool:
    """Whether this run's walk entered the absolute, normal `directory` from its parent's listing, where it was
    a directory and no symbolic link. False when that is not known (the path a walk starts from may be one)."""
    return directory in _ENTERED


def absent(directory: str, name: str) -> bool:
    """Whether this run's walk saw that the absolute, normal `directory` holds no entry `name` (case-folded).
    False when that is not known: no walk of this run listed the directory, `name` is not watched, or the
    run is not `noting`."""
    held = _SEEN.get(directory)
    if held is None:
        return False
    folded = name.casefold()
    return folded in WATCHED and folded not in held


__all__ = ["WATCHED", "absent", "listed", "not_a_link", "note", "noting", "watched_in"]
