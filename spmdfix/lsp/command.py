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
        from spmdfix.lsp.transport import serve
    except ImportError as err:  # depends on the install extras (tests/test_cli_conventions.py hides pygls)
        problem = click.ClickException(MISSING_EXTRA.format(err=err))
        problem.exit_code = 2  # an install problem, not findings (the CLI's exit codes)
        raise problem from err
    serve(tcp_port)


# Nothing is published on a package index yet (`pip install 'spmdfix[lsp]'` finds nothing): the extra is
# installed from a clone of the repository, as docs/editors.md says.
MISSING_EXTRA = (
    "the language server needs the `lsp` extra (pygls, lsprotocol): {err}. spmdfix is not on a package index;"
    " from a clone of its repository run `pip install -e '.[lsp]'` (docs/editors.md)"
)
