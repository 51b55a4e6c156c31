"""`spmdfix config` (the settings resolved for a path) and `spmdfix rule` (a rule's documentation)."""

from __future__ import annotations

from pathlib import Path

import click

from spmdfix import rules
from spmdfix.cli.invocation import guard_config
from spmdfix.config import Overrides, Resolver, config_options, render_settings


@click.command(short_help="Print the settings resolved for a path, and where they come from.")
@click.argument("path", required=False, type=click.Path(path_type=Path), default=Path("."))
@click.option(
    "--config",
    "config_values",
    multiple=True,
    metavar="FILE | KEY=VALUE",
    help="A configuration file to use, or a TOML `KEY = VALUE` overriding the configuration (as in check).",
)
@guard_config
def config(path: Path, config_values: tuple[str, ...]) -> None:
    """Print the settings resolved for PATH (default: the working directory) and where they come from."""
    config_file, inline = config_options(config_values)
    click.echo(
        render_settings(Resolver(Overrides(inline=inline), config_file).for_path(path), path),
        nl=False,
    )


@click.command(short_help="Print a rule's documentation (spmdfix rule SPMD001), or list the rules.")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
def rule(code: str | None, show_all: bool) -> None:
    """Print the documentation of rule CODE (e.g. SPMD001)."""
    if show_all or code is None:
        width = max(len(r.name) for r in rules.RULES.values())
        for r in rules.RULES.values():
            click.echo(f"{r.code}  {r.name:<{width}}  {r.summary}")
        return
    found = rules.RULES.get(code.upper())
    if found is None:
        raise click.UsageError(f"unknown rule {code!r}; `spmdfix rule --all` lists them")
    click.echo(found.doc())
