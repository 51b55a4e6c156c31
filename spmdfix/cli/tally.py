"""The counts of a `fix` run (files changed, fixes applied, findings left, errors) and its exit code."""

from __future__ import annotations

import sys
from collections import Counter

from spmdfix.cli import terminal
from spmdfix.cli.invocation import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS


class Tally:
    """Counts of a fix run, and its exit code."""

    def __init__(self) -> None:
        self.changed = 0
        self.remaining = 0
        self.unwritten = 0  # findings of files whose fixed text could not be written, beyond their outcome's
        self.unwritten_in: list[str] = []  # those files (displays): the summary says their findings are left there
        self.errors = 0
        self.internal = False
        self.applied: Counter = Counter()
        # `--diff`: (the path the diff names, the diff) of each changed file, printed in path order at the end
        # (a cross-module fix changes files of the run and outside it; `print_diffs`); a diff is the file's
        # bytes (`diffs.file_diff`), in its own encoding
        self.diffs: list[tuple[str, bytes]] = []

    def print_diffs(self) -> None:
        """Print the collected diffs sorted by the path they name, as `git diff` orders files, as bytes: each
        in its file's encoding, which `git apply` matches (not the terminal's)."""
        if not self.diffs:
            return
        sys.stdout.flush()  # (whatever the text layer holds goes first)
        stdout = terminal.binary(sys.stdout)
        for _, data in sorted(self.diffs):
            stdout.write(data)
        stdout.flush()
        self.diffs.clear()

    def exit_code(self, diff: bool, exit_zero: bool, non_zero_on_fix: bool = False) -> int:
        """2 after an internal error; with `diff`, 1 when a file would change; else 1 when findings are left
        or (`non_zero_on_fix`, ruff's `--exit-non-zero-on-fix`) a fix was applied, unless `exit_zero`."""
        if self.internal:
            return EXIT_ERROR
        if diff:
            return EXIT_FINDINGS if self.changed else EXIT_CLEAN
        fixed = non_zero_on_fix and sum(self.applied.values()) > 0
        return EXIT_FINDINGS if (self.remaining or fixed) and not exit_zero else EXIT_CLEAN
