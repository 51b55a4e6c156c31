"""Configuration: `[tool.spmdfix]` in pyproject.toml or a standalone spmdfix.toml, resolved per directory.

The configuration of a file is the one closest to it: walking up from the file's directory, the first
directory with a `spmdfix.toml` (top-level keys) or a `pyproject.toml` that has a `[tool.spmdfix]` table wins
(spmdfix.toml over pyproject.toml in the same directory); there is no merging between files, as in ruff.
Without any, the defaults apply. Command-line flags override what a file says (`Overrides`).

Keys (kebab-case, as ruff spells them):

    strategy = "auto"                # auto | rename | add-axis | strip
    new-axis = "batch"               # the mesh axis add-axis adds
    select = ["SPMD"]                # rule codes or prefixes ("ALL" selects every rule)
    extend-select = []               # added to select
    ignore = []                      # codes or prefixes; the more specific of select/ignore wins, ignore on ties
    extend-ignore = []               # added to ignore (ruff's older spelling)
    per-file-ignores = { "tests/*" = ["SPMD002"] }   # glob -> codes; a leading "!" negates the glob
    fixable = ["ALL"]                # rules whose fixes are offered and applied
    extend-fixable = []              # added to fixable
    unfixable = []                   # rules whose fixes are never offered (the finding is still reported)
    exclude = [...]                  # replaces the default excludes
    extend-exclude = []              # added to them
    unsafe-fixes = false
    target-jax-version = "0.10.2"    # default: the installed jax, else the newest known
    project-root = "."               # where imports of other modules are followed from (relative to the
                                     # file that says it); default: the nearest directory above each file
                                     # holding pyproject.toml, setup.cfg or .git
    docs-url = "https://..."         # base of the rule links in reports (`spmdfix.links`); default: none

Rule selection is resolved in layers, as ruff resolves it (`RuleSelection`): the configuration file's, then
each `--config KEY=VALUE`'s, then the flags'. A layer that gives `select` starts afresh; otherwise it changes
only the codes its selectors name. `per-file-ignores` then removes what its globs ignore, whatever selected it.
`fixable` / `extend-fixable` / `unfixable` are resolved the same way, from `fixable = ["ALL"]`.

`--config` takes a configuration file, or (when no such file exists) an inline TOML `KEY = VALUE` that
overrides the configuration files (`config_options`).

Globs follow ruff: a pattern without `/` matches a file or directory name at any depth; a pattern with `/`
is anchored at the directory of the file that defines it (made absolute when loaded; `--exclude` patterns
at the working directory) and matches gitignore-style (pathspec's gitwildmatch).

`target-jax-version` is stored in the resolved settings (None until set: `Settings.jax_version()` then asks
the installed jax, so a run that never needs it never imports importlib.metadata).
Every problem in a file raises `ConfigError`, which names the file and the key.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spmdfix.model import AUTO, DEFAULT_NEW_AXIS, STRATEGIES, Strategy, strategy_of
from spmdfix.rules import RULES
from spmdfix.stamps import Stamp, settled, settled_now, stamp_of, stat_key

if TYPE_CHECKING:
    import pathspec

CONFIG_NAME = "spmdfix.toml"
PYPROJECT = "pyproject.toml"
NEWEST_KNOWN_JAX = "0.10.2"
DEFAULT_EXCLUDE: tuple[str, ...] = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".git-rewrite",
    ".hg",
    ".ipynb_checkpoints",
    ".mypy_cache",
    ".nox",
    ".pants.d",
    ".pyenv",
    ".pytest_cache",
    ".pytype",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    ".vscode",
    "__pycache__",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)
# Compiled where first used (`re`'s cache): only a configuration that sets these keys asks.
_VERSION = r"\d+(\.\d+){0,2}"
_IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"


class ConfigError(Exception):
    """A configuration file (or flag) that cannot be used; the message names the file and the key."""


@functools.lru_cache(maxsize=1)
def installed_jax_version() -> str:
    """The installed jax's version (importlib.metadata), else the newest version spmdfix knows."""
    import importlib.metadata  # 30 ms of imports: only when a version is asked for

    try:
        return importlib.metadata.version("jax")
    except importlib.metadata.PackageNotFoundError:
        return NEWEST_KNOWN_JAX


@dataclass(frozen=True, slots=True)
class Settings:
    """Resolved settings of one directory. Glob patterns with a `/` are absolute (see the module doc).

    source: the file the settings come from (None: defaults). per_file_ignores: (glob, codes) pairs.
    """

    strategy: Strategy = AUTO
    new_axis: str = DEFAULT_NEW_AXIS
    select: tuple[str, ...] = ("SPMD",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    fixable: tuple[str, ...] = ("ALL",)
    extend_fixable: tuple[str, ...] = ()
    unfixable: tuple[str, ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    target_jax_version: str | None = None  # None: the installed jax's (`jax_version`)
    project_root: Path | None = None  # None: found above each file (`files.find_project_root`)
    docs_url: str | None = None  # the base of the rule links (`links.rule_url`); None: `links.docs_base`'s
    source: Path | None = None
    # The rule selections after the file's own (`--config KEY=VALUE`'s, then the flags'), in order.
    layers: tuple[RuleSelection, ...] = ()

    def jax_version(self) -> str:
        """`target_jax_version`, else the installed jax's version, else the newest version spmdfix knows."""
        return self.target_jax_version or installed_jax_version()

    @property
    def own_layer(self) -> RuleSelection:
        """The rule selection the settings file itself gives (`select` is always given: its default)."""
        return RuleSelection(
            self.select,
            self.extend_select,
            self.ignore + self.extend_ignore,
            self.fixable,
            self.extend_fixable,
            self.unfixable,
        )

    def selected_codes(self) -> frozenset[str]:
        """The rule codes every layer's selection leaves enabled (before `per-file-ignores`)."""
        return _resolve(tuple(layer.rules() for layer in (self.own_layer, *self.layers)))

    def enabled_codes(self, path: str | Path) -> frozenset[str]:
        """The rule codes reported for `path`: selected (`selected_codes`), less what `per-file-ignores`
        ignores for that file (whatever selected it, as ruff's per-file ignores do)."""
        selected = self.selected_codes()
        for pattern, codes in self.per_file_ignores:
            negated = pattern.startswith("!")
            if glob_matches((pattern[1:] if negated else pattern,), _abs(path), is_dir=False) != negated:
                selected = selected - _matched(codes)
        return selected

    def fixable_codes(self) -> frozenset[str]:
        """The rule codes whose fixes are offered and applied (`fixable`, `extend-fixable`, `unfixable`)."""
        return _resolve(tuple(layer.fixes() for layer in (self.own_layer, *self.layers)))

    def excludes(self, path: str | Path, is_dir: bool) -> bool:
        """True when `path` (a file or directory) matches `exclude` or `extend-exclude`."""
        return glob_matches(self.exclude + self.extend_exclude, _abs(path), is_dir)


@dataclass(frozen=True, slots=True)
class RuleSelection:
    """One layer of rule selection: a settings file's, a `--config KEY=VALUE`'s, the flags' (ruff's
    `RuleSelection`). `select` (None: not given) starts the layer afresh, `extend_select` adds, `ignore`
    removes; within a layer the most specific selector decides a code, `ignore` on ties; a code no selector
    of the layer names keeps what the layers before gave it (nothing when `select` is given). `fixable`,
    `extend_fixable` and `unfixable` say the same of the rules whose fixes are offered."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fixable: tuple[str, ...] | None = None
    extend_fixable: tuple[str, ...] = ()
    unfixable: tuple[str, ...] = ()

    def rules(self) -> tuple[tuple[str, ...] | None, tuple[str, ...], tuple[str, ...]]:
        return (self.select, self.extend_select, self.ignore)

    def fixes(self) -> tuple[tuple[str, ...] | None, tuple[str, ...], tuple[str, ...]]:
        return (self.fixable, self.extend_fixable, self.unfixable)

    def __bool__(self) -> bool:
        """False for a layer that says nothing (flags that were not given)."""
        return self != _NOTHING


# Settings fields that make a rule selection layer (`RuleSelection`) rather than replace a value.
_RULE_FIELDS = ("select", "extend_select", "ignore", "extend_ignore", "fixable", "extend_fixable", "unfixable")


@dataclass(frozen=True, slots=True)
class Overrides:
    """What the command line sets: `inline`, the `--config KEY=VALUE` pairs (`config_options`: (the text
    given, key, value)), applied over the configuration file; then the flags. None (or empty) leaves the
    configured value. Patterns are anchored at `cwd`.

    The rule keys of each (`select`, `extend-select`, `ignore`, `extend-ignore`, `fixable`,
    `extend-fixable`, `unfixable`) make one more `RuleSelection` layer, as ruff's command line does:
    `--select` starts afresh, `--extend-select` adds, `--ignore` and `--extend-ignore` remove (on top of
    the configuration's `ignore`). `per_file_ignores` replaces the configured ones, `extend_per_file_ignores`
    adds to them; `extend_exclude` adds.
    """

    strategy: str | None = None
    new_axis: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    unsafe_fixes: bool | None = None
    target_jax_version: str | None = None
    project_root: str | None = None
    extend_select: tuple[str, ...] = ()
    extend_ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    extend_per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    fixable: tuple[str, ...] | None = None
    extend_fixable: tuple[str, ...] = ()
    unfixable: tuple[str, ...] = ()
    docs_url: str | None = None
    inline: tuple[tuple[str, str, Any], ...] = ()

    def apply(self, settings: Settings, cwd: Path) -> Settings:
        """`settings` with every `--config KEY=VALUE` and then every set flag applied. Raises `ConfigError`
        for a bad value."""
        for given, key, value in self.inline:
            settings = _override(settings, _validate({key: value}, f"--config {given!r}", "key", cwd))
        raw: dict[str, Any] = {}
        for key in (
            "strategy",
            "new_axis",
            "select",
            "ignore",
            "exclude",
            "unsafe_fixes",
            "target_jax_version",
            "project_root",
            "fixable",
            "docs_url",
        ):
            value = getattr(self, key)
            if value is not None:
                raw[key.replace("_", "-")] = list(value) if isinstance(value, tuple) else value
        for key in ("extend_exclude", "extend_select", "extend_ignore", "extend_fixable", "unfixable"):
            if getattr(self, key):
                raw[key.replace("_", "-")] = list(getattr(self, key))
        if self.per_file_ignores is not None:
            raw["per-file-ignores"] = {glob: list(codes) for glob, codes in self.per_file_ignores}
        changes = _validate(raw, "command line", "option", cwd)
        if "extend_exclude" in changes:
            changes["extend_exclude"] = settings.extend_exclude + changes["extend_exclude"]
        if self.extend_per_file_ignores:
            extra = {glob: list(codes) for glob, codes in self.extend_per_file_ignores}
            added = _validate({"per-file-ignores": extra}, "command line", "option", cwd)["per_file_ignores"]
            changes["per_file_ignores"] = changes.get("per_file_ignores", settings.per_file_ignores) + added
        return _override(settings, changes)


def _override(settings: Settings, changes: dict[str, Any]) -> Settings:
    """`settings` with validated `changes`: the rule keys among them as one more `RuleSelection` layer
    (when any is given), the others replacing the values."""
    rules = {key: changes.pop(key) for key in _RULE_FIELDS if key in changes}
    if rules:
        layer = RuleSelection(
            rules.get("select"),
            rules.get("extend_select", ()),
            rules.get("ignore", ()) + rules.get("extend_ignore", ()),
            rules.get("fixable"),
            rules.get("extend_fixable", ()),
            rules.get("unfixable", ()),
        )
        changes["layers"] = settings.layers + (layer,)
    return dataclasses.replace(settings, **changes)


def config_options(values: Iterable[str]) -> tuple[Path | None, tuple[tuple[str, str, Any], ...]]:
    """`--config` values as ruff reads them: a path to a configuration file when such a file exists, else
    an inline TOML `KEY = VALUE` overriding the configuration files (any key of the settings files, such as
    `--config 'select = ["SPMD001"]'`). Returns (the file, or None; the (text, key, value) of each inline
    pair, in order). Raises `ConfigError` for a value that is neither, for a second file, and for a bad
    key (its value is checked when applied, `Overrides.apply`)."""
    import tomllib

    path: Path | None = None
    inline: list[tuple[str, str, Any]] = []
    for value in values:
        if os.path.isfile(value):
            if path is not None:
                raise ConfigError(f"--config {value!r}: only one configuration file can be given (also {str(path)!r})")
            path = Path(value)
            continue
        try:
            table = tomllib.loads(value)
        except tomllib.TOMLDecodeError as err:
            looks_like_a_path = "=" not in value
            why = "no such file" if looks_like_a_path else f"not a TOML `KEY = VALUE` pair ({err})"
            raise ConfigError(
                f"--config {value!r}: {why}; --config takes a configuration file (spmdfix.toml, pyproject.toml)"
                " or a TOML `KEY = VALUE` pair such as 'select = [\"SPMD001\"]'"
            ) from err
        for key, item in table.items():
            if key not in KEYS:  # (a known key's value is checked where it is applied, `Overrides.apply`)
                _validate({key: item}, f"--config {value!r}", "key", Path("."))  # raises: unknown key
            inline.append((value, key, item))
    return path, tuple(inline)


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


def _abs(path: str | Path) -> str:
    """The absolute path as a string; one already absolute (as discovery passes them) is taken as it is."""
    if isinstance(path, str) and os.path.isabs(path):
        return path
    return os.path.abspath(path)


_NOTHING = RuleSelection()


@functools.lru_cache(maxsize=64)
def _matched(selectors: tuple[str, ...]) -> frozenset[str]:
    """The codes some selector (a code, a prefix or "ALL") names."""
    return frozenset(code for code in RULES if _specificity(code, selectors) >= 0)


@functools.lru_cache(maxsize=64)
def _resolve(layers: tuple[tuple[tuple[str, ...] | None, tuple[str, ...], tuple[str, ...]], ...]) -> frozenset[str]:
    """The codes that (select, extend-select, ignore) layers leave on (`RuleSelection`'s doc), starting from
    none: every settings file's layer gives its `select` (the default, when the file says nothing)."""
    on: frozenset[str] = frozenset()
    for select, extend, ignore in layers:
        chosen = (*(select or ()), *extend)
        carried = on if select is None else frozenset()
        on = frozenset(
            code
            for code in RULES
            if (_specificity(code, chosen) > _specificity(code, ignore))
            or (code in carried and _specificity(code, chosen) < 0 and _specificity(code, ignore) < 0)
        )
    return on


def _specificity(code: str, selectors: tuple[str, ...]) -> int:
    best = -1
    for sel in selectors:
        if sel == "ALL":
            best = max(best, 0)
        elif code.startswith(sel):
            best = max(best, len(sel))
    return best


_GLOB_ESCAPE = re.compile(r"([\\\[\]*?])")  # what gitwildmatch reads as glob syntax inside a path
_GLOB_SYNTAX = frozenset("*?[]!#\\")  # what makes a name pattern more than a name (`#`: a comment)


# eq=False, repr=False: nothing compares, hashes or prints this record, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@dataclass(frozen=True, slots=True, eq=False, repr=False)
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


# --- reading files ------------------------------------------------------------------------------------


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
    own = os.path.join(directory, CONFIG_NAME)
    if os.access(own, os.F_OK) and os.path.isfile(own):
        return Path(own)
    pyproject = os.path.join(directory, PYPROJECT)
    if not os.access(pyproject, os.F_OK):
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
    start = _absolute(start)
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
    path = _absolute(path)
    table = _table(path)
    if table is None:
        raise ConfigError(f"{path}: no [tool.spmdfix] table")
    where = "[tool.spmdfix]" if path.name == PYPROJECT else "the file"
    return Settings(source=path, **_validate(table, str(path), f"key in {where}", path.parent))


# --- validation ---------------------------------------------------------------------------------------

KEYS = (
    "strategy",
    "new-axis",
    "select",
    "extend-select",
    "ignore",
    "extend-ignore",
    "per-file-ignores",
    "fixable",
    "extend-fixable",
    "unfixable",
    "exclude",
    "extend-exclude",
    "unsafe-fixes",
    "target-jax-version",
    "project-root",
    "docs-url",
)


def _validate(table: Mapping[str, Any], origin: str, what: str, base: Path) -> dict[str, Any]:
    """Settings fields (snake_case) from raw key/values. Raises `ConfigError` for any bad key or value."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key not in KEYS:
            import difflib  # only for a bad key (its import costs every run)

            close = difflib.get_close_matches(key, KEYS, n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else f" (known keys: {', '.join(KEYS)})"
            raise ConfigError(f"{origin}: unknown {what} `{key}`{hint}")
        out[key.replace("-", "_")] = _VALIDATORS[key](value, f"{origin}: `{key}`", base)
    return out


def _expect(value: Any, kind: type, where: str, noun: str) -> None:
    if not isinstance(value, kind) or (kind is str and isinstance(value, bool)):
        raise ConfigError(f"{where} must be {noun}, got {type(value).__name__} {value!r}")


def _strings(value: Any, where: str) -> tuple[str, ...]:
    _expect(value, list, where, "a list of strings")
    for item in value:
        _expect(item, str, where, "a list of strings")
    return tuple(value)


def _codes(value: Any, where: str, base: Path) -> tuple[str, ...]:
    codes = _strings(value, where)
    for code in codes:
        if code != "ALL" and not any(known.startswith(code) for known in RULES):
            raise ConfigError(
                f"{where}: unknown rule code or prefix {code!r} (codes: {', '.join(RULES)}, prefixes such as "
                "'SPMD' or 'SPMD00', or 'ALL')"
            )
    return codes


def _strategy(value: Any, where: str, base: Path) -> Strategy:
    _expect(value, str, where, "a string")
    choices = [str(s) for s in STRATEGIES]
    if value not in choices:
        raise ConfigError(f"{where} must be one of {', '.join(choices)}, got {value!r}")
    return strategy_of(value)


def _new_axis(value: Any, where: str, base: Path) -> str:
    _expect(value, str, where, "a string")
    if not re.fullmatch(_IDENTIFIER, value):
        raise ConfigError(f"{where} must be an identifier (a mesh axis name), got {value!r}")
    return value


def _bool(value: Any, where: str, base: Path) -> bool:
    _expect(value, bool, where, "true or false")
    return bool(value)


def _version(value: Any, where: str, base: Path) -> str:
    _expect(value, str, where, "a string")
    if not re.fullmatch(_VERSION, value):
        raise ConfigError(f'{where} must be a version such as "0.10.2", got {value!r}')
    return value


def _directory(value: Any, where: str, base: Path) -> Path:
    """A directory named relative to `base` (the config file's directory, or the working directory for a
    flag), made absolute; it need not exist (a project root that does not exist follows nothing)."""
    _expect(value, str, where, "a string (a directory)")
    return _absolute(base / value)


def _docs_url(value: Any, where: str, base: Path) -> str:
    """The base of the rule links: a URL (or a path), kept as written; `{code}` marks where the code goes."""
    _expect(value, str, where, "a string (a URL)")
    if not value.strip():
        raise ConfigError(f"{where} must not be empty")
    return value


def anchor(pattern: str, base: Path) -> str:
    """A glob as stored: name patterns unchanged, patterns with a `/` made absolute at `base`."""
    negated = pattern.startswith("!")
    body = pattern[1:] if negated else pattern
    if "/" in body.rstrip("/") and not Path(body).is_absolute():
        relative = body.removeprefix("./")
        if ".." in Path(relative).parts:  # normalised away: the base's own characters are not escaped then
            joined = _absolute(base / relative).as_posix()
        else:  # the base directory is a literal path: `proj[v2]/` must not read as a character class
            literal_base = _GLOB_ESCAPE.sub(r"\\\1", _absolute(base).as_posix()).rstrip("/")
            joined = literal_base + "/" + relative.rstrip("/")
        body = joined + ("/" if body.endswith("/") else "")
    return ("!" if negated else "") + body


def _globs(value: Any, where: str, base: Path) -> tuple[str, ...]:
    return tuple(anchor(p, base) for p in _strings(value, where))


def _per_file_ignores(value: Any, where: str, base: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    _expect(value, dict, where, "a table of glob = [codes]")
    return tuple((anchor(glob, base), _codes(codes, f"{where}[{glob!r}]", base)) for glob, codes in value.items())


_VALIDATORS = {
    "strategy": _strategy,
    "new-axis": _new_axis,
    "select": _codes,
    "extend-select": _codes,
    "ignore": _codes,
    "extend-ignore": _codes,
    "per-file-ignores": _per_file_ignores,
    "fixable": _codes,
    "extend-fixable": _codes,
    "unfixable": _codes,
    "exclude": _globs,
    "extend-exclude": _globs,
    "unsafe-fixes": _bool,
    "target-jax-version": _version,
    "project-root": _directory,
    "docs-url": _docs_url,
}


# --- resolution ---------------------------------------------------------------------------------------


class Resolver:
    """Settings per directory: the closest config file (or `config_file` for all), then the flags.

    Caches by directory and by config file. Raises `ConfigError` from `for_path` for a bad file.
    """

    def __init__(self, overrides: Overrides = Overrides(), config_file: Path | None = None, cwd: Path | None = None):
        self.overrides = overrides
        self.cwd = _absolute(cwd or Path.cwd())
        self.config_file = _absolute(config_file) if config_file else None
        self._by_file: dict[Path | None, Settings] = {}
        self._by_dir: dict[str, Settings] = {}
        self._config_by_dir: dict[str, Path | None] = {}  # absolute directory -> its closest config file
        self.tables: TableMemo | None = None  # set by a caller with a results cache, before any question

    def for_dir(self, directory: str | Path) -> Settings:
        """Settings of the files directly inside `directory` (cached by its absolute path, as a string:
        discovery asks for every entry it walks)."""
        key = _abs(directory)
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
        path = _absolute(path)
        return self.for_dir(path if path.is_dir() else path.parent)

    def for_file(self, path: str | Path) -> Settings:
        """Settings of a file known to be one (`for_path` without its stat)."""
        return self.for_dir(os.path.dirname(_abs(path)))


# --- showing ------------------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_settings(settings: Settings, path: Path) -> str:
    """The resolved settings of `path` as TOML (loadable as a spmdfix.toml), the source file in a comment."""
    source = str(settings.source) if settings.source else "none (defaults; no spmdfix.toml or [tool.spmdfix] found)"
    lines = [f"# Settings for: {_absolute(path)}", f"# Settings file: {source}"]
    if settings.layers:
        # One file holds one layer: what the command line's layers resolve to, as explicit codes.
        lines.append("# select and fixable: as resolved with the command line's --config and flags")
        settings = dataclasses.replace(
            settings,
            select=tuple(sorted(settings.selected_codes())),
            fixable=tuple(sorted(settings.fixable_codes())),
            layers=(),
            **dict.fromkeys(("extend_select", "ignore", "extend_ignore", "extend_fixable", "unfixable"), ()),
        )
    for key in KEYS:
        if key == "per-file-ignores":
            continue
        value = settings.jax_version() if key == "target-jax-version" else getattr(settings, key.replace("-", "_"))
        if value is None:
            continue  # TOML has no null: an unset project-root is left out
        lines.append(f"{key} = {_toml_value(value)}")
    lines.append("")
    lines.append("[per-file-ignores]")
    lines.extend(f"{_toml_value(glob)} = {_toml_value(codes)}" for glob, codes in settings.per_file_ignores)
    return "\n".join(lines) + "\n"


def split_codes(values: Iterable[str]) -> tuple[str, ...]:
    """Rule codes from repeated and comma-separated command-line values (`--select SPMD001,SPMD002`)."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def per_file_ignores_option(values: Iterable[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`--per-file-ignores` values as ruff spells them, `GLOB:CODE` items (comma-separated, repeatable): the
    (glob, codes) pairs in the order first given, a glob's codes gathered. Raises `ConfigError` for an item
    without `:` (checked further with the codes, `Overrides.apply`)."""
    gathered: dict[str, list[str]] = {}
    for item in split_codes(values):
        glob, colon, code = item.rpartition(":")
        if not colon or not glob or not code.strip():
            raise ConfigError(f"--per-file-ignores {item!r}: expected GLOB:CODE, such as 'tests/*:SPMD002'")
        gathered.setdefault(glob.strip(), []).append(code.strip())
    return tuple((glob, tuple(codes)) for glob, codes in gathered.items())
