"""LibCST codemod commands: spmdfix's transforms under `python -m libcst.tool codemod`.

With `.libcst.codemod.yaml` listing `spmdfix.codemods` in `modules`, a command is named
`commands.<ClassName>`:

    python -m libcst.tool codemod commands.StripSpecEntriesCommand --no-format src/

(or, without the yaml, `python -m libcst.tool codemod -x spmdfix.codemods.commands.StripSpecEntriesCommand`).
One command per transform: RenameSpmdAxisCommand, AddMeshAxisCommand (`--new-axis`),
StripSpecEntriesCommand, MovePlacementCommand, LiftCapturesCommand, DisableCheckVmaCommand, DropSpmdAxisCommand; and AutoFixCommand (`--strategy`,
`--new-axis`). Every command takes `--unsafe-fixes`.

Each command runs spmdfix's per-file entry point on the module's code (`spmdfix.pipeline.fix_file`, what
`spmdfix fix` runs: the file's `[tool.spmdfix]` settings, `# noqa` comments, the same passes), with that
transform as the strategy, and returns the parsed result, so a codemod run and `spmdfix fix --strategy`
write the same bytes. A finding left unfixed is reported with `warn()` (and
why); a module with nothing to change raises `SkipFile`, and so does one `spmdfix fix` would not write
(its settings exclude it, or a `.gitignore` ignores it: libcst walks the paths itself). A finding that an spmd vmap of a module importing this one places here (a partial
run, `spmdfix.reaching`) is reported with `warn()` too; its fix edits the importer, which a codemod of this
module does not write (`spmdfix fix MODULE` does). Pass `--no-format`: libcst's default formatter
(black) would reformat every changed file.
"""

from __future__ import annotations

import argparse
import os
from abc import ABC
from pathlib import Path
from typing import ClassVar

import libcst as cst
from libcst.codemod import CodemodCommand, CodemodContext, SkipFile

from spmdfix import file_settings, pipeline
from spmdfix.config import Resolver
from spmdfix.discovery import excluded_as_given
from spmdfix.gitignore import gitignored
from spmdfix.model import (
    AUTO,
    DEFAULT_NEW_AXIS,
    STRATEGIES,
    Applicability,
    Finding,
    Options,
    Strategy,
    Transform,
    choose_fix,
    strategy_of,
)
from spmdfix.file_settings import FileSettings
from spmdfix.pipeline import Fixed
from spmdfix.positions import LineIndex
from spmdfix.settings import ConfigError


class _SpmdfixCommand(CodemodCommand, ABC):
    """Shared body of the commands: fix with one strategy, warn per unfixed finding, skip when unchanged.

    A direct subclass of `ABC`, so `libcst.tool list` does not offer it as a command.
    """

    STRATEGY: ClassVar[Strategy] = AUTO

    def __init__(
        self,
        context: CodemodContext,
        unsafe_fixes: bool | None = None,
        new_axis: str | None = None,
        strategy: str | None = None,
    ) -> None:
        super().__init__(context)
        self.strategy = strategy_of(strategy) if strategy is not None else self.STRATEGY
        self.unsafe_fixes = unsafe_fixes
        self.new_axis = new_axis
        self._resolver: Resolver | None = None

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument(
            "--unsafe-fixes",
            action="store_const",
            const=True,
            default=None,
            help="Also apply fixes spmdfix classes as unsafe (see `spmdfix check --show-fixes`)"
            " [default: the file's `unsafe-fixes` setting].",
        )

    def settings(self, path: Path | None) -> FileSettings:
        """The settings `spmdfix fix` uses for the file at `path` (its `[tool.spmdfix]`: rules selected and
        ignored, `new-axis`, `unsafe-fixes`), with this command's transform and the flags given. A bad
        configuration file is warned about and the defaults are used."""
        base = FileSettings()
        if path is not None:
            self._resolver = self._resolver or Resolver()
            try:
                base = file_settings.resolve(self._resolver, path)
            except ConfigError as err:
                self.warn(f"{err}; using the default settings")
        unsafe = base.options.unsafe_fixes if self.unsafe_fixes is None else self.unsafe_fixes
        options = Options(
            strategy=self.strategy,
            unsafe_fixes=unsafe,
            new_axis=self.new_axis or base.options.new_axis,
            unfixable=base.options.unfixable,
            layout_changing_fixes=base.options.layout_changing_fixes,
            per_file_ignores=base.options.per_file_ignores,
        )
        return FileSettings(options, base.enabled)

    def skipped(self, path: Path) -> str | None:
        """Why `spmdfix fix` would not touch the file at `path`, which libcst's own walk found: the excludes
        of its settings (`exclude`, `extend-exclude`, applied as `--force-exclude` applies them to a file
        named: the file and the directories between it and the working directory), or a `.gitignore`."""
        self._resolver = self._resolver or Resolver()
        resolver = self._resolver

        def excluded(absolute: str, is_dir: bool) -> bool:
            return resolver.for_dir(os.path.dirname(absolute)).excludes(absolute, is_dir)

        try:
            if excluded_as_given(path, excluded):
                return "excluded by the spmdfix settings (`exclude` / `extend-exclude`)"
        except ConfigError as err:
            self.warn(f"{err}; its excludes are not applied")
        if gitignored(path):
            return "ignored by .gitignore"
        return None

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        path = Path(self.context.filename) if self.context.filename else None
        if path is not None:
            why = self.skipped(path)
            if why is not None:
                raise SkipFile(why)  # what `spmdfix fix` on the directory would not write either
        settings = self.settings(path)
        # libcst decides about generated files itself (`--include-generated`): what it passes is fixed.
        # The project index: the vmaps of this module are followed into the modules it imports, as `spmdfix
        # fix` follows them (a collision at another module's shard_map is found, its fix reported).
        index = _index(path, settings) if path is not None and path.suffix != ".ipynb" else None
        _, fixed = pipeline.fix_file(path, tree.code, settings, include_generated=True, index=index)
        for error in fixed.errors:
            self.warn(error)
        for message in _unfixed_warnings(fixed, settings.options, path):
            self.warn(message)
        reached = _reached_warnings(path, fixed.text, settings)
        for message in reached:
            self.warn(message)
        # Nothing applied: leave the file alone (TransformSkip), whatever was found.
        if not fixed.changed:
            left = len(fixed.remaining) + len(reached)
            raise SkipFile(f"{left} finding{'s' if left != 1 else ''} left unfixed" if left else "no spmdfix finding")
        return cst.parse_module(fixed.text)


def _add_new_axis(arg_parser: argparse.ArgumentParser) -> None:
    arg_parser.add_argument(
        "--new-axis",
        default=None,
        help="Name of the size-1 mesh axis the add-axis transform adds"
        f" (default: the file's `new-axis` setting, else {DEFAULT_NEW_AXIS}).",
    )


def _index(path: Path, settings: FileSettings):
    from spmdfix.api import project_index

    return project_index(path, file_settings.project_root_of(path, settings))


def _unfixed_warnings(result: Fixed, options: Options, path: Path | None = None) -> list[str]:
    """One line per finding left in the fixed module: `row:col: CODE message (why it was not fixed)`; a
    finding its vmap places in another module (that module's shard_map) is located there
    (`other.py:row:col: ...`). A fix that edits other modules is not applied by a codemod, which changes the
    module it is given only: the line says which `spmdfix fix` applies it."""
    from spmdfix.files import text_of

    lines = LineIndex(result.text)
    out = []
    for finding in result.remaining:
        where = ""
        if finding.span.path:
            lines_there = LineIndex(text_of(finding.span.path) or "")
            row, col = lines_there.row_col(finding.span.start)
            where = f"{os.path.relpath(finding.span.path)}:"
        else:
            row, col = lines.row_col(finding.span.start)
        chosen = choose_fix(finding, options.strategy, unsafe_fixes=options.unsafe_fixes)
        if chosen is not None and path is not None and any(e.span.path for e in chosen.node_edits):
            edited = sorted({os.path.relpath(e.span.path or path) for e in chosen.node_edits})
            why = f"the {chosen.transform} fix edits {', '.join(edited)}; `spmdfix fix {os.path.relpath(path)}` applies it"
        else:
            why = _why_unfixed(finding, options)
        out.append(f"{where}{row}:{col}: {finding.code} {finding.message} (not fixed: {why})")
    return out


def _reached_warnings(path: Path | None, text: str, settings: FileSettings) -> list[str]:
    """One line per finding that an spmd vmap of another module of the project (an importer of this one)
    places in this module (`reaching.reached`): `row:col: CODE message (not fixed here: ...)`. A codemod
    changes the module it is given only; such a finding's fix is applied in the importer by `spmdfix fix`."""
    from spmdfix.prefilter.reached import may_hold_reached

    if path is None or path.suffix == ".ipynb" or not may_hold_reached(text):
        return []
    from spmdfix.reaching import reached

    found = reached(path, text, _index(path, settings), settings.options)
    reported, _ = pipeline.select(
        text,
        found.findings,
        settings.enabled,
        settings.options.unfixable,
        settings.options.layout_changing_fixes,
        per_file_ignores=settings.options.per_file_ignores,
    )
    lines = LineIndex(text)
    out = []
    for finding in reported:
        row, col = lines.row_col(finding.span.start)
        vmap = next((r.span.path for r in finding.related if r.span.path), "another module")
        why = f"its vmap is in {os.path.relpath(vmap)}; `spmdfix fix {os.path.relpath(path)}` fixes it there"
        out.append(f"{row}:{col}: {finding.code} {finding.message} (not fixed here: {why})")
    return out


def _why_unfixed(finding: Finding, options: Options) -> str:
    if not finding.fixes and not finding.refusals:
        return "spmdfix has no fix for this rule"
    candidate = choose_fix(finding, options.strategy, unsafe_fixes=True)
    if candidate is not None and candidate.applicability == Applicability.UNSAFE and not options.unsafe_fixes:
        return f"the {candidate.transform} fix is unsafe ({candidate.reason}); pass --unsafe-fixes to apply it"
    if candidate is not None:
        return f"the {candidate.transform} fix could not be applied"
    wanted = list(Transform) if options.strategy == AUTO else [options.strategy]
    reasons = [f"{r.transform}: {r.reason}" for r in finding.refusals if r.transform in wanted]
    return "; ".join(reasons) if reasons else f"no {options.strategy} fix is offered"


class RenameSpmdAxisCommand(_SpmdfixCommand):
    DESCRIPTION: str = "spmdfix rename: point vmap's spmd_axis_name at a free axis of the shard_map's mesh."
    STRATEGY = Transform.RENAME


class AddMeshAxisCommand(_SpmdfixCommand):
    DESCRIPTION: str = "spmdfix add-axis: prepend a size-1 mesh axis and use it as vmap's spmd_axis_name."
    STRATEGY = Transform.ADD_AXIS

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        _SpmdfixCommand.add_args(arg_parser)
        _add_new_axis(arg_parser)


class StripSpecEntriesCommand(_SpmdfixCommand):
    DESCRIPTION: str = "spmdfix strip: remove the spmd axis from the reached shard_map's in_specs and out_specs."
    STRATEGY = Transform.STRIP


class MovePlacementCommand(_SpmdfixCommand):
    DESCRIPTION: str = (
        "spmdfix move-placement: place a plain vmap's batch dimension off the Explicit axis a shard_map names "
        "(always unsafe: --unsafe-fixes)."
    )
    STRATEGY = Transform.MOVE_PLACEMENT


class AutoFixCommand(_SpmdfixCommand):
    DESCRIPTION: str = (
        "spmdfix auto: per finding, the first safe fix of rename, add-axis, strip (--strategy to choose)."
    )
    STRATEGY = AUTO

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        _SpmdfixCommand.add_args(arg_parser)
        _add_new_axis(arg_parser)
        arg_parser.add_argument(
            "--strategy",
            choices=[str(s) for s in STRATEGIES],
            default=None,
            help="Transform to apply (default: auto).",
        )


class LiftCapturesCommand(_SpmdfixCommand):
    DESCRIPTION: str = "spmdfix lift-captures: pass values a shard_map body captures from the vmap as operands."
    STRATEGY = Transform.LIFT_CAPTURES


class DisableCheckVmaCommand(_SpmdfixCommand):
    DESCRIPTION: str = (
        "spmdfix disable-check-vma: set check_vma=False on the shard_map (always unsafe: --unsafe-fixes)."
    )
    STRATEGY = Transform.DISABLE_CHECK_VMA


class DropSpmdAxisCommand(_SpmdfixCommand):
    DESCRIPTION: str = (
        "spmdfix drop-spmd-axis: remove spmd_axis_name from the vmap (safe on a resolved Auto mesh; the batch is then no longer placed on the axis)."
    )
    STRATEGY = Transform.DROP_SPMD_AXIS
