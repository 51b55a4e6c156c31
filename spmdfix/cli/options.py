"""The options `check` and `fix` share (`common_options`: paths, settings, selection, discovery, output
volume), as click decorators; `Run` (`cli.invocation`) reads what they give.
"""

from __future__ import annotations

from pathlib import Path

import click

from spmdfix.files import MAX_BYTES

MIB = 1024 * 1024


def _multi(name: str, help: str):
    return click.option(
        name,
        multiple=True,
        metavar="PATTERNS",
        help=help + " Comma-separated, repeatable.",
    )


def _codes_option(name: str, help: str):
    return click.option(name, multiple=True, metavar="CODES", help=help + " Comma-separated, repeatable.")


_COMMON = [
    # readable=False: a file that cannot be read is SPMD901, as when a walk finds it, not a usage error.
    click.argument("paths", nargs=-1, type=click.Path(readable=False, path_type=Path)),
    click.option(
        "--config",
        "config_options",
        multiple=True,
        metavar="FILE | KEY=VALUE",
        help="A spmdfix.toml / pyproject.toml to use for every file, or (when no such file exists) a TOML"
        " `KEY = VALUE` overriding the configuration, such as 'select = [\"SPMD001\"]'. Repeatable.",
    ),
    _codes_option("--select", "Rule codes or prefixes to report, replacing the configuration's selection."),
    _codes_option("--extend-select", "Rule codes or prefixes to report in addition to those selected."),
    _codes_option("--ignore", "Rule codes or prefixes not to report (on top of the configuration's `ignore`)."),
    _codes_option("--extend-ignore", "The same as --ignore (ruff's older spelling)."),
    click.option(
        "--per-file-ignores",
        multiple=True,
        metavar="GLOB:CODE",
        help="Replace `per-file-ignores`: skip CODE in files matching GLOB. Comma-separated, repeatable.",
    ),
    click.option(
        "--extend-per-file-ignores",
        multiple=True,
        metavar="GLOB:CODE",
        help="Like --per-file-ignores, but added to the configured ones.",
    ),
    _codes_option("--fixable", "Rule codes or prefixes whose fixes are offered [default: ALL]."),
    _codes_option("--extend-fixable", "Rule codes or prefixes made fixable in addition to `fixable`."),
    _codes_option("--unfixable", "Rule codes or prefixes whose fixes are never offered nor applied."),
    _multi(
        "--exclude",
        "Globs of files and directories to skip, replacing the defaults and `exclude`.",
    ),
    _multi("--extend-exclude", "Globs to skip in addition to the excludes."),
    click.option(
        "--force-exclude",
        is_flag=True,
        help="Apply the excludes to paths given on the command line too.",
    ),
    click.option(
        "--respect-gitignore/--no-respect-gitignore",
        default=True,
        show_default=True,
        help="Skip what .gitignore files ignore.",
    ),
    click.option(
        "--include-generated",
        is_flag=True,
        help="Also check files marked @generated in their first lines.",
    ),
    click.option(
        "--unsafe-fixes/--no-unsafe-fixes",
        default=None,
        help="Also apply (or show as fixable) unsafe fixes.",
    ),
    click.option(
        "--new-axis",
        default=None,
        help="Name of the mesh axis the add-axis transform adds [default: batch].",
    ),
    click.option(
        "--target-jax-version",
        default=None,
        help="JAX version whose spellings fixes use [default: installed].",
    ),
    click.option(
        "--stdin-filename",
        default=None,
        help="With PATH `-`: the file name stdin stands for.",
    ),
    click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        default=None,
        help="Worker processes [default: CPU count].",
    ),
    click.option(
        "--max-file-size",
        type=click.FloatRange(min=0),
        default=MAX_BYTES // MIB,
        show_default=True,
        help="Skip files larger than this many MiB.",
    ),
    click.option(
        "--project-root",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Where imports of other modules are followed from (replaces `project-root`) [default: the "
        "nearest directory above each file holding pyproject.toml, setup.cfg or .git].",
    ),
    click.option(
        "--docs-url",
        default=None,
        metavar="URL",
        help="Base of the rule links in reports (JSON `url`, SARIF `helpUri`): URL/CODE.md, or URL with {code}"
        " replaced (replaces `docs-url`) [default: the doc's path in the spmdfix repository].",
    ),
    click.option(
        "--show-settings",
        is_flag=True,
        help="Print the settings resolved for the first PATH and exit.",
    ),
    click.option(
        "--exit-zero",
        is_flag=True,
        help="Exit 0 even when findings remain (errors still exit 2).",
    ),
    click.option("--quiet", "-q", is_flag=True, help="Print findings and errors only (no summary, no progress)."),
    click.option("--silent", is_flag=True, help="Print nothing but internal errors; the exit code still tells."),
]


def exit_non_zero_on_fix_option(func):
    """ruff's `--exit-non-zero-on-fix`, for `fix` and `check --fix`."""
    return click.option(
        "--exit-non-zero-on-fix",
        is_flag=True,
        help="Exit 1 when a fix was applied, even if no findings are left (for CI and pre-commit).",
    )(func)


def common_options(func):
    for option in reversed(_COMMON):
        func = option(func)
    return func
