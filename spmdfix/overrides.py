"""What the command line sets over the configuration files: the flags (`Overrides`) and `--config`
(`config_options`: a configuration file, or inline TOML `KEY = VALUE` pairs), as ruff reads them.

The rule keys of each make one more rule selection layer (`settings.RuleSelection`); the other keys replace
the configured values. Values are checked as a settings file's are (`settings_keys.validate`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from spmdfix.perf import frozen
from spmdfix.settings import ConfigError, RuleSelection, Settings
from spmdfix.settings_keys import KEYS, validate

# Settings fields that make a rule selection layer (`RuleSelection`) rather than replace a value.
_RULE_FIELDS = ("select", "extend_select", "ignore", "extend_ignore", "fixable", "extend_fixable", "unfixable")


@frozen(slots=True)
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
            settings = _override(settings, validate({key: value}, f"--config {given!r}", "key", cwd))
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
        changes = validate(raw, "command line", "option", cwd)
        if "extend_exclude" in changes:
            changes["extend_exclude"] = settings.extend_exclude + changes["extend_exclude"]
        if self.extend_per_file_ignores:
            extra = {glob: list(codes) for glob, codes in self.extend_per_file_ignores}
            added = validate({"per-file-ignores": extra}, "command line", "option", cwd)["per_file_ignores"]
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
    path: Path | None = None
    inline: list[tuple[str, str, Any]] = []
    for value in values:
        if os.path.isfile(value):
            if path is not None:
                raise ConfigError(f"--config {value!r}: only one configuration file can be given (also {str(path)!r})")
            path = Path(value)
            continue
        import tomllib  # (a run without an inline `--config` parses no TOML: `config.TableMemo`)

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
                validate({key: item}, f"--config {value!r}", "key", Path("."))  # raises: unknown key
            inline.append((value, key, item))
    return path, tuple(inline)


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
