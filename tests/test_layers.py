"""The layers of ARCHITECTURE.md hold in the code: every import of a spmdfix module goes to its own layer or below.

The layer list is read from ARCHITECTURE.md's "## Layers" section (one numbered line a layer, module and
package names in backticks), so the document and the check cannot drift apart. Imports are read from each
module's `ast`: those inside functions count, those under `if TYPE_CHECKING:` do not (never run).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "spmdfix"


def layer_table(text: str) -> dict[str, int]:
    """{dotted name under spmdfix: layer number} from the numbered list of the "## Layers" section of `text`.

    Raises ValueError when the section or its list is missing."""
    match = re.search(r"^## Layers\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if match is None:
        raise ValueError("ARCHITECTURE.md has no '## Layers' section")
    table: dict[str, int] = {}
    for number, body in re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |^\n|\Z)", match.group(1), re.S | re.M):
        for name in re.findall(r"`([\w.]+)`", body):
            table[name] = int(number)
    if not table:
        raise ValueError("the '## Layers' section lists no layer")
    return table


def layer_of(module: str, table: dict[str, int]) -> int | None:
    """The layer of `module` (dotted, without the leading `spmdfix.`): that of the most specific name of the
    table that is the module or a package above it; None when no name places it. The package `spmdfix`
    itself counts as the base: its `__init__` imports nothing when loaded (its public names load on first
    use), so `import spmdfix` (for `__version__`, `__file__`) brings in no layer."""
    if module == "":
        return min(table.values())
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if name in table:
            return table[name]
    return None


def module_names(package: Path) -> dict[str, Path]:
    """{dotted name under spmdfix ("" for the package itself): file} of every module of the package."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", "")
            if name == "TYPE_CHECKING":
                inside |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return inside


def imports_of(module: str, source: str, known: set[str]) -> list[tuple[int, str]]:
    """(line, module under spmdfix) of each spmdfix module that `source` (the text of `module`) imports, run
    at some point: top level and inside functions, `if TYPE_CHECKING:` blocks aside. `from spmdfix.x import y`
    counts `x.y` when that is a module (`known`), else `x`."""
    tree = ast.parse(source)
    skipped = _type_checking_nodes(tree)
    package = module.rpartition(".")[0]  # (relative imports are resolved against the module's package)
    out: list[tuple[int, str]] = []

    def add(line: int, dotted: str) -> None:
        if dotted == "spmdfix" or dotted.startswith("spmdfix."):
            out.append((line, dotted.removeprefix("spmdfix").removeprefix(".")))

    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = ("spmdfix." + package if package else "spmdfix").split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                rel = full.removeprefix("spmdfix.")
                add(node.lineno, full if rel in known else base)
    return out


def violations(table: dict[str, int], modules: dict[str, Path]) -> list[str]:
    """Each import that goes to a higher layer, and each module no name of the table places."""
    known = set(modules)
    out = []
    for module, path in modules.items():
        if module == "":
            continue
        own = layer_of(module, table)
        if own is None:
            out.append(f"spmdfix.{module}: no layer of ARCHITECTURE.md places it")
            continue
        source = path.read_text(encoding="utf-8")
        # (an __init__ resolves relative imports against itself)
        name = module if path.name != "__init__.py" else module + ".__init__"
        for line, target in imports_of(name, source, known):
            theirs = layer_of(target, table)
            if theirs is not None and theirs > own:
                out.append(f"spmdfix.{module}:{line} (layer {own}) imports spmdfix.{target} (layer {theirs})")
    return out


def test_every_import_goes_to_its_own_layer_or_below() -> None:
    table = layer_table((ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    assert violations(table, module_names(PACKAGE)) == []


def test_every_name_of_the_layer_table_is_a_module() -> None:
    table = layer_table((ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    modules = set(module_names(PACKAGE))
    assert sorted(name for name in table if name not in modules) == []


def test_the_check_finds_an_upward_import_and_an_unplaced_module(tmp_path: Path) -> None:
    """A check that cannot fail proves nothing: on a made-up package it finds an upward import inside a
    function, skips one under TYPE_CHECKING, follows a relative import, and names a module no layer places."""
    package = tmp_path / "spmdfix"
    (package / "low").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "low" / "__init__.py").write_text("from . import deep\n")
    (package / "low" / "deep.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from spmdfix import high\n"
        "def f():\n    from ..high import g\n"
    )
    (package / "high.py").write_text("from spmdfix.low import deep\n")
    (package / "stray.py").write_text("")
    table = layer_table("## Layers\n\n1. base: `low`;\n2. top: `high`.\n\n## Next\n")
    assert table == {"low": 1, "high": 2}
    found = violations(table, module_names(package))
    assert found == [
        "spmdfix.low.deep:5 (layer 1) imports spmdfix.high (layer 2)",
        "spmdfix.stray: no layer of ARCHITECTURE.md places it",
    ]
