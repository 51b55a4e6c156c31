"""LibCST codemod commands: spmdfix's transforms under `python -m libcst.tool codemod`.

With `.libcst.codemod.yaml` listing `spmdfix.codemods` in `modules`, a command is named
`commands.<ClassName>`:

    python -m libcst.tool codemod commands.StripSpecEntriesCommand --no-format src/

(or, without the yaml, `python -m libcst.tool codemod -x spmdfix.codemods.commands.StripSpecEntriesCommand`).
One command per transform: RenameSpmdAxisCommand, AddMeshAxisCommand (`--new-axis`),
StripSpecEntriesCommand, LiftCapturesCommand, DisableCheckVmaCommand, DropSpmdAxisCommand; and AutoFixCommand (`--strategy`,
`--new-axis`). Every command takes `--unsafe-fixes`.

Each command runs spmdfix's own analysis and fixer on the module's code (`spmdfix.api.fix_source`, the
same passes `spmdfix fix` makes, with that transform as the strategy) and returns the parsed result, so a
codemod run and `spmdfix fix` write the same bytes. A finding left unfixed is reported with `warn()` (and
why); a module with nothing to change raises `SkipFile`. Pass `--no-format`: libcst's default formatter
(black) would reformat every changed file.
"""

from __future__ import annotations

import argparse
from abc import ABC
from typing import ClassVar

import libcst as cst
from libcst.codemod import CodemodCommand, CodemodContext, SkipFile

from spmdfix.api import FixResult, Options, choose_fix, fix_source
from spmdfix.model import DEFAULT_NEW_AXIS, Applicability, Finding, Strategy, Transform
from spmdfix.positions import LineIndex


class _SpmdfixCommand(CodemodCommand, ABC):
    """Shared body of the commands: fix with one strategy, warn per unfixed finding, skip when unchanged.

    A direct subclass of `ABC`, so `libcst.tool list` does not offer it as a command.
    """

    STRATEGY: ClassVar[Strategy] = Strategy.AUTO

    def __init__(
        self,
        context: CodemodContext,
        unsafe_fixes: bool = False,
        new_axis: str = DEFAULT_NEW_AXIS,
        strategy: str | None = None,
    ) -> None:
        super().__init__(context)
        self.options = Options(
            strategy=Strategy(strategy) if strategy is not None else self.STRATEGY,
            unsafe_fixes=unsafe_fixes,
            new_axis=new_axis,
        )

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument(
            "--unsafe-fixes",
            action="store_true",
            default=False,
            help="Also apply fixes spmdfix classes as unsafe (see `spmdfix check --show-fixes`).",
        )

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        result = fix_source(tree.code, self.options)
        for error in result.errors:
            self.warn(error)
        for message in _unfixed_warnings(result, self.options):
            self.warn(message)
        # Nothing applied: leave the file alone (TransformSkip), whatever was found.
        if not result.changed:
            left = len(result.remaining)
            raise SkipFile(f"{left} finding{'s' if left != 1 else ''} left unfixed" if left else "no spmdfix finding")
        return cst.parse_module(result.source)


def _add_new_axis(arg_parser: argparse.ArgumentParser) -> None:
    arg_parser.add_argument(
        "--new-axis",
        default=DEFAULT_NEW_AXIS,
        help=f"Name of the size-1 mesh axis the add-axis transform adds (default: {DEFAULT_NEW_AXIS}).",
    )


def _unfixed_warnings(result: FixResult, options: Options) -> list[str]:
    """One line per finding left in the fixed module: `row:col: CODE message (why it was not fixed)`."""
    lines = LineIndex(result.source)
    out = []
    for finding in result.remaining:
        row, col = lines.row_col(finding.span.start)
        out.append(f"{row}:{col}: {finding.code} {finding.message} (not fixed: {_why_unfixed(finding, options)})")
    return out


def _why_unfixed(finding: Finding, options: Options) -> str:
    if not finding.fixes and not finding.refusals:
        return "spmdfix has no fix for this rule"
    candidate = choose_fix(finding, options.strategy, unsafe_fixes=True)
    if candidate is not None and candidate.applicability == Applicability.UNSAFE and not options.unsafe_fixes:
        return f"the {candidate.transform} fix is unsafe ({candidate.reason}); pass --unsafe-fixes to apply it"
    if candidate is not None:
        return f"the {candidate.transform} fix could not be applied"
    wanted = [Transform(options.strategy.value)] if options.strategy != Strategy.AUTO else list(Transform)
    reasons = [f"{r.transform}: {r.reason}" for r in finding.refusals if r.transform in wanted]
    return "; ".join(reasons) if reasons else f"no {options.strategy} fix is offered"


class RenameSpmdAxisCommand(_SpmdfixCommand):
    DESCRIPTION: str = "spmdfix rename: point vmap's spmd_axis_name at a free axis of the shard_map's mesh."
    STRATEGY = Strategy.RENAME


class AddMeshAxisCommand(_SpmdfixCommand):
    DESCRIPTION: str = "spmdfix add-axis: prepend a size-1 mesh axis and use it as vmap's spmd_axis_name."
    STRATEGY = Strategy.ADD_AXIS

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        _SpmdfixCommand.add_args(arg_parser)
        _add_new_axis(arg_parser)


class StripSpecEntriesCommand(_SpmdfixCommand):
    DESCRIPTION: str = "spmdfix strip: remove the spmd axis from the reached shard_map's in_specs and out_specs."
    STRATEGY = Strategy.STRIP


class AutoFixCommand(_SpmdfixCommand):
    DESCRIPTION: str = (
        "spmdfix auto: per finding, the first safe fix of rename, add-axis, strip (--strategy to choose)."
    )
    STRATEGY = Strategy.AUTO

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        _SpmdfixCommand.add_args(arg_parser)
        _add_new_axis(arg_parser)
        arg_parser.add_argument(
            "--strategy",
            choices=[s.value for s in Strategy],
            default=Strategy.AUTO.value,
            help="Transform to apply (default: auto).",
        )


class LiftCapturesCommand(_SpmdfixCommand):
    DESCRIPTION: str = "spmdfix lift-captures: pass values a shard_map body captures from the vmap as operands."
    STRATEGY = Strategy.LIFT_CAPTURES


class DisableCheckVmaCommand(_SpmdfixCommand):
    DESCRIPTION: str = (
        "spmdfix disable-check-vma: set check_vma=False on the shard_map (always unsafe: --unsafe-fixes)."
    )
    STRATEGY = Strategy.DISABLE_CHECK_VMA


class DropSpmdAxisCommand(_SpmdfixCommand):
    DESCRIPTION: str = (
        "spmdfix drop-spmd-axis: remove spmd_axis_name from the vmap (always unsafe: --unsafe-fixes)."
    )
    STRATEGY = Strategy.DROP_SPMD_AXIS
