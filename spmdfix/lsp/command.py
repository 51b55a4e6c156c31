"""`spmdfix lsp` (and `python -m spmdfix.lsp`): run the language server. Imports pygls only when run."""

from __future__ import annotations

import click


@click.command()
@click.option(
    "--tcp",
    "tcp_port",
    type=int,
    default=None,
    help="Listen on 127.0.0.1:PORT instead of stdio.",
)
def lsp(tcp_port: int | None) -> None:
    """Run the language server (stdio by default)."""
    try:
        from spmdfix.lsp.server import serve
    except ImportError as err:  # pragma: no cover - depends on the install extras
        raise click.ClickException(f"the language server needs `pip install spmdfix[lsp]` ({err})") from err
    serve(tcp_port)
