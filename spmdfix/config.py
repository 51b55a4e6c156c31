"""Configuration: `[tool.spmdfix]` in pyproject.toml or a standalone spmdfix.toml, resolved per directory.

The configuration of a file is the one closest to it: walking up from the file's directory, the first
directory with a `spmdfix.toml` (top-level keys) or a `pyproject.toml` that has a `[tool.spmdfix]` table wins
(spmdfix.toml over pyproject.toml in the same directory); there is no merging between files, as in ruff.
Without any, the defaults apply. Command-line flags override what a file says (`overrides.Overrides`).

The pieces: `spmdfix.settings` (the resolved `Settings`, with the rule selection layers), `spmdfix.settings_keys`
(the keys a file may set, each checked), `spmdfix.globs` (ruff's globs) and `spmdfix.overrides` (the flags and
`--config`). This module finds and reads the files (each parsed once while unchanged; the pyproject.toml files
without a table remembered across runs: `TableMemo`) and resolves the settings of each directory (`Resolver`).
Every problem in a file raises `ConfigError` (`spmdfix.settings`), which names the file and the key.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

from spmdfix.dir_entries import absent
from spmdfix.overrides import Overrides
from spmdfix.settings import ConfigError, Settings, absolute, absolute_text
from spmdfix.settings_keys import validate
from spmdfix.stamps import Stamp, settled, settled_now, stamp_of, stat_key

CONFIG_NAME = "spmdfix.toml"
PYPROJECT = "pyproject.toml"


def _read_toml(path: Path) -> dict[str, Any]:
    """The TOML table of the file at `path`, parsed once while its stat key (`stamps.stat_key`: size, times,
    inode, device) stays the same: a process that lives on (`check --watch`, the language server, tests)
    reads an edited file again. A key that is not settled (changed within `stamps.RACY_NS`: a rewrite in the
    same clock tick keeps it) is parsed again on every call, as `files.source_of` reads a module."""
    try:
        key: tuple[int, ...] | None = stat_key(os.stat(path))
    except OSError:
        key = None
    if key is not None and not settled_now(key):  # type: ignore[arg-type]
        return _parsed_toml.__wrapped__(path, key)
    return _parsed_toml(path, key)


@functools.lru_cache(maxsize=256)
def _parsed_toml(path: Path, stamp: tuple[int, ...] | None) -> dict[str, Any]:
    import tomllib  # (a warm run parses no file: `TableMemo`)

    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: invalid TOML: {err}") from err
    except OSError as err:
        raise ConfigError(f"{path}: cannot read: {err.strerror or err}") from err


def _table(path: Path) -> dict[str, Any] | None:
    """The spmdfix table of a config file, or None for a pyproject.toml without `[tool.spmdfix]`."""
    data = _read_toml(path)
    if path.name != PYPROJECT:
        return data
    tool = data.get("tool", {})
    table = tool.get("spmdfix") if isinstance(tool, dict) else None
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: `tool.spmdfix` must be a table")
    return table


def config_in(directory: Path) -> Path | None:
    """The config file of `directory` itself (spmdfix.toml, else a pyproject.toml with [tool.spmdfix])."""
    own = directory / CONFIG_NAME
    if own.is_file():
        return own
    pyproject = directory / PYPROJECT
    if pyproject.is_file() and _table(pyproject) is not None:
        return pyproject
    return None


def _config_in(directory: str, memo: TableMemo | None = None) -> Path | None:
    """`config_in` of an absolute directory given as a string; `memo`: the pyproject.toml files earlier
    runs found without a `[tool.spmdfix]` table, which are not parsed again while unchanged."""
    # `os.access` answers for a missing file without raising (most directories hold neither file, and the
    # exception of a failed stat cost more than the stat: a walk asks about every directory)
    # (`dir_entries.absent`: this run's walk saw the directory without the file, no system call needed)
    own = os.path.join(directory, CONFIG_NAME)
    if not absent(directory, CONFIG_NAME) and os.access(own, os.F_OK) and os.path.isfile(own):
        return Path(own)
    pyproject = os.path.join(directory, PYPROJECT)
    if absent(directory, PYPROJECT) or not os.access(pyproject, os.F_OK):
        return None
    if memo is None:
        if os.path.isfile(pyproject) and _table(Path(pyproject)) is not None:
            return Path(pyproject)
        return None
    stamp = memo.stamp(pyproject)
    if stamp is None or memo.known.get(pyproject) == stamp[0]:
        return None  # no regular file there, or one unchanged since a run parsed it and found no table
    if _table(Path(pyproject)) is not None:
        return Path(pyproject)
    memo.put(pyproject, stamp)
    return None


class TableMemo:
    """The pyproject.toml files that earlier runs parsed and found without a `[tool.spmdfix]` table (most
    of a tree's: a walk asks about every directory's, and parsing them with tomllib was a tenth of a warm
    run), each with its stat key (`stamps.stat_key`: size, mtime, ctime, inode, device) from before the
    parse: a file whose stat is unchanged is not parsed again (any write changes its ctime). A stamp that is
    not settled (`stamps.settled`: a change in the same clock tick keeps the times) is not recorded, nor is
    a file that could not be parsed (its error is raised on every run). `known`: path -> stat key, as loaded
    (plain data, only compared); `changed`: this run's new records, for the caller to save (the results
    cache keeps them beside its directory listings)."""

    def __init__(self, known: dict) -> None:
        self.known = known
        self.changed: dict[str, tuple[int, int, int, int, int]] = {}

    @staticmethod
    def stamp(path: str) -> Stamp | None:
        """The stamp of a regular file (`stamps.stamp_of`: its stat key and the time just before it was
        taken); None for no such file."""
        found = stamp_of(path)
        return found[0] if found is not None and not found[1] else None

    def put(self, path: str, stamp: Stamp) -> None:
        """Record that the file at `path`, as `stamp` shows it, has no table (when settled)."""
        if settled(*stamp):
            self.changed[path] = stamp[0]


def find_config(start: Path, known: dict[Path, Path | None] | None = None) -> Path | None:
    """The config file closest to `start` (a file or directory), walking up to the filesystem root.

    `known` (absolute directory -> its config file) shortens the walk when given, and is filled with the
    directories walked: a `Resolver` shares one between all the directories it is asked about."""
    start = absolute(start)
    directory = start if start.is_dir() else start.parent
    known = {} if known is None else known
    walked: list[Path] = []
    found: Path | None = None
    for candidate in (directory, *directory.parents):
        if candidate in known:
            found = known[candidate]
            break
        walked.append(candidate)
        found = config_in(candidate)
        if found is not None:
            break
    for seen in walked:  # each lies below `found`'s directory (or holds it): the file is theirs too
        known[seen] = found
    return found


def load_settings(path: Path) -> Settings:
    """The settings a config file gives. Raises `ConfigError` naming the file and the key."""
    path = absolute(path)
    table = _table(path)
    if table is None:
        raise ConfigError(f"{path}: no [tool.spmdfix] table")
    where = "[tool.spmdfix]" if path.name == PYPROJECT else "the file"
    return Settings(source=path, **validate(table, str(path), f"key in {where}", path.parent))


# --- resolution ---------------------------------------------------------------------------------------


class Resolver:
    """Settings per directory: the closest config file (or `config_file` for all), then the flags.

    Caches by directory and by config file. Raises `ConfigError` from `for_path` for a bad file.
    """

    def __init__(self, overrides: Overrides = Overrides(), config_file: Path | None = None, cwd: Path | None = None):
        self.overrides = overrides
        self.cwd = absolute(cwd or Path.cwd())
        self.config_file = absolute(config_file) if config_file else None
        self._by_file: dict[Path | None, Settings] = {}
        self._by_dir: dict[str, Settings] = {}
        self._config_by_dir: dict[str, Path | None] = {}  # absolute directory -> its closest config file
        self.tables: TableMemo | None = None  # set by a caller with a results cache, before any question

    def for_dir(self, directory: str | Path) -> Settings:
        """Settings of the files directly inside `directory` (cached by its absolute path, as a string:
        discovery asks for every entry it walks)."""
        key = absolute_text(directory)
        cached = self._by_dir.get(key)
        if cached is None:
            source = self.config_file or self._closest_config(key)
            cached = self._by_file.get(source)
            if cached is None:
                base = load_settings(source) if source else Settings()
                cached = self._by_file[source] = self.overrides.apply(base, self.cwd)
            self._by_dir[key] = cached
        return cached

    def _closest_config(self, directory: str) -> Path | None:
        """`find_config` of an absolute directory, with strings (discovery asks for every directory it
        walks, and pathlib cost more than the stats) and a memo shared by every directory asked about."""
        walked: list[str] = []
        found: Path | None = None
        current = directory
        while True:
            if current in self._config_by_dir:
                found = self._config_by_dir[current]
                break
            walked.append(current)
            found = _config_in(current, self.tables)
            parent = os.path.dirname(current)
            if found is not None or parent == current:
                break
            current = parent
        for seen in walked:  # each lies below `found`'s directory (or holds it): the file is theirs too
            self._config_by_dir[seen] = found
        return found

    def for_path(self, path: Path) -> Settings:
        """Settings of a file (its directory's) or of a directory."""
        path = absolute(path)
        return self.for_dir(path if path.is_dir() else path.parent)

    def for_file(self, path: str | Path) -> Settings:
        """Settings of a file known to be one (`for_path` without its stat)."""
        return self.for_dir(os.path.dirname(absolute_text(path)))
