"""The command line (click): `spmdfix check`, `fix`, `config`, `rule`, `lsp`.

Exit codes, as ruff's: 0 nothing reported / nothing to change; 1 findings (or unreadable files) reported,
or `fix --diff` has changes, or `fix` left findings; 2 usage, configuration or internal error.

The flow of `check` and `fix`: resolve settings (`spmdfix.config`), discover files (`spmdfix.files`), run
one `Job` per file (`spmdfix.runner`, in worker processes with `--jobs`), then emit in path order (text /
JSON / other formats, diffs, atomic writes) and close with a summary on stderr. One module per concept:
`invocation` (common options, settings, discovery), `output` (rendering), `checking`, `fixing`, `interactive`
(the reviewer of `fix -i`), `info` (`config`, `rule`); `spmdfix.lsp.command` is the `lsp` command.
"""

from __future__ import annotations

import gc

# Imports make thousands of long-lived objects and no garbage: the cyclic collector's passes over them while
# they load were a tenth of the imports of a warm `check` (which is mostly imports and stats).
_collecting = gc.isenabled()
gc.disable()
try:
    import click

    from spmdfix.cli.checking import check
    from spmdfix.cli.fixing import fix
    from spmdfix.cli.info import config, rule
    from spmdfix.lsp.command import lsp
finally:
    if _collecting:
        gc.enable()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spmdfix")
def main() -> None:
    """Find and fix vmap spmd_axis_name / shard_map PartitionSpec collisions in JAX code."""


for _command in (check, fix, config, rule, lsp):
    main.add_command(_command)

__all__ = ["main"]
