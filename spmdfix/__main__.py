"""`python -m spmdfix`: the `spmdfix` command, as `python -m ruff` is ruff's (`python -m spmdfix.cli` alike)."""

from spmdfix.cli import entry

entry()
