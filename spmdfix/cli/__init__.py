"""The command line (click): `spmdfix check`, `fix`, `config`, `rule`, `lsp`.

Exit codes, as ruff's: 0 nothing reported / nothing to change; 1 findings (or unreadable files) reported,
or `fix --diff` has changes, or `fix` left findings; 2 usage, configuration or internal error.

The flow of `check` and `fix`: resolve settings (`spmdfix.config`), discover files (`spmdfix.files`), run
one `Job` per file (`spmdfix.runner`, in worker processes with `--jobs`), then emit in path order (text /
JSON / other formats, diffs, atomic writes) and close with a summary on stderr. One module per concept:
`invocation` (common options, settings, discovery), `output` (rendering), `checking`, `fixing`, `interactive`
(the reviewer of `fix -i`), `baseline` (`check --baseline`), `watch` (`check --watch`), `info` (`config`,
`rule`); `spmdfix.lsp.command` is the `lsp` command.
"""

from __future__ import annotations

import importlib
import sys

from spmdfix.perf import gc_paused, leave

# Imports make thousands of long-lived objects and no garbage: the cyclic collector's passes over them while
# they load were a tenth of the imports of a warm `check` (which is mostly imports and stats).
with gc_paused():
    import click

# Each command's module, imported when the command is asked for (a run of `check` does not import `fix`'s,
# the language server's or the rule browser's modules: they were a tenth of a warm `check`'s imports).
_COMMANDS = {
    "check": "spmdfix.cli.checking",
    "fix": "spmdfix.cli.fixing",
    "config": "spmdfix.cli.info",
    "rule": "spmdfix.cli.info",
    "lsp": "spmdfix.lsp.command",
}
# Other names a command answers to, not listed in the help: ruff's users type `server` for the language server.
_ALIASES = {"server": "lsp"}


class _Commands(click.Group):
    """A group whose commands are imported from `_COMMANDS` when first asked for (click's lazy-loading
    pattern: `list_commands` and `get_command`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*_COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd_name = _ALIASES.get(cmd_name, cmd_name)
        if cmd_name not in self.commands and cmd_name in _COMMANDS:
            with gc_paused():  # (as for click's import above)
                module = importlib.import_module(_COMMANDS[cmd_name])
            self.add_command(getattr(module, cmd_name))
        return self.commands.get(cmd_name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spmdfix")
def main() -> None:
    """Find and fix vmap spmd_axis_name / shard_map PartitionSpec collisions in JAX code."""
    # A command reads the project afresh: the project indexes an earlier command of this process cached hold
    # the texts it read, which may have changed since (a library user's or a test's process; fuzz/project.py
    # seed 520064: a stale config.py made a rename to an axis the mesh no longer had look safe). Not imported
    # when no command has run: a process's first command finds none.
    api = sys.modules.get("spmdfix.api")
    if api is not None:
        api.forget_indexes()


def entry() -> None:
    """The `spmdfix` console script: `main`, then the process ends with the exit code click gives (0, 1 or 2,
    as `main`'s doc says), without tearing the interpreter down once the standard streams are flushed
    (`perf.leave`: the normal way while a child process or another non-daemon thread is alive). Any
    exception other than SystemExit goes up as usual (its traceback printed)."""
    try:
        main()
        code: object = 0
    except SystemExit as done:
        code = done.code
    leave(code)


__all__ = ["entry", "main"]
