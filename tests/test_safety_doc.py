"""docs/safety.md names, for every safety rule, a runnable safe golden case and a demonstration."""

from __future__ import annotations

import re
import tomllib

from golden import GOLDEN, ROOT

DOC = ROOT / "docs" / "safety.md"
ROW = re.compile(r"^\| (\d+) \| ([a-z-]+) \| (.+?) \| ([a-z-]+/\w+) \| (\w+) \| (.+?) \|$")


def rows():
    return [m.groups() for line in DOC.read_text(encoding="utf-8").splitlines() if (m := ROW.match(line))]


def test_every_row_names_existing_runnable_cases() -> None:
    table = rows()
    assert len(table) >= 15
    for number, transform, _rule, safe_case, demo, outcome in table:
        case = GOLDEN / safe_case
        config = tomllib.loads((case / "case.toml").read_text(encoding="utf-8"))
        assert "runtime" in config, f"row {number}: {safe_case} is not runnable"
        assert config["applicability"] == "safe", f"row {number}: {safe_case} is not a safe fix"
        demo_dir = ROOT / "safety" / demo
        assert (demo_dir / "demo.py").exists(), f"row {number}: safety/{demo} missing"
        expect = tomllib.loads((demo_dir / "case.toml").read_text(encoding="utf-8"))["expect"]
        assert expect == ("raises" if outcome.startswith("raises") else "differs"), f"row {number}"


def test_every_demonstration_is_in_the_table() -> None:
    named = {row[4] for row in rows()}
    on_disk = {p.parent.name for p in (ROOT / "safety").glob("*/demo.py")}
    assert on_disk <= named, on_disk - named
