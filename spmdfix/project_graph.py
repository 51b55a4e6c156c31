"""The project's import graph in both directions: which modules of the project import which module, and
which names (`ProjectGraph`), from a scan of every module's import statements.

The forward direction is the project index's (`analysis.index`: a name followed into the module defining
it). The reverse one is what a partial run needs: checking `src/pkg/model.py` alone must also analyse the
spmd vmaps of `train.py`, which imports it (`spmdfix.reaching`). Both resolve a module as Python does from
the project root (`files.find_project_root`): by the `__init__.py` chain of its directories, and from the
root and `<root>/src` (a `src/` layout; a namespace package, a directory without `__init__.py` below the
root, as `root/ns/a/layers.py` -> `ns.a.layers`).

The project's files are the `.py` files under the root, as `spmdfix check ROOT` would find them: the excludes
of each directory's configuration and `.gitignore` respected (`discovery.iter_sources`), at most
`MAX_FILES` of them (past that the graph says it is incomplete, `ProjectGraph.complete`).

Reading a module's imports does not parse the module: the lines that start an import statement (with their
bracketed or backslash continuations) are cut out and parsed alone with `ast`; a text where an import may
follow a `;` or a `:` on its line, or whose cut-out lines do not parse, is parsed whole (`_import_lines`). A line of a string
literal that looks like an import counts as one: an importer too many is analysed for nothing, never one
missed. Each module's imports are kept per process by its stamp (`stamps.stat_key`, trusted only once
settled: `stamps.settled`), so a later `graph_of` (the language server's, a second root's) re-reads only
the modules that changed.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from spmdfix.files import read_bytes, decode, FileError
from spmdfix.stamps import StatKey, settled, stat_key

MAX_FILES = 20_000  # project files the scan lists at most
MAX_BYTES = 2_000_000  # a larger file is no module the analysis follows (`project_files.MAX_FILE_BYTES`)

# What precedes `import` on a line that starts a `from` import.
_FROM_HEAD = re.compile(rb"from[ \t]+[\w.]+[ \t]+")
_WORD = re.compile(rb"\w")


@dataclass(frozen=True, slots=True)
class Import:
    """One import of a module: `level` (dots of a relative import), `module` (after `from`, or the module
    of `import m`; "" for `from . import x`), `names` (the names after `import` of a `from` import, empty
    for `import m`)."""

    level: int
    module: str
    names: tuple[str, ...]


def imports_of_bytes(raw: bytes) -> tuple[Import, ...]:
    """The import statements of a module's bytes (see the module doc); () when it does not decode or parse."""
    if b"import" not in raw:
        return ()
    snippet = _import_lines(raw)
    tree = _parse(snippet) if snippet is not None else None
    # The cut-out statements are all at the top level of their snippet; a whole module is walked.
    nodes = tree.body if tree is not None else None
    if tree is None:
        try:
            tree = _parse(decode(Path("<module>"), raw).text.encode("utf-8"))
        except FileError:
            return ()
        if tree is None:
            return ()
        nodes = ast.walk(tree)
    out = []
    for node in nodes:
        if isinstance(node, ast.Import):
            out.extend(Import(0, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.append(Import(node.level or 0, node.module or "", tuple(a.name for a in node.names)))
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
            elif b";" in lead or b":" in lead:
                return None
        at = raw.find(b"import", nxt)
    return b"\n".join(pieces)


def _statement_end(raw: bytes, start: int) -> int:
    """The end of the import statement starting at `start`: its line, to the closing bracket of a bracketed
    list of names, or over backslash continuations."""
    end = raw.find(b"\n", start)
    end = len(raw) if end < 0 else end
    line = raw[start:end]
    if b"(" in line and b")" not in line:
        close = raw.find(b")", end)
        return len(raw) if close < 0 else close + 1
    while raw[start:end].rstrip(b"\r").endswith(b"\\") and end < len(raw):
        nxt = raw.find(b"\n", end + 1)
        end = len(raw) if nxt < 0 else nxt
    return end


def _parse(code: bytes) -> ast.Module | None:
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


# The imports of each file read so far in this process: absolute path -> (stat key, settled, imports).
_SCANNED: dict[str, tuple[StatKey, bool, tuple[Import, ...]]] = {}


def imports_of_file(path: str) -> tuple[Import, ...] | None:
    """The imports of the module file at the absolute `path` (kept by its stamp); None when it cannot be read
    or is larger than `MAX_BYTES`."""
    taken = time.time_ns()
    try:
        st = os.stat(path)
    except OSError:
        _SCANNED.pop(path, None)
        return None
    key = stat_key(st)
    known = _SCANNED.get(path)
    if known is not None and known[0] == key and known[1]:
        return known[2]
    if st.st_size > MAX_BYTES:
        return None
    try:
        raw = read_bytes(path)
    except OSError:
        return None
    found = imports_of_bytes(raw)
    _SCANNED[path] = (key, settled(key, taken), found)
    return found


class ProjectGraph:
    """The import graph of the project at `root` (see the module doc): its module files, the module name(s)
    each is imported by, and for each module the modules of the project that import it, with the names.

    Built by `graph_of`; `overlay` (absolute path -> text: a language server's unsaved buffers) stands for
    those files' contents."""

    def __init__(self, root: str, files: list[str], complete: bool, overlay: dict[str, str] | None = None) -> None:
        self.root = root
        self.files = files
        self.complete = complete
        self.by_name: dict[str, str] = {}
        self._names: dict[str, tuple[str, bool]] = {}  # path -> (its chain module name, is a package)
        self._packages: dict[str, str] = {}  # directory -> its dotted package ("": none)
        for path in files:
            self._register(path)
        self.importers: dict[str, dict[str, set[str]]] = {}  # module path -> importer path -> names
        overlay = overlay or {}
        for path in files:
            text = overlay.get(path)
            found = imports_of_bytes(text.encode("utf-8", "surrogatepass")) if text is not None else imports_of_file(path)
            for target, names in self._targets(path, found or ()):
                if target != path:
                    self.importers.setdefault(target, {}).setdefault(path, set()).update(names)

    def _register(self, path: str) -> None:
        """The names `path` may be imported by: its `__init__.py` chain's, and as a path from the root and
        from `<root>/src` (namespace packages)."""
        directory, file = os.path.split(path)
        is_package = file == "__init__.py"
        package = self._package_of(directory)
        stem = file[: -len(".py")]
        name = package if is_package else (f"{package}.{stem}" if package else stem)
        self._names[path] = (name, is_package)
        self.by_name.setdefault(name, path)
        for base in (self.root, os.path.join(self.root, "src")):
            rel = os.path.relpath(path, base)
            if rel.startswith(".."):
                continue
            parts = rel[: -len(".py")].split(os.sep)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts and all(p.isidentifier() for p in parts):
                self.by_name.setdefault(".".join(parts), path)

    def _package_of(self, directory: str) -> str:
        """The dotted package of a directory from its `__init__.py` chain ("" when it holds none), as
        `project_files.module_name` finds it, once per directory."""
        found = self._packages.get(directory)
        if found is None:
            if os.path.isfile(os.path.join(directory, "__init__.py")):
                parent, name = os.path.split(directory)
                outer = self._package_of(parent) if parent != directory else ""
                found = f"{outer}.{name}" if outer else name
            else:
                found = ""
            self._packages[directory] = found
        return found

    def _targets(self, importer: str, imports: Iterable[Import]) -> Iterable[tuple[str, tuple[str, ...]]]:
        """(module path, names imported from it) of each import of `importer` that names a module of the
        project; `import a.b` imports `a` too, and `from a import b` the submodule `a.b` when there is one."""
        name, is_package = self._names.get(importer, ("", False))
        package = name if is_package else name.rpartition(".")[0]
        for imp in imports:
            if imp.level:
                parts = package.split(".") if package else []
                if imp.level - 1 > len(parts):
                    continue
                base = parts[: len(parts) - (imp.level - 1)]
                module = ".".join([*base, imp.module] if imp.module else base)
            else:
                module = imp.module
            if not module:
                continue
            found = self.by_name.get(module)
            if found is not None:
                yield found, imp.names or ("<module>",)
            if not imp.level and not imp.names:  # `import a.b.c`: a and a.b are imported too
                pieces = module.split(".")
                for i in range(1, len(pieces)):
                    outer = self.by_name.get(".".join(pieces[:i]))
                    if outer is not None:
                        yield outer, ("<module>",)
            for sub in imp.names:
                inner = self.by_name.get(f"{module}.{sub}")
                if inner is not None:
                    yield inner, ("<module>",)

    def importers_of(self, path: str) -> dict[str, frozenset[str]]:
        """The modules of the project that import the module at `path` (absolute, real) directly: importer
        path -> the names imported from it ("<module>" for the module itself)."""
        return {p: frozenset(n) for p, n in sorted(self.importers.get(path, {}).items())}

    def reaching(self, path: str) -> tuple[str, ...]:
        """Every module of the project that imports the module at `path`, directly or through other modules
        of the project (its reverse import closure), sorted; `path` itself is left out."""
        seen: set[str] = set()
        todo = [path]
        while todo:
            for importer in self.importers.get(todo.pop(), {}):
                if importer not in seen and importer != path:
                    seen.add(importer)
                    todo.append(importer)
        return tuple(sorted(seen))

    def state(self, path: str) -> str:
        """A digest of what decided which modules reach `path` (`reaching`): a new importer, or one deleted or
        no longer importing, changes it (the results cache keys a partial run's result by it)."""
        return hashlib.sha256("\0".join((str(self.complete), *self.reaching(path))).encode()).hexdigest()[:32]


def project_files(root: str) -> tuple[list[str], bool]:
    """The `.py` files of the project at `root` (absolute, real paths, sorted) as a run over `root` finds them
    (configured excludes and `.gitignore` respected), and whether the list is whole (`MAX_FILES`)."""
    from spmdfix.config import Resolver
    from spmdfix.discovery import iter_sources

    resolver = Resolver(cwd=Path(root))

    def excluded(absolute: str, is_dir: bool) -> bool:
        try:
            return resolver.for_dir(os.path.dirname(absolute)).excludes(absolute, is_dir)
        except Exception:  # noqa: BLE001 - a bad configuration file: the run reports it; nothing excluded here
            return False

    out: list[str] = []
    try:
        for found in iter_sources([root], excluded):
            if found.suffix == ".py":
                out.append(os.path.realpath(found))
                if len(out) >= MAX_FILES:
                    return sorted(out), False
    except FileError:
        return [], False
    return sorted(out), True


_GRAPHS: dict[str, ProjectGraph] = {}


def graph_of(root: str | Path, refresh: bool = False, overlay: dict[str, str] | None = None) -> ProjectGraph:
    """The import graph of the project at `root`, built once per process and root (a run's files do not change
    under it); `refresh` lists the files and reads the changed ones again (a language server's edit, a new
    file); an `overlay` (unsaved texts) gives a graph of its own, not kept."""
    key = os.path.realpath(root)
    graph = _GRAPHS.get(key)
    if graph is None or refresh or overlay:
        files, complete = project_files(key)
        graph = ProjectGraph(key, files, complete, overlay)
        if not overlay:
            _GRAPHS[key] = graph
    return graph


def forget_graphs() -> None:
    """Drop the graphs kept (after a run wrote files, or a test changed a project)."""
    _GRAPHS.clear()
