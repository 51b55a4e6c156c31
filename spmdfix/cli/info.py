"""`spmdfix config` (the settings resolved for a path) and `spmdfix rule` (a rule's documentation)."""

from __future__ import annotations

from pathlib import Path

import click

from spmdfix import rules
from spmdfix.cli.invocation import guard_config
from spmdfix.config import Resolver
from spmdfix.overrides import Overrides, config_options
from spmdfix.settings_keys import render_settings


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
@click.option("--all", "show_all", is_flag=True, help="Print every rule's documentation, one after the other.")
@click.option(
    "--output-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="`json`: a list of {code, name, summary, explanation} (as ruff's).",
)
def rule(code: str | None, show_all: bool, output_format: str) -> None:
    """Print the documentation of rule CODE (e.g. SPMD001); with --all, of every rule (as `ruff rule
    --all`); without either, list the rules, one line each."""
    if code is not None and show_all:
        raise click.UsageError("give a rule code or --all, not both")
    if code is None and not show_all:
        if output_format == "json":
            show_all = True  # (a listing is for reading: JSON gives every rule)
        else:
            width = max(len(r.name) for r in rules.RULES.values())
            for r in rules.RULES.values():
                click.echo(f"{r.code}  {r.name:<{width}}  {r.summary}")
            return
    if show_all:
        chosen = list(rules.RULES.values())
    else:
        found = rules.RULES.get(code.upper())  # type: ignore[union-attr]
        if found is None:
            raise click.UsageError(f"unknown rule {code!r}; `spmdfix rule` lists them")
        chosen = [found]
    if output_format == "json":
        import json

        records = [{"code": r.code, "name": r.name, "summary": r.summary, "explanation": r.doc()} for r in chosen]
        click.echo(json.dumps(records if show_all else records[0], indent=2, ensure_ascii=False))
        return
    # Each doc is a Markdown document starting with `# CODE name`: one blank line between two of them.
    click.echo("\n".join(r.doc().rstrip("\n") + "\n" for r in chosen), nl=False)
