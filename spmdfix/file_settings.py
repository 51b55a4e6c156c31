"""The settings of one file, as every front end applies them: the `Options` of its fixes, the rule codes
reported for it, and the project root its analysis follows imports from (`FileSettings`), resolved from the
settings of its directory (`resolve`, `resolve_shared`: `config.Resolver`, then `per-file-ignores`).
"""

from __future__ import annotations

import functools
import os
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix import rules
from spmdfix.model import Finding, Fix, Options, Strategy, choose_fix
from spmdfix.perf import frozen

if TYPE_CHECKING:
    from spmdfix.config import Resolver
    from spmdfix.settings import Settings

ALL_CODES = frozenset(rules.RULES)


@frozen(slots=True)
class FileSettings:
    """What the settings of one file ask for: the `Options` of its fixes (strategy, unsafe-fixes, new-axis),
    the rule codes reported for it (select / ignore / per-file-ignores already applied), and the project
    root imports of other modules are followed from (`project_root_of`)."""

    options: Options = field(default_factory=Options)
    enabled: frozenset[str] = ALL_CODES
    project_root: Path | None = None  # `project-root` / `--project-root`; None: found above the file

    def chosen(self, finding: Finding) -> Fix | None:
        """The fix a run with these settings applies for `finding` (`model.choose_fix`), or None."""
        return choose_fix(finding, self.options.strategy, self.options.unsafe_fixes)


@functools.lru_cache(maxsize=64)
def _options(
    strategy: Strategy,
    unsafe_fixes: bool,
    new_axis: str,
    unfixable: frozenset[str] = frozenset(),
    layout: str = "safe",
    ignores: tuple[tuple[str, tuple[str, ...]], ...] = (),
) -> Options:
    """One `Options` per distinct setting (the files of a run share it; its fields are the cache key's)."""
    return Options(
        strategy=strategy,
        unsafe_fixes=unsafe_fixes,
        new_axis=new_axis,
        unfixable=unfixable,
        layout_changing_fixes=layout,
        per_file_ignores=ignores,
    )


def file_settings(settings: Settings, path: str | Path) -> FileSettings:
    """The `FileSettings` of the file at `path` under its directory's resolved `settings`."""
    return FileSettings(
        _options(
            settings.strategy,
            settings.unsafe_fixes,
            settings.new_axis,
            ALL_CODES - settings.fixable_codes(),
            settings.layout_changing_fixes,
            settings.ignores_by_glob(),
        ),
        settings.enabled_codes(path),
        settings.project_root,
    )


def project_root_of(path: str | Path, settings: FileSettings, cached: bool = False) -> Path:
    """The project root whose modules the analysis of the file at `path` follows imports into: the
    settings' `project_root` (`project-root` in the configuration, `--project-root`), else
    `files.find_project_root` (a marker's directory, else the base of the file's package chain, else its
    directory). Every front end's project
    index is built on it (the CLI's `runner`, the language server). cached: as `find_project_root`'s (what
    this process found before for the same directories; never in a long-lived process)."""
    if settings.project_root is not None:
        return Path(settings.project_root).resolve()
    from spmdfix.files import find_project_root

    return find_project_root(Path(path).resolve(), cached)


def resolve(resolver: Resolver, path: str | Path) -> FileSettings:
    """The settings `resolver` gives the file at `path` (its closest config file, then the overrides).

    Raises `settings.ConfigError` for a bad configuration file.
    """
    absolute = os.path.abspath(path)
    return file_settings(resolver.for_file(absolute), absolute)


def resolve_shared(resolver: Resolver, path: str | Path, memo: dict[str, FileSettings]) -> FileSettings:
    """`resolve`, computed once for all the files of a directory that no `per-file-ignores` can tell apart
    (a warm run asks for every file of the tree). `memo` maps a directory, spelled as in `path`, to its
    files' settings; it must not outlive a change of working directory or of the configuration files.

    Raises `settings.ConfigError` for a bad configuration file.
    """
    directory = os.path.dirname(os.fspath(path))
    found = memo.get(directory)
    if found is None:
        absolute = os.path.abspath(path)
        settings = resolver.for_file(absolute)
        found = file_settings(settings, absolute)
        if not settings.per_file_ignores:
            memo[directory] = found
    return found
