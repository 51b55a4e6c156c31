"""Reading a module's import statements without parsing the module (`imports_of_bytes`), and each file's
imports kept by its stamp (`imports_of_file`): what the project's import graph (`spmdfix.project_graph`) is
built from.

The lines that start an import statement (with their bracketed or backslash continuations) are cut out and
read alone; a text where an import may follow a `;` or a `:` on its line, or whose cut-out lines do not
parse, is parsed whole with `ast` (`_import_lines`). A line of a string literal that looks like an import
counts as one: an importer too many is analysed for nothing, never one missed.

Each file's imports are kept per process by its stamp (`stamps.stat_key`, trusted only once settled:
`stamps.settled`), so a later graph (the language server's, a second root's) re-reads only the modules that
changed; and, when a run has a results cache, in its directory (`ScanStore`, installed by the cache with
`keep_scans_in`: `cache_graph.ScanFile`), so that the next process re-reads only the modules that changed
since (a warm partial run scanned every module of the project again: most of its time).
"""

from __future__ import annotations

import ast
import os
import re
import time
from pathlib import Path
from typing import Protocol

from spmdfix.analysis.dynamic_loads import runs_text
from spmdfix.files import MAX_BYTES as FILE_MAX_BYTES
from spmdfix.files import FileError, decode, read_bytes
from spmdfix.perf import frozen
from spmdfix.prefilter import utf8_may_have_findings
from spmdfix.stamps import StatKey, settled, stat_key

MAX_BYTES = 2_000_000  # a larger file is no module the analysis follows (`project_files.MAX_FILE_BYTES`)
# The largest file whose imports are read: the size a check reads (`files.MAX_BYTES`). A module between the two
# is no candidate (the analysis does not follow it) but its imports are known, so that a cross-module fix is
# judged against it (it imports the mesh's module: "module not read" names it); a larger one is `unread`.
SCAN_MAX_BYTES = FILE_MAX_BYTES
NOTEBOOK_MAX_BYTES = FILE_MAX_BYTES  # a notebook: the size a check reads (`project_files.read_notebook`)

# What precedes `import` on a line that starts a `from` import.
_FROM_HEAD = re.compile(rb"from[ \t]+[\w.]+[ \t]+")
_WORD = re.compile(rb"\w")


@frozen(slots=True)
class Import:
    """One import of a module: `level` (dots of a relative import), `module` (after `from`, or the module
    of `import m`; "" for `from . import x`), `names` (the names after `import` of a `from` import, empty
    for `import m`)."""

    level: int
    module: str
    names: tuple[str, ...]


# A module that may load any module by name (`analysis.dynamic_loads`: `importlib.import_module(name)` of a
# name that is not a literal, `__import__` passed on, ...; `project_graph.ProjectGraph.dynamic`): its imports
# hold this one too.
DUNDER_IMPORT = Import(0, "builtins", ("__import__",))
# A module with a module-level `__getattr__` (PEP 562: `from pkg import block` may be answered by it, a lazy
# re-export the analysis does not follow; `project_graph.ProjectGraph.undecided`): its imports hold this one too.
MODULE_GETATTR = Import(0, "builtins", ("__getattr__",))
_MODULE_GETATTR = re.compile(rb"^(?:async[ \t]+)?def[ \t]+__getattr__[ \t]*\(", re.MULTILINE)


def imports_of_bytes(raw: bytes) -> tuple[Import, ...]:
    """The import statements of a module's bytes (see the module doc), with its loads by name when it imports
    importlib or names `__import__` (`_loads_by_name`), and `MODULE_GETATTR` when a line starts `def
    __getattr__(` (a module-level one); () when it does not decode or parse."""
    found = _statements_of_bytes(raw)
    if b"__getattr__" in raw and _MODULE_GETATTR.search(raw):
        found = (*found, MODULE_GETATTR)
    tops = {imp.module.split(".")[0] for imp in found if not imp.level}
    if (
        b"__import__" in raw
        or "importlib" in tops
        or "runpy" in tops
        or ("sys" in tops and b"modules" in raw)  # (`sys.modules[name]`: `analysis.dynamic_loads`)
        or "pkgutil" in tops
        or "pydoc" in tops
        or ("inspect" in tops and (b"getmodule" in raw or b"getclosurevars" in raw))
        or b"__globals__" in raw
        or b"f_globals" in raw
        or runs_text(raw)  # (`exec` / `eval` / `compile` of the builtins: the imports of the text it runs)
    ):
        return (*found, *_loads_by_name(raw))
    return found


def _loads_by_name(raw: bytes) -> tuple[Import, ...]:
    """The loads by name of a module (`analysis.dynamic_loads`) as imports: one whose name is a literal (or a
    module constant) is an import of that module (`import_module('pkg.config')` -> `import pkg.config`;
    `import_module('.config', __package__)` -> `from . import config`'s module; `__import__('a', fromlist=['b'])`
    -> `from a import b` too), and so is each import of a literal text run by `exec` / `eval` / `compile`
    (`exec('from pkg.config import MESH', ns)` -> `from pkg.config import MESH`: `DynamicLoads.executed`);
    `DUNDER_IMPORT` when one may load any module (a string run that is not a literal), or when the module does
    not parse (its loads are not known)."""
    try:
        tree = _parse(decode(Path("<module>"), raw).text.encode("utf-8"))
    except FileError:
        tree = None
    if tree is None:
        return (DUNDER_IMPORT,)
    from spmdfix.analysis.dynamic_loads import dynamic_loads  # (a few modules load by name: most runs read none)

    loads = dynamic_loads(tree, None)
    out: list[Import] = []
    for load in loads.named:
        out.append(Import(load.level, load.module, ()))
        if load.fromlist:
            out.append(Import(load.level, load.module, load.fromlist))
    for text in loads.executed:
        for level, module, names in text.imports:
            out.append(Import(level, module, names))
    if loads.unresolved:
        out.append(DUNDER_IMPORT)
    return tuple(out)


def _statements_of_bytes(raw: bytes) -> tuple[Import, ...]:
    if b"import" not in raw:
        return ()
    snippet = _import_lines(raw)
    if snippet is not None:
        found = _read_statements(snippet)
        if found is not None:
            return found
    try:
        tree = _parse(decode(Path("<module>"), raw).text.encode("utf-8"))
    except FileError:
        return ()
    if tree is None:
        return ()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(Import(0, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.append(Import(node.level or 0, node.module or "", tuple(a.name for a in node.names)))
    return tuple(out)


_COMMENT = re.compile(rb"#[^\n]*")
_SPACES = re.compile(rb"[\s\\()]+")
_FROM = re.compile(rb"from (\.*) ?([\w.]*) import (.+)")
_DOTTED = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*")


def _read_statements(snippet: bytes) -> tuple[Import, ...] | None:
    """The imports of the cut-out statements (`_import_lines`), read without `ast`: each is `import A.B [as
    C], ...` or `from [.]*A import (B [as C], ...)`; None when one is not exactly that (the caller parses the
    module with `ast`)."""
    out: list[Import] = []
    snippet = _COMMENT.sub(b"", snippet)  # (line by line, before a statement's lines are joined)
    for statement in snippet.split(b"\n") if b"(" not in snippet and b"\\" not in snippet else _split(snippet):
        flat = _SPACES.sub(b" ", statement).strip()
        if not flat:
            continue
        try:
            text = flat.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if text.startswith("import "):
            names = _names(text[len("import ") :], dotted=True)
            if names is None:
                return None
            out.extend(Import(0, name, ()) for name in names)
            continue
        match = _FROM.fullmatch(flat)
        if match is None:
            return None
        level, module = len(match.group(1)), match.group(2).decode("utf-8")
        if module and not _DOTTED.fullmatch(module) or not (level or module):
            return None
        listed = match.group(3).decode("utf-8").strip()
        names = ("*",) if listed == "*" else _names(listed, dotted=False)
        if names is None:
            return None
        out.append(Import(level, module, names))
    return tuple(out)


def _split(snippet: bytes) -> list[bytes]:
    """The statements of a snippet whose statements may span lines (brackets, backslashes): each starts at a
    line that starts with `import` or `from`."""
    out: list[bytes] = []
    for line in snippet.split(b"\n"):
        if line.startswith((b"import", b"from")) or not out:
            out.append(line)
        else:
            out[-1] += b" " + line
    return out


def _names(listed: str, dotted: bool) -> tuple[str, ...] | None:
    """The names of `B [as C], ...` (dotted ones for `import`); None when it is not that."""
    out = []
    for part in listed.rstrip(",").split(","):
        words = part.split()
        if len(words) == 3 and words[1] == "as" and words[2].isidentifier():
            words = words[:1]
        if len(words) != 1 or not (_DOTTED.fullmatch(words[0]) if dotted else words[0].isidentifier()):
            return None
        out.append(words[0])
    return tuple(out)


def _import_lines(raw: bytes) -> bytes | None:
    """The statements that start at import lines, each with its continuation lines, dedented; None when the
    bytes are not plain enough to cut: a coding cookie other than UTF-8 or ASCII, or an `import` that may
    follow a `;` or a `:` on its line (`x = 1; import m`, `if TYPE_CHECKING: import m`).

    Each occurrence of `import` is looked at (a few per module: faster than a regular expression over every
    line): a line that starts with `import NAME` or `from NAME import` starts a statement."""
    head = raw[:200]
    if b"coding" in head and not re.search(rb"coding[:=][ \t]*(?:utf-?8|ascii)", head, re.IGNORECASE):
        return None
    pieces = []
    taken_to = 0  # the end of the last statement cut out: an `import` inside it is part of it
    at = raw.find(b"import")
    while at >= 0:
        after = raw[at + 6 : at + 7]
        line = raw.rfind(b"\n", 0, at) + 1
        nxt = at + 6
        if line >= taken_to and not (at and _WORD.match(raw, at - 1)) and not _WORD.match(after or b"."):
            lead = raw[line:at].lstrip(b" \t")
            if not lead or _FROM_HEAD.fullmatch(lead):
                if not lead and after not in (b" ", b"\t", b"\\"):
                    at = raw.find(b"import", nxt)
                    continue
                stop = _statement_end(raw, line)
                pieces.append(raw[line:stop].lstrip(b" \t").replace(b"\r", b""))
                taken_to = nxt = stop
            else:
                comment = lead.find(b"#")
                if comment >= 0 and b"'" not in lead[:comment] and b'"' not in lead[:comment]:
                    pass  # (`import` in a comment: `# TODO: fix import cycles`)
                elif b";" in lead or b":" in lead:
                    return None
        at = raw.find(b"import", nxt)
    return b"\n".join(pieces)


def _statement_end(raw: bytes, start: int) -> int:
    """The end of the import statement starting at `start`: its line, to the closing bracket of a bracketed
    list of names, or over backslash continuations."""
    end = raw.find(b"\n", start)
    end = len(raw) if end < 0 else end
    line = raw[start:end].split(b"#")[0]
    if b"(" in line and b")" not in line:
        # To the first line whose code (before a comment: `finfo,  # TODO(someone)`) closes the bracket.
        while end < len(raw):
            nxt = raw.find(b"\n", end + 1)
            nxt = len(raw) if nxt < 0 else nxt
            if b")" in raw[end:nxt].split(b"#")[0]:
                return nxt
            end = nxt
        return len(raw)
    while raw[start:end].rstrip(b"\r").endswith(b"\\") and end < len(raw):
        nxt = raw.find(b"\n", end + 1)
        end = len(raw) if nxt < 0 else nxt
    return end


def _parse(code: bytes) -> ast.Module | None:
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


# What the scan kept of each file read so far in this process: absolute path -> (stat key, settled, imports,
# whether its bytes may hold a vmap: `prefilter.utf8_may_have_findings`).
_SCANNED: dict[str, tuple[StatKey, bool, tuple[Import, ...], bool]] = {}


class ScanStore(Protocol):
    """Where the scans of earlier processes are kept (`keep_scans_in`): `known` answers the imports and
    whether the bytes may hold a vmap of the file at `path` when it holds a scan of the file whose stat key
    is `key` and that was taken once the file had settled (`stamps.settled`); else None. `keep` is given
    each settled scan this process made; `flush` writes what was kept (a graph was built)."""

    def known(self, path: str, key: StatKey) -> tuple[tuple[Import, ...], bool] | None: ...

    def keep(self, path: str, key: StatKey, taken_ns: int, imports: tuple[Import, ...], vmap: bool) -> None: ...

    def flush(self) -> None: ...


_STORE: list[ScanStore] = []  # the store of this process's run, when it has one (`keep_scans_in`)


def keep_scans_in(store: ScanStore | None) -> None:
    """Keep and look up the scans in `store` from now on (None: only in this process)."""
    _STORE[:] = [store] if store is not None else []


def flush_scans() -> None:
    """Write the scans kept since the store was read (`ScanStore.flush`), when there is a store."""
    for store in _STORE:
        store.flush()


def scan_limit(path: str) -> int:
    """The largest file at `path` whose imports are scanned (`imports_of_file`): a notebook's limit or a module's."""
    return NOTEBOOK_MAX_BYTES if path.endswith(".ipynb") else SCAN_MAX_BYTES


def imports_of_file(path: str) -> tuple[tuple[Import, ...], bool] | None:
    """The imports of the module file at the absolute `path` (a notebook: of its code cells,
    `_notebook_module`) and whether its bytes may hold a vmap at all (`prefilter.utf8_may_have_findings`: an
    importer that cannot is never analysed; never for a module larger than `MAX_BYTES`, which the analysis does
    not follow), kept by its stamp (in this process, and in the store of the run: `keep_scans_in`); None when
    it cannot be read or is larger than `SCAN_MAX_BYTES` (a notebook: `NOTEBOOK_MAX_BYTES`): its imports are
    not known (`project_graph.ProjectGraph.unread`)."""
    taken = time.time_ns()
    try:
        st = os.stat(path)
    except OSError:
        _SCANNED.pop(path, None)
        return None
    key = stat_key(st)
    if st.st_size > scan_limit(path):
        # (its stat kept all the same: a graph built again sees it unchanged, `ProjectGraph.unchanged`)
        _SCANNED[path] = (key, settled(key, taken), (), False)
        return None
    known = _SCANNED.get(path)
    if known is not None and known[0] == key and known[1]:
        return known[2], known[3]
    if _STORE:
        stored = _STORE[0].known(path, key)
        if stored is not None:
            _SCANNED[path] = (key, True, *stored)
            return stored
    try:
        raw = read_bytes(path)
    except OSError:
        return None
    notebook = path.endswith(".ipynb")
    if notebook:
        raw = _notebook_module(path, raw)
    found = imports_of_bytes(raw)
    vmap = (notebook or st.st_size <= MAX_BYTES) and utf8_may_have_findings(raw)
    steady = settled(key, taken)
    _SCANNED[path] = (key, steady, found, vmap)
    if _STORE and steady:
        _STORE[0].keep(path, key, taken, found, vmap)
    return found, vmap


def _notebook_module(path: str, raw: bytes) -> bytes:
    """The module of a notebook's code cells (`notebook.module_text`), as UTF-8 bytes: what a notebook
    imports (b"" for a notebook that is not Python or cannot be read: it imports nothing)."""
    from spmdfix.notebook import NotebookError, module_text

    try:
        return module_text(decode(Path(path), raw).text).encode("utf-8", "surrogatepass")
    except (FileError, NotebookError):
        return b""


def scanned(path: str) -> tuple[StatKey, bool] | None:
    """The stat key of the file at `path` when this process's scan last read it (or took its kept scan), and
    whether the file had settled then; None: never read, or gone since."""
    known = _SCANNED.get(path)
    return (known[0], known[1]) if known is not None else None


def scanned_stat(path: str) -> StatKey | None:
    """The stat key of the file at `path` when this process's scan last read it (None: never read)."""
    known = _SCANNED.get(path)
    return known[0] if known is not None else None
