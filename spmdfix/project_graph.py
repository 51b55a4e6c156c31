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

from spmdfix.files import FileError, decode, read_bytes
from spmdfix.prefilter import utf8_may_have_findings
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


# A module whose text names the builtin `__import__` may load any module by name, as one importing importlib may
# (`ProjectGraph.dynamic`): its imports hold this one too.
DUNDER_IMPORT = Import(0, "builtins", ("__import__",))


def imports_of_bytes(raw: bytes) -> tuple[Import, ...]:
    """The import statements of a module's bytes (see the module doc), and `DUNDER_IMPORT` when they name
    `__import__`; () when it does not decode or parse."""
    found = _statements_of_bytes(raw)
    return (*found, DUNDER_IMPORT) if b"__import__" in raw else found


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


def imports_of_file(path: str) -> tuple[tuple[Import, ...], bool] | None:
    """The imports of the module file at the absolute `path` and whether its bytes may hold a vmap at all
    (`prefilter.utf8_may_have_findings`: an importer that cannot is never analysed), kept by its stamp; None
    when it cannot be read or is larger than `MAX_BYTES`."""
    taken = time.time_ns()
    try:
        st = os.stat(path)
    except OSError:
        _SCANNED.pop(path, None)
        return None
    key = stat_key(st)
    known = _SCANNED.get(path)
    if known is not None and known[0] == key and known[1]:
        return known[2], known[3]
    if st.st_size > MAX_BYTES:
        return None
    try:
        raw = read_bytes(path)
    except OSError:
        return None
    found = imports_of_bytes(raw)
    vmap = utf8_may_have_findings(raw)
    _SCANNED[path] = (key, settled(key, taken), found, vmap)
    return found, vmap


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
        self.candidates: set[str] = set()  # the modules whose text may hold a vmap
        self.imports: dict[str, set[str]] = {}  # module path -> the modules of the project it imports
        # the modules importing `importlib` or naming `__import__` (they may load any module by name)
        self.dynamic: set[str] = set()
        self._reached_by: dict[str, list[str]] | None = None  # module -> the candidates importing it
        overlay = overlay or {}
        for path in files:
            text = overlay.get(path)
            if text is not None:
                raw = text.encode("utf-8", "surrogatepass")
                scanned = imports_of_bytes(raw), utf8_may_have_findings(raw)
            else:
                scanned = imports_of_file(path)
            found, vmap = scanned if scanned is not None else ((), False)
            if vmap:
                self.candidates.add(path)
            if any(imp == DUNDER_IMPORT or not imp.level and imp.module.split(".")[0] == "importlib" for imp in found):
                self.dynamic.add(path)
            for target, names in self._targets(path, found):
                if target != path:
                    self.importers.setdefault(target, {}).setdefault(path, set()).update(names)
                    self.imports.setdefault(path, set()).add(target)

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

    def importers_with_dynamic(self, path: str) -> dict[str, frozenset[str]] | None:
        """`importers_of(path)`, and every other module importing `importlib` or naming `__import__` with the
        name "<importlib>" (it may load the module by name: `analysis.importers`); None when the graph is
        incomplete (past `MAX_FILES`), so that no use is assumed absent."""
        if not self.complete:
            return None
        out = dict(self.importers_of(path))
        for importer in sorted(self.dynamic):
            if importer != path:
                out[importer] = out.get(importer, frozenset()) | {"<importlib>"}
        return out

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

    def reaching_candidates(self, path: str) -> tuple[str, ...]:
        """`reaching(path)`, only the modules whose text may hold a vmap (the others cannot hold a finding):
        from the modules each of them imports, directly or not, computed once per graph (a run asks this for
        every module that names a shard_map, a spec or a mesh; the modules that may hold a vmap are few)."""
        if self._reached_by is None:
            reached_by: dict[str, list[str]] = {}
            for candidate in sorted(self.candidates):
                for module in self._imported_by(candidate):
                    reached_by.setdefault(module, []).append(candidate)
            self._reached_by = reached_by
        return tuple(self._reached_by.get(path, ()))

    def _imported_by(self, path: str) -> set[str]:
        """Every module of the project `path` imports, directly or not (itself left out)."""
        seen: set[str] = set()
        todo = [path]
        while todo:
            for target in self.imports.get(todo.pop(), ()):
                if target not in seen and target != path:
                    seen.add(target)
                    todo.append(target)
        return seen

    def state(self, path: str) -> str:
        """A digest of what decided which modules a partial run of `path` analyses (`reaching_candidates`): a
        new importer, one deleted or no longer importing, and an importer whose text now may hold a vmap (or
        no longer) change it; the results cache keys a partial run's result by it, beside each of those
        modules' digests."""
        listed = (str(self.complete), *self.reaching_candidates(path))
        return hashlib.sha256("\0".join(listed).encode()).hexdigest()[:32]


def project_files(root: str) -> tuple[list[str], bool]:
    """The `.py` files of the project at `root` (absolute, real paths, sorted) as a run over `root` finds them
    (configured excludes and `.gitignore` respected), and whether the list is whole (`MAX_FILES`)."""
    from spmdfix.config import Resolver
    from spmdfix.discovery import iter_sources
    from spmdfix.globs import glob_matcher

    resolver = Resolver(cwd=Path(root))

    def excluded_in(directory: str):
        """The exclude test of one directory's entries, as the CLI's walk asks it (once per directory)."""
        try:
            settings = resolver.for_dir(directory)
        except Exception:  # noqa: BLE001 - a bad configuration file: the run reports it; nothing excluded here
            return lambda absolute, is_dir, name: False
        return glob_matcher(settings.exclude + settings.extend_exclude)

    if not os.path.lexists(root):
        return [], True  # (no such directory, as for an editor's buffer of a new folder: no module on disk)
    out: list[str] = []
    try:
        for found in iter_sources([root], excluded_in=excluded_in):
            if found.suffix == ".py":
                # (the root is a real path and the walk follows no linked directory: only a linked file
                # needs resolving)
                path = os.fspath(found)
                out.append(os.path.realpath(path) if os.path.islink(path) else path)
                if len(out) >= MAX_FILES:
                    return sorted(out), False
    except (FileError, OSError):  # (a directory that cannot be listed: the graph is then not complete)
        return [], False
    return sorted(out), True


def scanned_stat(path: str) -> StatKey | None:
    """The stat key of the file at `path` when this process's scan last read it (None: never read)."""
    known = _SCANNED.get(path)
    return known[0] if known is not None else None


_GRAPHS: dict[str, ProjectGraph] = {}


def graph_of(root: str | Path, refresh: bool = False, overlay: dict[str, str] | None = None) -> ProjectGraph:
    """The import graph of the project at `root`, built once per process and root (a run's files do not change
    under it); `refresh` lists the files and reads the changed ones again (a language server's edit, a new
    file); an `overlay` (unsaved texts) gives a graph of its own, not kept."""
    key = os.path.realpath(root)
    graph = _GRAPHS.get(key)
    if graph is None or refresh or overlay:
        files, complete = project_files(key)
        if overlay:  # (an editor's buffer of a module not saved yet is a module of the project too)
            files = sorted({*files, *(p for p in overlay if p.endswith(".py") and p.startswith(key + os.sep))})
        graph = ProjectGraph(key, files, complete, overlay)
        if not overlay:
            _GRAPHS[key] = graph
    return graph


def importers_source(root: str | Path, overlay: dict[str, str] | None = None):
    """What a project index is given as `importers` (`analysis.index.Importers`): a module's path -> the
    modules of the project at `root` importing it and the names (`ProjectGraph.importers_with_dynamic`). The
    graph is built on the first question (a run that judges no cross-module fix never scans the project)."""
    held: list[ProjectGraph] = []

    def importers(path: str) -> dict[str, frozenset[str]] | None:
        if not held:
            held.append(graph_of(root, overlay=overlay))
        return held[0].importers_with_dynamic(path)

    return importers


def forget_graphs() -> None:
    """Drop the graphs kept (after a run wrote files, or a test changed a project)."""
    _GRAPHS.clear()
