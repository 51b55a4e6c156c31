"""Loading golden cases (golden/<group>/<case>/): paths, options from case.toml, findings as text.

A case is one module (`input.py`, `expected.py`) or a tree: `input/` and `expected/` are small projects (a
package and a `run.py` defining `main()`), for what the analysis follows across modules.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from spmdfix.api import Options
from spmdfix.choice import chosen_each
from spmdfix.model import Finding, choose_fix, strategy_of
from spmdfix.positions import LineIndex

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"
TRANSFORM_GROUPS = ("rename", "add-axis", "strip", "move-placement", "lift-captures", "disable-check-vma", "drop-spmd-axis")
CORE_TRANSFORMS = ("rename", "add-axis", "strip")


@dataclass(frozen=True)
class Case:
    group: str
    name: str
    path: Path
    config: dict
    tree: bool = False

    @property
    def id(self) -> str:
        """The case's folder under golden/: `group/name`."""
        return f"{self.group}/{self.name}"

    @property
    def codes(self) -> tuple[str, ...]:
        """The rule codes findings.txt records for the input, sorted, each once; () for a clean case (or one
        whose findings.txt is yet to be written). The code is a line's second field, after the position."""
        if not self.findings.exists():
            return ()
        lines = self.findings.read_text(encoding="utf-8").splitlines()
        return tuple(sorted({line.split()[1] for line in finding_lines(lines)}))

    @property
    def test_id(self) -> str:
        """The pytest id of the case: its `id` with its rule codes, e.g. `strip/helper_and_jit[SPMD001,SPMD002]`,
        so that `pytest -k SPMD004` selects every test of every case whose findings name SPMD004."""
        return f"{self.id}[{','.join(self.codes)}]" if self.codes else self.id

    @property
    def input(self) -> Path:
        """The module run and fixed: `input.py`, or a tree's `input/run.py`."""
        return self.path / "input" / "run.py" if self.tree else self.path / "input.py"

    @property
    def expected(self) -> Path:
        return self.path / "expected" / "run.py" if self.tree else self.path / "expected.py"

    @property
    def findings(self) -> Path:
        return self.path / "findings.txt"

    @property
    def unfollowed(self) -> Path:
        """The SPMD910 records of the input (`unfollowed_text`), kept for the `unfollowed/` group's cases."""
        return self.path / "unfollowed.txt"

    @property
    def options(self) -> Options:
        default = self.group if self.group in TRANSFORM_GROUPS else "auto"
        return Options(
            strategy=strategy_of(self.config.get("strategy", default)),
            unsafe_fixes=bool(self.config.get("unsafe_fixes", False)),
        )

    @property
    def runtime(self) -> dict | None:
        return self.config.get("runtime")


def _config(folder: Path) -> dict:
    toml = folder / "case.toml"
    return tomllib.loads(toml.read_text(encoding="utf-8")) if toml.exists() else {}


def cases() -> list[Case]:
    """The one-module cases."""
    found = []
    for input_py in sorted(GOLDEN.glob("*/*/input.py")):
        folder = input_py.parent
        found.append(Case(folder.parent.name, folder.name, folder, _config(folder)))
    return found


def tree_cases() -> list[Case]:
    """The multi-module cases: `input/` and `expected/` trees, each with a `run.py`."""
    found = []
    for run_py in sorted(GOLDEN.glob("*/*/input/run.py")):
        folder = run_py.parent.parent
        found.append(Case(folder.parent.name, folder.name, folder, _config(folder), tree=True))
    return found


def modules(root: Path) -> list[Path]:
    """The `.py` files of a tree, sorted by relative path."""
    return sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).parts)


FIX_PREFIX = "    -> "  # a findings.txt line snapshotting a finding's fix (`fix_line`), not a finding


def finding_lines(lines: list[str]) -> list[str]:
    """The findings of findings.txt lines: every non-blank line but the fix snapshots under them."""
    return [line for line in lines if line.strip() and not line.startswith(FIX_PREFIX)]


def fix_lines(findings: list[Finding], options: Options) -> dict[int, str]:
    """Per finding (by position in `findings`) with a fix: the line snapshotting it under the finding in
    findings.txt, `    -> TRANSFORM (CLASS): PLACEMENT`. The fix is the one a run with `options` applies
    (`choose_fix`, judged as a set: `chosen_each`), or, when it applies none, the one it would apply with
    `--unsafe-fixes`, marked `not applied`; a choice that waits for
    the next pass is marked so."""
    picks = [(f, choose_fix(f, options.strategy, options.unsafe_fixes)) for f in findings]
    out = {}
    for i, ((finding, pick), fix) in enumerate(zip(picks, chosen_each(picks))):
        mark = ""
        if fix is None and pick is not None:
            fix, mark = pick, ", waits for the next pass"  # a drop that waits (`choice.chosen_each`)
        elif fix is None:
            fix, mark = choose_fix(finding, options.strategy, unsafe_fixes=True), ", not applied"
        if fix is not None:
            out[i] = f"{FIX_PREFIX}{fix.transform} ({fix.applicability}{mark}): {fix.placement}\n"
    return out


def unfollowed_text(source: str, places) -> str:
    """The places the analysis stopped at (`model.Unfollowed`, SPMD910) as `row:col SPMD910 what` lines, the
    vmap they were reached from after `<- vmap row:col` (`<- plain vmap row:col` for a vmap without
    `spmd_axis_name`: `Unfollowed.spmd`)."""
    lines = LineIndex(source)
    out = []
    for place in places:
        row, col = lines.row_col(place.span.start)
        vrow, vcol = lines.row_col(place.vmap.start)
        kind = "vmap" if place.spmd else "plain vmap"
        out.append(f"{row}:{col} SPMD910 {place.what} <- {kind} {vrow}:{vcol}\n")
    return "".join(out)


def findings_text(source: str, findings: list[Finding], options: Options | None = None) -> str:
    """Findings as golden findings.txt lines: `row:col CODE message`, each followed (with `options`) by the
    snapshot of its fix (`fix_lines`)."""
    lines = LineIndex(source)
    fixes = fix_lines(findings, options) if options is not None else {}
    out = []
    for i, f in enumerate(findings):
        row, col = lines.row_col(f.span.start)
        out.append(f"{row}:{col} {f.code} {f.message}\n")
        out.append(fixes.get(i, ""))
    return "".join(out)
