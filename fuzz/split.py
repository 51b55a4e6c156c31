"""A generated program (fuzz/gen.py) split into a package of three modules, as JAX projects lay themselves out.

`split(source, package)` returns `{"config": ..., "model": ..., "train": ...}`: the mesh, the axis constants and
the other module-level values in `config`, the functions of the program (the block, the shard_map body, helpers,
classes) in `model`, and the vmapped `apply`, `main` and the reference copy (`ref_*`) in `train`. Each module
imports from the ones below it the names it uses (`from <package>.config import mesh, X`, or relatively:
`from .config import mesh, X`), so the program computes what the single module computes. Pure.

A statement goes to its default module, then down to the lowest module of any statement that uses a name it
binds (a helper the mesh is built with goes to `config`), so that no module imports one above it; the order of
the statements within a module is the program's. Every module keeps the program's imports (an unused import
changes nothing spmdfix reads).
"""

from __future__ import annotations

import ast

MODULES = ("config", "model", "train")  # lowest first: a module imports only from those before it
_TRAIN = {"apply", "main"}


def split(source: str, package: str, relative: bool = False) -> dict[str, str]:
    """The three modules' texts (module name -> source). Raises SyntaxError when `source` does not parse."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    imports: list[str] = []
    statements: list[tuple[ast.stmt, str, set[str]]] = []  # (statement, its text, the names it binds)
    for node in tree.body:
        text = "".join(lines[_first_line(node) - 1 : node.end_lineno])
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.append(text)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring: the title goes to train
        else:
            statements.append((node, text, _binds(node)))
    defined = {name: i for i, (_, _, names) in enumerate(statements) for name in names}
    level = [_default_level(node, names) for node, _, names in statements]
    uses = [{defined[n] for n in _loads(node) if n in defined and defined[n] != i} for i, (node, _, _) in enumerate(statements)]
    changed = True
    while changed:  # each definition as low as its lowest user
        changed = False
        for i, used in enumerate(uses):
            for j in used:
                if level[j] > level[i]:
                    level[j] = level[i]
                    changed = True
    docstring = ast.get_docstring(tree)
    out = {}
    for k, module in enumerate(MODULES):
        mine = [i for i in range(len(statements)) if level[i] == k]
        needed: dict[int, set[str]] = {}
        for i in mine:
            for j in uses[i]:
                if level[j] < k:
                    needed.setdefault(level[j], set()).update(_loads(statements[i][0]) & statements[j][2])
        head = [f'"""{docstring} ({module})."""\n'] if docstring else []
        head += imports
        for lower in sorted(needed):
            where = f".{MODULES[lower]}" if relative else f"{package}.{MODULES[lower]}"
            head.append(f"from {where} import {', '.join(sorted(needed[lower]))}\n")
        body = [statements[i][1] for i in mine]
        out[module] = "".join(head) + "\n\n" + "\n\n".join(t.rstrip("\n") + "\n" for t in body)
    return out


def _first_line(node: ast.stmt) -> int:
    """The statement's first line, its decorators included."""
    decorators = getattr(node, "decorator_list", None) or []
    return min([node.lineno, *(d.lineno for d in decorators)])


def _binds(node: ast.stmt) -> set[str]:
    """The module-level names a statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return {n.id for t in targets if t is not None for n in ast.walk(t) if isinstance(n, ast.Name)}


def _loads(node: ast.stmt) -> set[str]:
    """Every name the statement reads (in any scope inside it: a function's body reads module names)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _default_level(node: ast.stmt, names: set[str]) -> int:
    """`train` for the vmapped function, `main` and the reference; `model` for the other functions and classes;
    `config` for the other module-level values."""
    if names & _TRAIN or any(n.lower().startswith("ref_") for n in names):
        return 2
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return 1
    return 0
