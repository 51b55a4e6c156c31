"""`python -m spmdfix.cli`: the `spmdfix` command."""

from spmdfix.cli import entry

entry()
