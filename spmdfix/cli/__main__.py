"""`python -m spmdfix.cli`: the `spmdfix` command."""

from spmdfix.cli import main

main()
