"""The keys of a settings file: each checked and turned into a `Settings` field (`validate`), and the
resolved settings written back as TOML (`render_settings`). Every problem raises `ConfigError`, which names
the file (or flag) and the key.

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
    layout-changing-fixes = "safe"   # "unsafe": fixes that move the batch (rename, add-axis, drop-spmd-axis)
                                     # are unsafe even where they keep the values
    target-jax-version = "0.10.2"    # default: the installed jax, else the newest known
    project-root = "."               # where imports of other modules are followed from (relative to the
                                     # file that says it); default: the nearest directory above each file
                                     # holding pyproject.toml, setup.cfg or .git
    docs-url = "https://..."         # base of the rule links in reports (`spmdfix.links`); default: none
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from spmdfix.globs import anchor
from spmdfix.model import STRATEGIES, Strategy, strategy_of
from spmdfix.rules import RULES
from spmdfix.settings import ConfigError, Settings, absolute

# Compiled where first used (`re`'s cache): only a configuration that sets these keys asks.
_VERSION = r"\d+(\.\d+){0,2}"
_IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"

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
    "layout-changing-fixes",
    "target-jax-version",
    "project-root",
    "docs-url",
)


def validate(table: Mapping[str, Any], origin: str, what: str, base: Path) -> dict[str, Any]:
    """Settings fields (snake_case) from raw key/values (kebab-case keys, as a settings file spells them).
    `origin` and `what` name the source and the kind of key in messages ("pyproject.toml", "key in
    [tool.spmdfix]"); relative directories and globs are anchored at `base`. Raises `ConfigError` for any
    bad key or value."""
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


def _safety_class(value: Any, where: str, base: Path) -> str:
    _expect(value, str, where, "a string")
    if value not in ("safe", "unsafe"):
        raise ConfigError(f'{where} must be "safe" or "unsafe", got {value!r}')
    return value


def _version(value: Any, where: str, base: Path) -> str:
    _expect(value, str, where, "a string")
    if not re.fullmatch(_VERSION, value):
        raise ConfigError(f'{where} must be a version such as "0.10.2", got {value!r}')
    return value


def _directory(value: Any, where: str, base: Path) -> Path:
    """A directory named relative to `base` (the config file's directory, or the working directory for a
    flag), made absolute; it need not exist (a project root that does not exist follows nothing)."""
    _expect(value, str, where, "a string (a directory)")
    return absolute(base / value)


def _docs_url(value: Any, where: str, base: Path) -> str:
    """The base of the rule links: a URL (or a path), kept as written; `{code}` marks where the code goes."""
    _expect(value, str, where, "a string (a URL)")
    if not value.strip():
        raise ConfigError(f"{where} must not be empty")
    return value


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
    "layout-changing-fixes": _safety_class,
    "target-jax-version": _version,
    "project-root": _directory,
    "docs-url": _docs_url,
}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_settings(settings: Settings, path: Path) -> str:
    """The resolved settings of `path` as TOML (loadable as a spmdfix.toml), the source file in a comment."""
    source = str(settings.source) if settings.source else "none (defaults; no spmdfix.toml or [tool.spmdfix] found)"
    lines = [f"# Settings for: {absolute(path)}", f"# Settings file: {source}"]
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
