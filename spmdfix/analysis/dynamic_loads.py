"""The modules a module loads by name at run time (`importlib.import_module`, `__import__`), read from its tree
(issue 20: a dynamic load in one test helper used to make every cross-module fix of the project unsafe).

A load whose module name is a string literal, or a module-level constant string bound once and never rebound,
names exactly one module: it is a `NamedLoad`, which the project's import graph counts as an `import` of that
module (`spmdfix.import_scan`) and which the cross-module judgment reads as one (`analysis.importers`: the
reads of the module object the call returns, judged by the same allowlist as a static import's). These are
named loads:

- `importlib.import_module(NAME)` and `importlib.import_module(.NAME, PACKAGE)` (PACKAGE a literal, a module
  constant or `__package__`; the relative name resolved as `importlib.util.resolve_name` does), under any
  alias of importlib or of `import_module`; the call returns the named module;
- `__import__(NAME)`, `builtins.__import__(...)`, `importlib.__import__(...)` with `level` 0 (absent) and
  `fromlist` absent or a literal tuple or list of strings (`globals` and `locals` may be anything: Python reads
  them only for a relative import); it returns the top-level package of NAME, or NAME itself when `fromlist`
  is not empty (and imports NAME's submodules named in `fromlist`).

Every other read of importlib (any alias) or of `__import__` is an unresolved site (`DynamicLoads.unresolved`):
a name that is not a literal (a variable, an f-string, a concatenation), `importlib.util`'s loaders
(`spec_from_file_location`, `module_from_spec`), importlib or `import_module` itself passed on or stored, a
string equal to `'__import__'` (`getattr(builtins, '__import__')`) and any other string holding `__import__`
but a bare docstring (`eval("__import__('m')")`). So is every read of `sys.modules` (`sys.modules['pkg.config']`
returns a loaded module object, by a name the scan does not judge) and of `runpy` (`runpy.run_module('pkg.config')`
executes the module again and returns its globals): both reach a module's values without an import. So do
`pkgutil.resolve_name('pkg.config:MESH')` (any read of pkgutil but `extend_path`, `iter_modules`,
`walk_packages` and `get_data`, which return no module's values), `pydoc.locate('pkg.config.MESH')` (any read
of pydoc), `inspect.getmodule(f)` and `inspect.getclosurevars(f)` (the module of any object, and the globals a
function reads), and a function's or frame's globals (`forward.__globals__['MESH']`, `frame.f_globals`, also
spelled as a string, `getattr(f, '__globals__')`): breaker19 a25-a28, s02, s09, where add-axis (or strip)
stayed safe while `pkgutil.resolve_name('pkg.config:MESH').devices.shape[0]` went 2 -> 1. Not loads at all: `importlib.metadata` and
`importlib.resources` (they read package data), and `importlib.util.find_spec(...)` used only as a condition
(`find_spec('torch') is None`: it returns a spec, never a module object).

Code run from a string is a load too (breaker19 a41: `exec('from pkg.config import MESH', ns)` in
pkg/reader.py, then `ns['MESH'].devices.shape[0]`, went 2 -> 1 under a safe add-axis). A call of the builtin
`exec`, `eval` or `compile` (by its name, unless a scope around the call binds that name: `def eval(d): ...`,
a parameter `compile`; or as an attribute of `builtins` / `__builtins__`, or a name imported from `builtins`)
whose source is a string literal (or a module constant) is an `ExecutedText`: its text is parsed, and the
modules it imports (statements and its own named loads) and the names it reads without binding them are
recorded, for the scan to count as imports and the judgement to name the call (`analysis.importers`). A text
that does not parse runs nothing. Its source not a literal (a variable, an f-string, a code object, a file's
contents), the text holding an unresolved load itself, or the builtin read any other way (passed on, stored:
`map(eval, xs)`), it is an unresolved site: the string may import any module, whatever the module around it
imports, since `exec` and `eval` hand it the builtins (`__import__`) even with `globals={}`.

Names are matched by text, not by scope (the scan has no scopes): a local variable of the same name as an
alias of importlib is read as importlib (unresolved: never a missed load); only the builtins run on strings are
looked up in the scopes around the call (`_shadowed`: jax's tests bind `eval` and `compile` themselves). Pure:
no I/O.
"""

from __future__ import annotations

import ast
import builtins
from collections import deque
from dataclasses import dataclass, field

from spmdfix.perf import frozen

_NOT_LOADING = ("importlib.metadata", "importlib.resources")
_IMPORT_MODULE = "importlib.import_module"
_FIND_SPEC = "importlib.util.find_spec"
_DUNDER = "__import__"
_DUNDER_PARAMS = ("name", "globals", "locals", "fromlist", "level")
# Other ways to reach a module's values by name without an import (module doc): any read is an unresolved site.
_SYS_MODULES = "sys.modules"
_RUNPY = "runpy"
# Further modules whose functions return a module or its values by name or by object (module doc): a read of one
# of them is an unresolved site, but for the parts listed as harmless (`_other_loader_read`).
_PKGUTIL, _PYDOC, _INSPECT = "pkgutil", "pydoc", "inspect"
_OTHER_LOADERS = (_RUNPY, _PKGUTIL, _PYDOC, _INSPECT)
_PKGUTIL_HARMLESS = frozenset({"extend_path", "iter_modules", "walk_packages", "get_data", "ModuleInfo"})
_INSPECT_LOADING = frozenset({"getmodule", "getclosurevars"})
# Attributes holding a module's namespace (a function's globals, a frame's), read off any object.
_GLOBALS_ATTRIBUTES = frozenset({"__globals__", "f_globals"})
# The builtins that run code given as a string (module doc), and the names the builtins module goes by.
_EXECUTORS = frozenset({"exec", "eval", "compile"})
_BUILTINS = "builtins"
_BUILTIN_NAMES = frozenset(dir(builtins))
# What may stand right after a read of one of those builtins in code (`runs_text`): a call, an argument or item
# end, an annotation's or a slice's colon, the end of the line.
_AFTER_READ = "(),]:;}"
# What a line holds right before a word that binds it rather than reads it (`def compile(`, `import x as eval`);
# `import` and `from` too at the start of an import statement.
_BINDING_LEADS = ("def", "class", "as")


@frozen(slots=True)
class NamedLoad:
    """One load of a module named by a literal: `node` the call; `level` > 0 for a name relative to the
    module's own package when that package was not given (`import_module('.x', __package__)` read by the
    scan), else 0; `module` the module imported (absolute when `level` is 0, else the part after the dots,
    possibly ""); `fromlist` the names of `__import__`'s fromlist; `returns` the dotted name of the module
    object the call returns (absolute; "" when `level` > 0)."""

    node: ast.Call
    level: int
    module: str
    fromlist: tuple[str, ...]
    returns: str


@frozen(slots=True)
class ExecutedText:
    """One call of `exec` / `eval` / `compile` whose source is a literal (module doc): `node` the call; `imports`
    the modules its text imports, each (level, module, names) as an import statement gives them (`import a.b`
    -> (0, "a.b", ()); `from . import x` -> (1, "", ("x",)); a named load of the text -> its module and
    fromlist); `reads` the names the text reads and does not bind itself, builtins left out (`ns['MESH']` read
    after the call is not the text's: the call itself is the judgement's place, `analysis.importers`)."""

    node: ast.Call
    imports: tuple[tuple[int, str, tuple[str, ...]], ...]
    reads: frozenset[str]


@dataclass(slots=True)
class DynamicLoads:
    """What `dynamic_loads` found: `named` loads; `unresolved` sites that may load any module (each the
    read of importlib or `__import__`, or the call given the string `'__import__'`, or a call running a string
    not written); `by_importlib` whether one of them reads importlib; `importlib_imports` the statements
    importing importlib or a part of it; `executed` the calls running a literal text (`ExecutedText`)."""

    named: list[NamedLoad] = field(default_factory=list)
    unresolved: list[ast.AST] = field(default_factory=list)
    by_importlib: bool = False
    importlib_imports: list[ast.stmt] = field(default_factory=list)
    executed: list[ExecutedText] = field(default_factory=list)


def may_run_text(text: str) -> bool:
    """Whether a module's source text may read `exec`, `eval` or `compile` of the builtins (`runs_text`)."""
    return runs_text(text)


def runs_text(text: str | bytes) -> bool:
    """Whether a module's text (str or bytes) may read `exec`, `eval` or `compile` of the builtins: the word
    standing alone on its line (not an attribute, `re.compile`; not inside a one-line string or a comment:
    `_code_at`), not defined or imported there (`def compile(`, `import builtins`), followed by what follows a
    read (`_AFTER_READ`: a call, an argument, the end of the line); or `builtins` (`__builtins__`) read so, or
    followed by one of them as its attribute, or `from builtins import`, `import builtins as b`. The cheap test
    before a parse (the import scan asks it of every module): each occurrence of the words is looked at, few
    per module. Prose in a docstring ("train, eval, decode") may pass it (a parse for nothing); a read spelled
    otherwise (`x = eval if a else b`) does not, and is not seen (docs/safety.md)."""
    newline = "\n" if isinstance(text, str) else b"\n"
    for word in ("exec", "eval", "compile", "builtins"):
        token = word if isinstance(text, str) else word.encode()
        at = text.find(token)
        while at >= 0:
            start = text.rfind(newline, 0, at) + 1
            stop = text.find(newline, at)
            line = text[start : stop if stop >= 0 else len(text)]
            if _read_at(line if isinstance(line, str) else line.decode("latin-1"), at - start, word):
                return True
            at = text.find(token, at + len(token))
    return False


def _read_at(line: str, at: int, word: str) -> bool:
    """Whether `word` at column `at` of `line` may be a read of a builtin running a string (`runs_text`)."""
    end = at + len(word)
    module = word == "builtins"
    if module and line[at - 2 : at] == "__" and line[end : end + 2] == "__":
        at, end = at - 2, end + 2  # (`__builtins__`)
    before, after = line[at - 1 : at] if at else "", line[end : end + 1]
    if before.isalnum() or before in ("_", ".", "'", '"', "`", "-") or after.isalnum() or after == "_":
        return False
    lead = line[:at]
    if not _code_at(lead):
        return False
    rest = line[end:].strip(" \t\r")
    last = lead.rstrip().rsplit(None, 1)[-1:]
    statement = lead.lstrip().startswith(("import ", "from "))  # (not `yield from eval(s)`)
    if last and (last[0] in _BINDING_LEADS or (statement and last[0] in ("import", "from"))):
        # (`from builtins import ...`, `import builtins as b`: its functions read by other names)
        return module and (last[0] == "from" and rest.startswith("import") or last[0] == "import" and rest.startswith("as"))
    if module and rest.startswith("."):
        return rest[1:].lstrip().startswith(("exec", "eval", "compile"))
    return not rest or rest[0] in _AFTER_READ or (module and rest[0] == "[")


def _code_at(lead: str) -> bool:
    """Whether the end of `lead` (a line's text before a word) stands in code: not in a comment, not inside a
    string opened on the line (`"seconds to compile (%.2fs)"`), unless inside a replacement field of it
    (`f"{eval(s)}"`). Triple quotes are passed over (a docstring's end before code, `doc.\"\"\"; eval(s)`, is
    read as code)."""
    quote = ""
    fields = 0  # (replacement fields open in the string: `{` not closed yet)
    i = 0
    while i < len(lead):
        ch = lead[i]
        if lead[i : i + 3] in ('"""', "'''"):
            i += 3
            continue
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote, fields = "", 0
            elif ch == "{":
                fields += 1
            elif ch == "}" and fields:
                fields -= 1
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "#":
            return False
        i += 1
    return not quote or fields > 0


def may_load_by_name(text: str) -> bool:
    """Whether a module's source text may hold a dynamic load at all (the cheap test before a parse)."""
    return may_run_text(text) or (
        "importlib" in text
        or _DUNDER in text
        or "modules" in text
        or _RUNPY in text
        or _PKGUTIL in text
        or _PYDOC in text
        or "getmodule" in text
        or "getclosurevars" in text
        or "_globals" in text  # (`__globals__`, `f_globals`)
    )


def dynamic_loads(tree: ast.Module, package: str | None) -> DynamicLoads:
    """The dynamic loads of the module `tree` (module doc), each list in source order. package: the dotted package the module belongs to
    (`__package__`: for `pkg/__init__.py` and `pkg/mod.py` both "pkg"; "" for a top-level module), or None
    when not known (a relative name is then kept relative: `NamedLoad.level`)."""
    out = DynamicLoads()
    nodes, parents = _walk(tree)
    aliases = _importlib_aliases(nodes, out)
    constants = _module_constants(tree, nodes)
    others = _other_loader_aliases(nodes)
    scopes: dict[int, set[str]] = {}  # (`_shadowed`: each scope's own names, once)
    for node in nodes:
        if isinstance(node, ast.Name) and node.id in aliases:
            _importlib_read(node, aliases[node.id], parents, constants, package, out)
        elif isinstance(node, ast.Name) and node.id in others and isinstance(node.ctx, ast.Load):
            if others[node.id].startswith(_BUILTINS):
                _builtins_read(node, others[node.id], parents, constants, package, out, {*aliases, *others})
            else:
                _other_loader_read(node, others[node.id], parents, out)
        elif isinstance(node, ast.Name) and node.id in _EXECUTORS and isinstance(node.ctx, ast.Load):
            if not _shadowed(node, parents, scopes):
                _executor_read(node, parents, constants, package, out, {*aliases, *others})
        elif (isinstance(node, ast.Name) and node.id == _DUNDER) or (
            isinstance(node, ast.Attribute) and node.attr == _DUNDER
        ):
            _dunder_read(node, parents, constants, out)
        elif isinstance(node, ast.Attribute) and node.attr in _GLOBALS_ATTRIBUTES:
            out.unresolved.append(node)
        elif isinstance(node, ast.Constant) and node.value in _GLOBALS_ATTRIBUTES:
            up = parents.get(id(node))
            out.unresolved.append(up if isinstance(up, ast.Call) else node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _DUNDER in node.value:
            up = parents.get(id(node))
            if not isinstance(up, ast.Expr):  # (a bare string, a docstring, runs nothing)
                out.unresolved.append(up if isinstance(up, ast.Call) else node)
    out.named.sort(key=lambda load: (load.node.lineno, load.node.col_offset))
    out.executed.sort(key=lambda text: (text.node.lineno, text.node.col_offset))
    out.unresolved.sort(key=lambda node: (node.lineno, node.col_offset))
    return out


def _walk(tree: ast.Module) -> tuple[list[ast.AST], dict[int, ast.AST]]:
    """Every node of `tree` in `ast.walk`'s order, and each node's parent by id: one walk that the passes
    below share (walking the tree once per pass was most of the import graph's time on a large project)."""
    nodes: list[ast.AST] = []
    parents: dict[int, ast.AST] = {}
    todo = deque([tree])
    children = ast.iter_child_nodes
    while todo:
        node = todo.popleft()
        nodes.append(node)
        for child in children(node):
            parents[id(child)] = node
            todo.append(child)
    return nodes, parents


def resolve_name(name: str, package: str) -> str | None:
    """The absolute module of a relative `name` ('.x', '..y.z') in `package`, as `importlib.util.resolve_name`
    gives it; None when it climbs above the top-level package."""
    level = len(name) - len(name.lstrip("."))
    bits = package.rsplit(".", level - 1) if package else []
    if len(bits) < level or not package:
        return None
    rest = name[level:]
    return f"{bits[0]}.{rest}" if rest else bits[0]


def _importlib_aliases(nodes: list[ast.AST], out: DynamicLoads) -> dict[str, str]:
    """The names bound to importlib or a part of it anywhere in the module of `nodes` (`_walk`) -> what they
    are (`il` -> 'importlib', `import_module` -> 'importlib.import_module'); the import statements go to
    `out`."""
    aliases: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "importlib":
                    continue
                out.importlib_imports.append(node)
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    aliases["importlib"] = "importlib"
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "importlib":
            out.importlib_imports.append(node)
            for alias in node.names:
                if alias.name == "*":
                    out.unresolved.append(node)  # (`from importlib import *`: import_module under its own name)
                    out.by_importlib = True
                    aliases["import_module"] = _IMPORT_MODULE
                    aliases[_DUNDER] = "importlib.__import__"
                else:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def _other_loader_aliases(nodes: list[ast.AST]) -> dict[str, str]:
    """The names bound to `sys`, `sys.modules`, runpy, pkgutil, pydoc, inspect or builtins (or a part of one: of
    builtins, only the functions running a string; `__builtins__` always) anywhere in
    the module of `nodes` (`_walk`) -> what they are (`import sys as s` -> 's': 'sys'; `from sys import modules`
    -> 'modules': 'sys.modules'; `from pkgutil import resolve_name as rn` -> 'rn': 'pkgutil.resolve_name')."""
    aliases: dict[str, str] = {"__builtins__": _BUILTINS}  # (a dict in an imported module, the module in a script)
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if alias.name in ("sys", _BUILTINS) or top in _OTHER_LOADERS:
                    aliases[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module == _BUILTINS:
            for alias in node.names:
                if alias.name == "*":
                    continue  # (the builtins it binds are the builtins: read by their own names anyway)
                if alias.name in _EXECUTORS:
                    aliases[alias.asname or alias.name] = f"{_BUILTINS}.{alias.name}"
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module in ("sys", *_OTHER_LOADERS):
            for alias in node.names:
                if alias.name == "*":  # (the names it binds, read by their own names)
                    aliases.update(_STAR_BOUND.get(node.module, {}))
                elif node.module != "sys" or alias.name == "modules":
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


# The loading names a star import of each module binds (`_other_loader_aliases`).
_STAR_BOUND = {
    "sys": {"modules": _SYS_MODULES},
    _RUNPY: {"run_module": _RUNPY, "run_path": _RUNPY},
    _PKGUTIL: {"resolve_name": "pkgutil.resolve_name", "get_loader": "pkgutil.get_loader",
               "find_loader": "pkgutil.find_loader", "get_importer": "pkgutil.get_importer"},
    _PYDOC: {"locate": "pydoc.locate", "safeimport": "pydoc.safeimport", "importfile": "pydoc.importfile"},
    _INSPECT: {"getmodule": "inspect.getmodule", "getclosurevars": "inspect.getclosurevars"},
}


def _other_loader_read(node: ast.Name, what: str, parents: dict, out: DynamicLoads) -> None:
    """One read of a name bound to `sys` or another loader (`_OTHER_LOADERS`): an unresolved site when it reads
    `sys.modules`, runpy, pydoc, pkgutil but its harmless parts, or inspect's `getmodule` / `getclosurevars`
    (`sys.argv`, `sys.path`, `pkgutil.extend_path`, `inspect.signature` are not loads)."""
    top: ast.expr = node
    while isinstance(up := parents.get(id(top)), ast.Attribute) and up.value is top:
        what, top = f"{what}.{up.attr}", up
        if what == _SYS_MODULES:
            break
    parts = what.split(".")
    if (
        what == _SYS_MODULES
        or what.startswith(_SYS_MODULES + ".")
        or parts[0] in (_RUNPY, _PYDOC)
        or (parts[0] == _PKGUTIL and not (len(parts) > 1 and parts[1] in _PKGUTIL_HARMLESS))
        or (parts[0] == _INSPECT and len(parts) > 1 and parts[1] in _INSPECT_LOADING)
    ):
        out.unresolved.append(top)


def _builtins_read(
    node: ast.Name,
    what: str,
    parents: dict,
    constants: dict[str, str],
    package: str | None,
    out: DynamicLoads,
    loaders: set[str],
) -> None:
    """One read of a name bound to the builtins module (`import builtins as b`) or to one of its functions
    running a string (`from builtins import exec as run`): `b.exec(...)` / `run(...)` is read as the builtin is
    (`_executor_read`); `getattr(b, ...)` and `b` passed on may reach them by a name not written (unresolved);
    any other attribute (`b.print`, `b.__import__`: `_dunder_read`) is none."""
    top: ast.expr = node
    up = parents.get(id(node))
    if isinstance(up, ast.Attribute) and up.value is node:
        what, top = f"{what}.{up.attr}", up
    parts = what.split(".")
    if len(parts) > 1 and parts[1] in _EXECUTORS:
        _executor_read(top, parents, constants, package, out, loaders)
    elif len(parts) == 1:
        if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id in ("getattr", "hasattr"):
            if up.args[:1] == [node] and len(up.args) > 1:
                attr = _string(up.args[1], constants)
                if up.func.id == "hasattr" or (attr is not None and attr not in _EXECUTORS):
                    return  # (`getattr(builtins, 'print')`; `'__import__'` is read as every such string is)
            out.unresolved.append(up)
            return
        out.unresolved.append(node)


def _executor_read(
    top: ast.expr, parents: dict, constants: dict[str, str], package: str | None, out: DynamicLoads, loaders: set[str]
) -> None:
    """One read of the builtin `exec`, `eval` or `compile` (`top`: the name or attribute): called with a literal
    source, an `ExecutedText`; else an unresolved site (module doc). `loaders`: the names the module binds to
    importlib, sys and the other loaders: a text reading one (`exec('sys.modules[...]')` after `import sys`)
    is read as the module's own read of it would be, an unresolved site."""
    call = parents.get(id(top))
    if not (isinstance(call, ast.Call) and call.func is top):
        out.unresolved.append(top)  # (passed on or stored: it may run any string)
        return
    source = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "source"), None)
    text = _string(source, constants)
    if text is None and isinstance(source, ast.Constant) and isinstance(source.value, bytes):
        text = source.value.decode("utf-8", "replace")
    if text is None or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        out.unresolved.append(call)
        return
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return  # (it raises before it runs anything)
    except (ValueError, MemoryError, RecursionError):
        out.unresolved.append(call)
        return
    inner = dynamic_loads(tree, package)
    if inner.unresolved or any(isinstance(n, ast.Name) and n.id in loaders for n in ast.walk(tree)):
        out.unresolved.append(call)
        return
    imports: list[tuple[int, str, tuple[str, ...]]] = []
    bound: set[str] = set()
    reads: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports += [(0, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            imports.append((node.level or 0, node.module or "", tuple(a.name for a in node.names)))
        if isinstance(node, ast.Name):
            (reads if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    imports += [(load.level, load.module, load.fromlist) for load in inner.named]
    out.executed.append(ExecutedText(call, tuple(imports), frozenset(reads - bound - _BUILTIN_NAMES)))


# The nodes that open a scope of their own (a function's, a lambda's, a comprehension's, a class body's).
_FUNCTION_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _shadowed(node: ast.Name, parents: dict, scopes: dict[int, set[str]]) -> bool:
    """Whether the name `node` reads is bound by a scope around it, so that it is not the builtin: a parameter,
    a local assignment, a local `def` or import of a function (but for a `global` / `nonlocal` declaration), a
    comprehension's target, the class body the read stands in directly (not a method's), or the module's top
    level (jax's shape_poly_test.py binds `def eval(d)` in the test and calls `eval(e)`)."""
    name = node.id
    child: ast.AST = node
    in_function = False
    while (scope := parents.get(id(child))) is not None:
        if isinstance(scope, (*_FUNCTION_SCOPES, *_COMPREHENSIONS, ast.Module)) or (
            isinstance(scope, ast.ClassDef) and not in_function
        ):
            # (a function's defaults and decorators belong to the scope around it)
            inside = not isinstance(scope, _FUNCTION_SCOPES) or any(child is part for part in _body(scope))
            if inside:
                if id(scope) not in scopes:
                    scopes[id(scope)] = _bound_in(scope)
                if name in scopes[id(scope)]:
                    return True
        in_function = in_function or isinstance(scope, _FUNCTION_SCOPES)
        child = scope
    return False


def _bound_in(scope: ast.AST) -> set[str]:
    """The names the scope `scope` binds itself (its nested scopes' own bindings left out, their names kept)."""
    bound: set[str] = set()
    declared: set[str] = set()
    if isinstance(scope, _FUNCTION_SCOPES):
        a = scope.args
        bound.update(x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x)))
    todo: list[ast.AST] = list(_body(scope)) if not isinstance(scope, _COMPREHENSIONS) else [
        g.target for g in scope.generators
    ]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
            continue  # (its body is a scope of its own)
        elif isinstance(node, (ast.Lambda, *_COMPREHENSIONS)):
            continue
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
        todo.extend(ast.iter_child_nodes(node))
    return bound - declared


def _body(scope: ast.AST) -> list[ast.AST]:
    body = getattr(scope, "body", [])
    return body if isinstance(body, list) else [body]


def _module_constants(tree: ast.Module, nodes: list[ast.AST]) -> dict[str, str]:
    """The module-level names bound once in the whole module (`tree`, whose nodes are `nodes`: `_walk`), by an
    assignment of a string literal (`CONFIG = "pkg.config"`); none when the module has a star import (it may
    rebind any name)."""
    bound: dict[str, int] = {}

    def bind(name: str) -> None:
        bound[name] = bound.get(name, 0) + 1

    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bind(node.id)
        elif isinstance(node, ast.arg):
            bind(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    return {}
                bind(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                bind(name)
                bind(name)  # (rebound elsewhere through the declaration: never a constant)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            bind(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bind(node.rest)
    out = {}
    for statement in tree.body:
        target = value = None
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        if (
            isinstance(target, ast.Name)
            and bound.get(target.id) == 1
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
        ):
            out[target.id] = value.value
    return out


def _string(expr: ast.AST | None, constants: dict[str, str]) -> str | None:
    """The string `expr` is: a literal, or a module constant read by name."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.Name) and isinstance(expr.ctx, ast.Load):
        return constants.get(expr.id)
    return None


def _dotted(name: str) -> bool:
    return bool(name) and all(part.isidentifier() for part in name.split("."))


def _importlib_read(
    node: ast.Name, what: str, parents: dict, constants: dict[str, str], package: str | None, out: DynamicLoads
) -> None:
    """One read of a name bound to importlib or a part of it: a named load, nothing, or an unresolved site."""
    if not isinstance(node.ctx, ast.Load):
        return  # (a rebinding of the name: its reads are read as importlib's all the same)
    top: ast.expr = node
    while isinstance(up := parents.get(id(top)), ast.Attribute) and up.value is top:
        what, top = f"{what}.{up.attr}", up
    if any(what == p or what.startswith(p + ".") for p in _NOT_LOADING):
        return
    if what.endswith("." + _DUNDER):
        return  # (the attribute `__import__` is read as every `__import__` is: `_dunder_read`)
    call = parents.get(id(top))
    called = isinstance(call, ast.Call) and call.func is top
    if what == _FIND_SPEC and called and _only_tested(call, parents):
        return
    if what == _IMPORT_MODULE and called:
        load = _import_module_call(call, constants, package)
        if load is not None:
            out.named.append(load)
            return
    out.unresolved.append(top)
    out.by_importlib = True


def _only_tested(call: ast.Call, parents: dict) -> bool:
    """Whether the value of `call` is only tested: compared, negated, or the test of an `if`, `while`, a
    conditional expression or an `assert`."""
    up = parents.get(id(call))
    if isinstance(up, ast.Compare) or (isinstance(up, ast.UnaryOp) and isinstance(up.op, ast.Not)):
        return True
    return isinstance(up, (ast.If, ast.While, ast.IfExp, ast.Assert)) and up.test is call


def _import_module_call(call: ast.Call, constants: dict[str, str], package: str | None) -> NamedLoad | None:
    """`import_module(name[, package])` as a `NamedLoad`, when its name (and the package of a relative one)
    is known."""
    args = {("name", "package")[i]: a for i, a in enumerate(call.args[:2])}
    if len(call.args) > 2 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    for keyword in call.keywords:
        if keyword.arg not in ("name", "package") or keyword.arg in args:
            return None
        args[keyword.arg] = keyword.value
    name = _string(args.get("name"), constants)
    if name is None:
        return None
    if not name.startswith("."):
        return NamedLoad(call, 0, name, (), name) if _dotted(name) else None
    rest = name.lstrip(".")
    level = len(name) - len(rest)
    if rest and not _dotted(rest):
        return None
    given = args.get("package")
    if isinstance(given, ast.Name) and given.id == "__package__":
        if package is None:
            return NamedLoad(call, level, rest, (), "")
        anchor = package
    else:
        anchor = _string(given, constants)
        if not anchor or not _dotted(anchor):
            return None
    absolute = resolve_name(name, anchor)
    return NamedLoad(call, 0, absolute, (), absolute) if absolute else None


def _dunder_read(node: ast.expr, parents: dict, constants: dict[str, str], out: DynamicLoads) -> None:
    """One read of `__import__` (a name or an attribute): a named load when it is called as the module doc
    says, else an unresolved site."""
    call = parents.get(id(node))
    load = None
    if isinstance(call, ast.Call) and call.func is node and isinstance(node.ctx, ast.Load):
        load = _dunder_call(call, constants)
    if load is None:
        out.unresolved.append(node)
    else:
        out.named.append(load)


def _dunder_call(call: ast.Call, constants: dict[str, str]) -> NamedLoad | None:
    if len(call.args) > len(_DUNDER_PARAMS) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    args = dict(zip(_DUNDER_PARAMS, call.args))
    for keyword in call.keywords:
        if keyword.arg not in _DUNDER_PARAMS or keyword.arg in args:
            return None
        args[keyword.arg] = keyword.value
    name = _string(args.get("name"), constants)
    level = args.get("level")
    if name is None or not _dotted(name) or not (level is None or (isinstance(level, ast.Constant) and level.value == 0)):
        return None
    listed = args.get("fromlist")
    if listed is None or (isinstance(listed, ast.Constant) and listed.value in (None, ())):
        fromlist: tuple[str, ...] = ()
    elif isinstance(listed, (ast.Tuple, ast.List)):
        names = [_string(e, constants) for e in listed.elts]
        if not all(n is not None and (n == "*" or n.isidentifier()) for n in names):
            return None
        fromlist = tuple(n for n in names if n is not None)
    else:
        return None
    return NamedLoad(call, 0, name, fromlist, name if fromlist else name.split(".")[0])
