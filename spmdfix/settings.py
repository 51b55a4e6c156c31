"""The resolved settings of a directory (`Settings`) and how its rule selection resolves (`RuleSelection`).

Rule selection is resolved in layers, as ruff resolves it: the configuration file's, then each `--config
KEY=VALUE`'s, then the flags'. A layer that gives `select` starts afresh; otherwise it changes only the codes
its selectors name. `per-file-ignores` then removes what its globs ignore, whatever selected it. `fixable` /
`extend-fixable` / `unfixable` are resolved the same way, from `fixable = ["ALL"]`.

`target-jax-version` is stored in the resolved settings (None until set: `Settings.jax_version()` then asks
the installed jax, so a run that never needs it never imports importlib.metadata).

Where settings come from is `spmdfix.config`'s business (the files, per directory), with `spmdfix.overrides`
(the command line); their keys are checked by `spmdfix.settings_keys`.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from spmdfix.globs import glob_matches
from spmdfix.model import AUTO, DEFAULT_NEW_AXIS, Strategy
from spmdfix.perf import frozen
from spmdfix.rules import RULES

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


@frozen(slots=True)
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
    layout_changing_fixes: str = "safe"  # "unsafe": rename, add-axis and drop-spmd-axis need --unsafe-fixes
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
        return self.selected_codes() - ignored_at(self.ignores_by_glob(), path)

    def ignores_by_glob(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """`per_file_ignores` with each glob's selectors resolved to the codes they name (sorted): what
        `ignored_at` reads, for the file checked and for the other modules its findings lie in
        (`Options.per_file_ignores`, `pipeline.select`)."""
        return tuple((pattern, tuple(sorted(_matched(codes)))) for pattern, codes in self.per_file_ignores)

    def fixable_codes(self) -> frozenset[str]:
        """The rule codes whose fixes are offered and applied (`fixable`, `extend-fixable`, `unfixable`)."""
        return _resolve(tuple(layer.fixes() for layer in (self.own_layer, *self.layers)))

    def excludes(self, path: str | Path, is_dir: bool) -> bool:
        """True when `path` (a file or directory) matches `exclude` or `extend-exclude`."""
        return glob_matches(self.exclude + self.extend_exclude, absolute_text(path), is_dir)


@frozen(slots=True)
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


def absolute(path: Path) -> Path:
    """`path` made absolute (`os.path.abspath`: not resolved, links kept)."""
    return Path(os.path.abspath(path))


def absolute_text(path: str | Path) -> str:
    """The absolute path as a string; one already absolute (as discovery passes them) is taken as it is."""
    if isinstance(path, str) and os.path.isabs(path):
        return path
    return os.path.abspath(path)


_NOTHING = RuleSelection()


def ignored_at(ignores: tuple[tuple[str, tuple[str, ...]], ...], path: str | Path) -> frozenset[str]:
    """The codes `per-file-ignores` (as `Settings.ignores_by_glob` gives them: a glob, "!" negating it, and
    the codes it ignores) ignore for the file at `path`."""
    out: frozenset[str] = frozenset()
    for pattern, codes in ignores:
        negated = pattern.startswith("!")
        if glob_matches((pattern[1:] if negated else pattern,), absolute_text(path), is_dir=False) != negated:
            out = out | frozenset(codes)
    return out


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
