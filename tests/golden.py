"""Loading golden cases (golden/<group>/<case>/): paths, options from case.toml, findings as text."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from spmdfix.api import Options
from spmdfix.model import Finding, Strategy
from spmdfix.positions import LineIndex

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"
TRANSFORM_GROUPS = ("rename", "add-axis", "strip", "lift-captures", "disable-check-vma")
CORE_TRANSFORMS = ("rename", "add-axis", "strip")


@dataclass(frozen=True)
class Case:
    group: str
    name: str
    path: Path
    config: dict

    @property
    def id(self) -> str:
        return f"{self.group}/{self.name}"

    @property
    def input(self) -> Path:
        return self.path / "input.py"

    @property
    def expected(self) -> Path:
        return self.path / "expected.py"

    @property
    def findings(self) -> Path:
        return self.path / "findings.txt"

    @property
    def options(self) -> Options:
        default = self.group if self.group in TRANSFORM_GROUPS else "auto"
        return Options(
            strategy=Strategy(self.config.get("strategy", default)),
            unsafe_fixes=bool(self.config.get("unsafe_fixes", False)),
        )

    @property
    def runtime(self) -> dict | None:
        return self.config.get("runtime")


def cases() -> list[Case]:
    found = []
    for input_py in sorted(GOLDEN.glob("*/*/input.py")):
        folder = input_py.parent
        toml = folder / "case.toml"
        config = tomllib.loads(toml.read_text(encoding="utf-8")) if toml.exists() else {}
        found.append(Case(folder.parent.name, folder.name, folder, config))
    return found


def findings_text(source: str, findings: list[Finding]) -> str:
    """Findings as golden findings.txt lines: `row:col CODE message`."""
    lines = LineIndex(source)
    out = []
    for f in findings:
        row, col = lines.row_col(f.span.start)
        out.append(f"{row}:{col} {f.code} {f.message}\n")
    return "".join(out)
