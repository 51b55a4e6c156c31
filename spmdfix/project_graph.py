"""The project's import graph in both directions: which modules of the project import which module, and
which names (`ProjectGraph`), from a scan of every module's import statements.

The forward direction is the project index's (`analysis.index`: a name followed into the module defining
it). The reverse one is what a partial run needs: checking `src/pkg/model.py` alone must also analyse the
spmd vmaps of `train.py`, which imports it (`spmdfix.reaching`). Both resolve a module as Python does from
the project root (`files.find_project_root`): by the `__init__.py` chain of its directories, and from the
root and `<root>/src` (a `src/` layout; a namespace package, a directory without `__init__.py` below the
root, as `root/ns/a/layers.py` -> `ns.a.layers`). An absolute import naming none of them may still reach a
module inside a package through a directory put on `sys.path` (`import config` -> `pkg/config.py`): the graph
counts it as an import of each such module, by that name (`ProjectGraph._on_path`, `path_name`).

Two listings of the project's files, one per use:
- the partial run's (`project_files`): the `.py` files and notebooks (`.ipynb`, read as the module of their code
  cells: a notebook importing `pkg.model` is one of its importers) under the root as `spmdfix check ROOT` would
  find them, the excludes of each directory's configuration and `.gitignore` respected (`discovery.iter_sources`). Which
  spmd vmaps reach a checked file is a question about findings, and a run reports findings only in the files it
  covers: an excluded module's vmap is not the project's code as the user configured it;
- the judgement's (`judged_files`, `graph_of(judged=True)`): every `.py` file and every notebook (`.ipynb`,
  read as the module of its code cells) under the root, only the default excludes (`settings.DEFAULT_EXCLUDE`:
  `.venv`, `build`, `site-packages`, ...) skipped, neither the configured excludes nor `.gitignore`. Whether a
  fix editing a mesh, a spec, a function or an axis constant keeps what the project computes is a question
  about every module that runs and reads it: a gitignored `scripts/probe.py`, an excluded module and a notebook
  still run (docs/safety.md). Listed only when a cross-module fix is judged (`importers_source`).
Each at most `MAX_FILES`, or `MAX_UNMARKED_FILES` when no project marker lies at or above the root (`_limit`):
past that the walk stops at the first file over the limit and no file is scanned (the graph is incomplete,
`ProjectGraph.complete`, and says why, `why_incomplete`); no use is assumed absent, a judged fix's reason names
the limit, and a partial run says its importers were not searched (`reaching.unsearched_record`). A file
checked alone in a directory without a project marker has that directory as its root: `/tmp/x.py` walked
332,000 files and scanned them for more than ten minutes.

A partial run also needs the modules that may reach a module through names the analysis cannot decide: a
star import (`from .layers import *` in `pkg/__init__.py`) or a module-level `__getattr__`
(`ProjectGraph.undecided_candidates`): where their analysis stops (SPMD910) is reported from the module too.

Each module's imports come from `spmdfix.import_scan` (read without parsing the module, kept by the file's
stamp in this process and in the results cache's directory). A file whose imports cannot be read (larger than
the size a check reads, or unreadable) may import any module (`ProjectGraph.unread`): a fix judged against the
importers of a module names it as a module not read, and is unsafe.
"""

from __future__ import annotations

import contextlib
import copy
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Protocol

from spmdfix.files import FileError, read_bytes
from spmdfix.perf import state_digest  # (not hashlib: see `perf.state_digest`; a warm run asks `judged_state`)
from spmdfix.import_scan import (
    DUNDER_IMPORT,
    MODULE_GETATTR,
    Import,
    flush_scans,
    imports_of_bytes,
    imports_of_file,
    scan_limit,
    scanned,
    scanned_stat,
)
from spmdfix.prefilter import utf8_may_have_findings
from spmdfix.stamps import StatKey, stat_key
from spmdfix.word_scan import forget_words, stat_of, words_held

__all__ = [  # (the scan's names, re-exported: this module was their home)
    "Import",
    "ProjectGraph",
    "graph_of",
    "holding_source",
    "importers_source",
    "imports_of_bytes",
    "judged_files",
    "imports_of_file",
    "project_files",
    "scanned_stat",
]

MAX_FILES = 20_000  # project files the scan lists at most
# ... when no project marker (`files.PROJECT_MARKERS`) lies at or above the root: a file checked alone in such a
# directory has it as its root (`/tmp/x.py`, `~/Downloads/x.py`), which is no project the user named; scanning
# the 3,181 modules of a copy of the corpus without its markers took 2.3 s (5-7 s on a loaded machine), most
# of it in the modules that load others by name (`import_scan._loads_by_name` parses them)
MAX_UNMARKED_FILES = 1_000


class ProjectGraph:
    """The import graph of the project at `root` (see the module doc): its module files, the module name(s)
    each is imported by, and for each module the modules of the project that import it, with the names.

    Built by `graph_of`; `overlay` (absolute path -> text: a language server's unsaved buffers) stands for
    those files' contents. `complete`: whether `files` are all the project's (`project_files`); when not,
    `why` says why, in words a message shows (`why_incomplete`: "the project root /tmp holds more than 20,000
    Python files")."""

    def __init__(
        self, root: str, files: list[str], complete: bool, overlay: dict[str, str] | None = None, why: str = ""
    ) -> None:
        self.root = root
        self.files = files
        self.complete = complete
        # why the graph is not the whole project's ("" when it is): what a partial run's record and a judged
        # fix's reason say instead of a search of the modules importing a module (`reaching`, `importers_source`)
        self.why_incomplete = "" if complete else why or f"the files of the project root {root} are not all listed"
        # dotted name -> the files imported by it from the root or `<root>/src`, or by their `__init__.py`
        # chain (several when packages of one name lie in different directories: `svc_a/pkg`, `svc_b/pkg`)
        self.by_name: dict[str, list[str]] = {}
        self._names: dict[str, tuple[str, bool]] = {}  # path -> (its chain module name, is a package)
        # the last part of the chain name of each module inside a package -> those modules (`_on_path`)
        self._in_packages: dict[str, list[str]] = {}
        self._packages: dict[str, str] = {}  # directory -> its dotted package ("": none)
        # the directories module names are read from (with a trailing separator): the root and `<root>/src`
        self._bases = tuple(os.path.join(base, "") for base in (root, os.path.join(root, "src")))
        for path in files:
            self._register(path)
        self.importers: dict[str, dict[str, set[str]]] = {}  # module path -> importer path -> names
        self.candidates: set[str] = set()  # the modules whose text may hold a vmap
        self.imports: dict[str, set[str]] = {}  # module path -> the modules of the project it imports
        # the modules that may load any module by name (`import_scan.DUNDER_IMPORT`); a load of a module named
        # by a literal is an import of it
        self.dynamic: set[str] = set()
        # the files whose imports are not known (larger than `import_scan.SCAN_MAX_BYTES`, or not readable):
        # each may import any module of the project (`importers_with_dynamic`)
        self.unread: set[str] = set()
        # the modules whose names the analysis cannot decide (`undecided_candidates`): module -> the modules
        # its star imports name; and the modules with a module-level `__getattr__`, or a package's `__init__.py`
        # loading a module by a name not written (`import_scan.MODULE_GETATTR`, `DUNDER_IMPORT`), which may
        # give any module of their package
        self.stars: dict[str, set[str]] = {}
        self.lazy: set[str] = set()
        self._reached_by: dict[str, list[str]] | None = None  # module -> the candidates importing it
        self._undecided_by: dict[str, list[str]] | None = None  # module -> the candidates it may be undecided for
        self._closures: dict[str, frozenset[str]] = {}  # module -> every module it imports (`_imported_by`)
        # each file's stat key when its scan was taken, and whether it had settled (None: an unsaved text)
        self.stats: dict[str, tuple[StatKey, bool] | None] = {}
        overlay = overlay or {}
        self._overlay = dict(overlay)  # the unsaved texts standing for files (`holding` reads them)
        self._holding: dict[str, tuple[tuple[str, str], ...]] = {}  # `holding`'s answers, by word
        for path in files:
            text = overlay.get(path)
            if text is not None:
                self.stats[path] = None
                self._add(path, _scan_text(text))
            else:
                self._add(path, imports_of_file(path))
                self.stats[path] = scanned(path)

    def _add(self, path: str, scanned: tuple[tuple[Import, ...], bool] | None, copied: set[str] | None = None) -> None:
        """The module at `path` (a file of the graph, not added yet) with its scan (imports, may hold a vmap;
        None: not readable). `copied`: the targets whose importers this graph owns already, when it shares
        the others with the graph it was made from (`overlaid`): each is copied before it changes."""
        if scanned is None:
            self.unread.add(path)
        found, vmap = scanned if scanned is not None else ((), False)
        if vmap:
            self.candidates.add(path)
        # (the scan's marks, `DUNDER_IMPORT` and `MODULE_GETATTR`, are imports of `builtins`: most modules have
        # none, and a record's `==` is a Python call, asked here of every import of every module)
        marks = [imp for imp in found if imp.module == "builtins"]
        if marks:
            if DUNDER_IMPORT in marks:
                self.dynamic.add(path)
            if MODULE_GETATTR in marks or (DUNDER_IMPORT in marks and os.path.basename(path) == "__init__.py"):
                self.lazy.add(path)  # (a package's lazy loader; a script's own load by name is its analysis's record)
        for target, names in self._targets(path, found):
            if target != path:
                if "*" in names:
                    self.stars.setdefault(path, set()).add(target)
                if copied is not None and target not in copied:
                    self.importers[target] = {p: set(n) for p, n in self.importers.get(target, {}).items()}
                    copied.add(target)
                self.importers.setdefault(target, {}).setdefault(path, set()).update(names)
                self.imports.setdefault(path, set()).add(target)

    def overlaid(self, overlay: dict[str, str]) -> ProjectGraph:
        """This graph with the modules of `overlay` (absolute path -> unsaved text) scanned from their texts:
        what `ProjectGraph(root, files, complete, overlay)` builds, made by changing only those modules'
        edges (this graph is left as it is; the new one shares what they do not change)."""
        new = copy.copy(self)
        new.importers, new.imports = dict(self.importers), dict(self.imports)
        new.candidates, new.dynamic, new._reached_by = set(self.candidates), set(self.dynamic), None
        new.stars, new.lazy, new._undecided_by, new._closures = dict(self.stars), set(self.lazy), None, {}
        new.unread = set(self.unread)
        new.stats = dict(self.stats)
        new._overlay, new._holding = {**self._overlay, **overlay}, {}
        copied: set[str] = set()
        for path, text in overlay.items():
            if path not in self._names:
                continue  # (not a module of the project: the graph's files are what a run over the root finds)
            for target in new.imports.pop(path, ()):
                if target not in copied:
                    new.importers[target] = {p: set(n) for p, n in new.importers.get(target, {}).items()}
                    copied.add(target)
                new.importers[target].pop(path, None)
            new.candidates.discard(path)
            new.dynamic.discard(path)
            new.stars.pop(path, None)
            new.lazy.discard(path)
            new.unread.discard(path)
            new.stats[path] = None
            new._add(path, _scan_text(text), copied)
        return new

    def unchanged(self, files: list[str], complete: bool) -> bool:
        """Whether the project's files are still `files` (listed now, `project_files`) and each of them is as
        this graph's scan read it: its stat key the same, taken once it had settled (`stamps.settled`)."""
        if files != self.files or complete != self.complete:
            return False
        for path in files:
            known = self.stats.get(path)
            if known is None or not known[1]:
                return False
            try:
                if stat_key(os.stat(path)) != known[0]:
                    return False
            except OSError:
                return False
        return True

    def _register(self, path: str) -> None:
        """The names `path` may be imported by: its `__init__.py` chain's, and as a path from the root and
        from `<root>/src` (namespace packages). A notebook is imported by no name (its own imports are
        absolute ones: it is in no package)."""
        directory, file = os.path.split(path)
        if file.endswith(".ipynb"):
            self._names[path] = ("", False)
            return
        is_package = file == "__init__.py"
        package = self._package_of(directory)
        stem = file[: -len(".py")]
        name = package if is_package else (f"{package}.{stem}" if package else stem)
        self._names[path] = (name, is_package)
        self.by_name.setdefault(name, []).append(path)
        if "." in name:
            self._in_packages.setdefault(name.rpartition(".")[2], []).append(path)
        for base in self._bases:
            if not path.startswith(base):  # (absolute, normal paths: what `os.path.relpath` gives, faster)
                continue
            parts = path[len(base) : -len(".py")].split(os.sep)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts and all(p.isidentifier() for p in parts):
                named = self.by_name.setdefault(".".join(parts), [])
                if path not in named:
                    named.append(path)

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
        # A script or notebook outside any package runs with its own directory first on `sys.path`
        # (`python scripts/probe.py`, a kernel started in the notebook's directory): `import helpers` there may be
        # `scripts/helpers.py`. Such an edge is added beside the root's (an importer too many is judged for
        # nothing; one missed would hide a reader of a mesh re-exported by the helper).
        here = os.path.dirname(importer) if not package and self._package_of(os.path.dirname(importer)) == "" else ""
        home = self._base_of(os.path.dirname(importer))  # (where its package chain is imported from)
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
            found = self._find(module, home, relative=bool(imp.level))
            for target in found:
                yield target, imp.names or ("<module>",)
            sibling = self._sibling(here, module) if here and not imp.level else None
            if sibling is not None and sibling not in found:
                yield sibling, imp.names or ("<module>",)
            # (a module inside a package reached through a directory on `sys.path`: `import config`)
            on_path = self._on_path(module) if not found and sibling is None and not imp.level else ()
            for target in on_path:
                yield target, (*(imp.names or ("<module>",)), path_name(module))
            if not imp.level and not imp.names:  # `import a.b.c`: a and a.b are imported too
                pieces = module.split(".")
                for i in range(1, len(pieces)):
                    for target, names in self._found_or_on_path(".".join(pieces[:i]), home, bool(on_path)):
                        yield target, names
            for sub in imp.names:
                for target, names in self._found_or_on_path(f"{module}.{sub}", home, bool(on_path), bool(imp.level)):
                    yield target, names

    def _found_or_on_path(
        self, module: str, home: str, on_path: bool, relative: bool = False
    ) -> list[tuple[str, tuple[str, ...]]]:
        """The files dotted `module` (a package above an import's module, or a submodule it names) names
        (`_find`), imported as a module object; when none and the import's module came through a directory on
        `sys.path` (`on_path`), those that directory may give it (`_on_path`), with its `path_name` too."""
        found = self._find(module, home, relative=relative)
        if found or not on_path:
            return [(target, ("<module>",)) for target in found]
        return [(target, ("<module>", path_name(module))) for target in self._on_path(module)]

    def _on_path(self, module: str) -> list[str]:
        """The modules of the project inside a package that an absolute import of dotted `module`, which
        names no module of the project from the root (`_find`), may load all the same: those whose chain name
        ends with `.module` (`import config` -> `pkg/config.py`), found when a directory inside the package is
        on `sys.path` (`sys.path.insert(0, 'pkg')`, `site.addsitedir`, `PYTHONPATH`, pytest's `pythonpath`:
        breaker19 a53, `import config` in tools/report.py read a second module object of pkg/config.py, whose
        fix went 2 -> 1 under a safe add-axis). Python gives such a module a second module object, named
        `module`: the judgement reads the importer's bindings by that name (`path_name`;
        `analysis.importers`). Not for a name of the standard library's top-level modules: it finds its own
        first (most are loaded before any `sys.path` edit runs; `import typing` in jax is no import of
        jax/typing.py). Wherever the import stands, not only in a module editing `sys.path`: the edit may be
        anywhere in the process or outside the code (measured on the corpus: levanter's tests do
        `from test_utils import ...`, tests/test_utils.py on the path by pytest's `pythonpath = ["tests"]`).
        An importer too many is judged for nothing (jax's `import numpy` -> jax/numpy/__init__.py)."""
        held = self._in_packages.get(module.rpartition(".")[2])
        if not held or module.partition(".")[0] in sys.stdlib_module_names:
            return []
        tail = "." + module
        return [p for p in held if self._names[p][0].endswith(tail)]

    def _base_of(self, directory: str) -> str:
        """The directory the package chain of `directory` is imported from (`directory` itself when it holds no
        `__init__.py`), as `project_files.module_name` finds it."""
        while self._package_of(directory) and os.path.dirname(directory) != directory:
            directory = os.path.dirname(directory)
        return directory

    def _find(self, module: str, base: str, relative: bool = False) -> list[str]:
        """The files dotted `module` may name, imported by a module whose package chain is imported from `base`:
        the one below `base` when there is one (`analysis.index.ProjectIndex.locate` looks there first too),
        else every module of that name (`by_name`: which one Python finds depends on `sys.path` at run time;
        an importer too many is judged for nothing, one missed would hide a reader). A relative import names a
        module below `base` only: two packages of one name in the project (`svc_a/pkg`, `svc_b/pkg`) are told
        apart by where the importer is, as Python resolves `from .config import MESH`, not by which was listed
        first."""
        found = self._sibling(base, module) if base else None
        if found is not None:
            return [found]
        return [] if relative else self.by_name.get(module, [])

    def _sibling(self, directory: str, module: str) -> str | None:
        """The listed file of dotted `module` below `directory` (`a/b.py` or `a/b/__init__.py`), or None."""
        parts = module.split(".")
        for candidate in (
            os.path.join(directory, *parts[:-1], parts[-1] + ".py"),
            os.path.join(directory, *parts, "__init__.py"),
        ):
            if candidate in self._names:
                return candidate
        return None

    def importers_of(self, path: str) -> dict[str, frozenset[str]]:
        """The modules of the project that import the module at `path` (absolute, real) directly: importer
        path -> the names imported from it ("<module>" for the module itself)."""
        return {p: frozenset(n) for p, n in sorted(self.importers.get(path, {}).items())}

    def importers_with_dynamic(self, path: str) -> dict[str, frozenset[str]] | None:
        """`importers_of(path)`, and every other module that may load any module by name (`dynamic`) with the
        name "<importlib>" (it may load this one: `analysis.importers`), and every file whose imports are not
        known (`unread`) with the name "<module>" (it may import this one: the judgement names it as a module
        not read); None when the graph is incomplete (past `MAX_FILES`), so that no use is assumed absent."""
        if not self.complete:
            return None
        out = dict(self.importers_of(path))
        for importer in sorted(self.dynamic):
            if importer != path:
                out[importer] = out.get(importer, frozenset()) | {"<importlib>"}
        for importer in sorted(self.unread):
            if importer != path:
                out[importer] = out.get(importer, frozenset()) | {"<module>"}
        return out

    def holding(self, word: str) -> tuple[tuple[str, str], ...] | None:
        """(path, SHA-256 of the bytes) of each file of the listing whose bytes hold `word` (a plain search of
        the bytes, nothing parsed: an unsaved text's for a file of the overlay), in path order; None when the
        graph is incomplete (past `MAX_FILES`). With the digests, an answer tells a write added to or removed
        from a module that held the word already (`analysis.project_answers.holding_digest`). Files whose imports are
        not known (`unread`: too large, not readable) are left out: the questions asked
        (`analysis.importers.project_writer`) pass over modules not known. Read once per graph and word; the
        first question also answers "setattr" (every question asks it too), in the same reading of the files.
        A file on disk whose scan's stat key has settled is read once per process and word (`_held`): a
        language server asks again on every change, over a graph made for the change's unsaved text."""
        if not self.complete:
            return None
        if word not in self._holding:
            words = [w for w in dict.fromkeys((word, "setattr")) if w not in self._holding]
            found: dict[str, list[tuple[str, str]]] = {w: [] for w in words}
            for path in self.files:
                held = self._held(path, words)
                if held is None:
                    continue
                digest, present = held
                for w in words:
                    if present[w]:
                        found[w].append((path, digest))
            self._holding.update((w, tuple(paths)) for w, paths in found.items())
        return self._holding[word]

    def _held(self, path: str, words: list[str]) -> tuple[str, dict[str, bool]] | None:
        """`word_scan.words_held` of the file at `path`: served by the file's settled scan's stat key (an
        unsaved text's is read each time)."""
        stat = None if path in self._overlay else self.stats.get(path)
        return words_held(path, stat, words, lambda: self._bytes(path))

    def _bytes(self, path: str) -> bytes | None:
        """The bytes `holding` searches of a file of the listing: an unsaved text's, else the file's; None for
        a file whose imports are not known (`unread`) or that cannot be read now."""
        text = self._overlay.get(path)
        if text is not None:
            return text.encode("utf-8", "surrogatepass")
        if path in self.unread:
            return None
        try:
            return read_bytes(path)
        except (OSError, FileError):
            return None

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

    def undecided_candidates(self, path: str) -> tuple[str, ...]:
        """The modules of the project whose text may hold a vmap and which may reach the module at `path`
        through names the analysis cannot decide, sorted (`path` left out): each imports, directly or not (or
        is), a module that star-imports `path` or a module importing it (`from .layers import *` in
        `pkg/__init__.py`), or that has a module-level `__getattr__` (or is a package's `__init__.py` loading
        modules by a name not written) while `path` lies in its directory (`pkg/__init__.py`'s lazy `__getattr__`, `pkg/layers.py`). A vmap of
        such a module may reach `path` where its analysis stops (an SPMD910 record): a partial run of `path`
        reports those records (`reaching.reached`). Computed once per graph."""
        if self._undecided_by is None:
            reach: dict[str, set[str]] = {}  # undecided module -> the modules it may give names of
            for module, targets in self.stars.items():
                given = reach.setdefault(module, set())
                for target in targets:
                    given.add(target)
                    given.update(self._imported_by(target))
            for module in self.lazy:
                directory = os.path.join(os.path.dirname(module), "")
                reach.setdefault(module, set()).update(f for f in self.files if f.startswith(directory))
            undecided_by: dict[str, list[str]] = {}
            if reach:
                for candidate in sorted(self.candidates):
                    given = set()
                    for module in (candidate, *self._imported_by(candidate)):
                        given.update(reach.get(module, ()))
                    for module in given:
                        if module != candidate:
                            undecided_by.setdefault(module, []).append(candidate)
            self._undecided_by = undecided_by
        return tuple(self._undecided_by.get(path, ()))

    def imported_candidates(self, path: str) -> tuple[str, ...]:
        """The modules of the project the module at `path` imports directly whose text may hold a vmap, sorted
        (`path` left out): a base class of one of them may assign a vmap factory the module applies through
        `self` (`reaching.reached`)."""
        return tuple(sorted(m for m in self.imports.get(path, ()) if m in self.candidates and m != path))

    def passed_candidates(self, path: str) -> tuple[str, ...]:
        """The modules of the project whose text may hold a vmap that a module importing the module at `path`
        (directly or not: `reaching`) imports directly, sorted, those `reaching_candidates` and
        `imported_candidates` give (and `path`) left out: such a module's vmap may apply a callable of `path`
        that the importer passes it (`batched = helpers.make_batched(forward)` in train.py, `make_batched`
        returning `jax.vmap(fn, spmd_axis_name='data')` in helpers.py, `forward` of model.py), and only its
        analysis finds the collision at the spec in `path` (`reaching.reached`)."""
        near = {path, *self.reaching_candidates(path), *self.imported_candidates(path)}
        found = {
            module
            for importer in self.reaching(path)
            for module in self.imports.get(importer, ())
            if module in self.candidates and module not in near
        }
        return tuple(sorted(found))

    def _imported_by(self, path: str) -> frozenset[str]:
        """Every module of the project `path` imports, directly or not (itself left out); once per graph."""
        kept = self._closures.get(path)
        if kept is not None:
            return kept
        seen: set[str] = set()
        todo = [path]
        while todo:
            for target in self.imports.get(todo.pop(), ()):
                if target not in seen and target != path:
                    seen.add(target)
                    todo.append(target)
        kept = self._closures[path] = frozenset(seen)
        return kept

    def state(self, path: str) -> str:
        """A digest of what decided which modules a partial run of `path` analyses (`reaching_candidates`,
        `imported_candidates`, `undecided_candidates`, `passed_candidates`): a new importer or import, one deleted or no longer importing, and an importer
        whose text now may hold a vmap (or no longer) change it; the results cache keys a partial run's result by it, beside each of those
        modules' digests."""
        listed = (
            str(self.complete),
            *self.reaching_candidates(path),
            "\1",
            *self.imported_candidates(path),
            "\2",
            *self.undecided_candidates(path),
            "\3",
            *self.passed_candidates(path),
        )
        return state_digest("\0".join(listed).encode())


class _TooMany(Exception):
    """Raised inside a listing's walk once it has found more files than its limit (`_limit`): the walk stops."""


def _cap(out: list[str], limit: int) -> None:
    """Stop the listing's walk (`_TooMany`) once `out` holds more than `limit` files (`_limit`): a file checked
    alone in a directory without a project marker has that directory as its root (`/tmp`, 332,000 `.py` files
    on one machine), and the whole walk and the scan of every file it found took more than ten minutes."""
    if len(out) > limit:
        raise _TooMany


def _limit(root: str) -> tuple[int, bool]:
    """(how many files the listing of the project at `root` holds at most, whether that is the limit of a root
    with no project marker at or above it): `MAX_FILES`, or `MAX_UNMARKED_FILES` when it is lower and no
    `pyproject.toml`, `setup.cfg` or `.git` lies in `root` or a directory above it (a `project-root` inside a
    repository is marked by the repository's `.git`)."""
    from spmdfix.files import PROJECT_MARKERS

    if MAX_UNMARKED_FILES >= MAX_FILES:
        return MAX_FILES, False
    for directory in (root, *(str(p) for p in Path(root).parents)):
        if any(os.path.lexists(os.path.join(directory, marker)) for marker in PROJECT_MARKERS):
            return MAX_FILES, False
    return MAX_UNMARKED_FILES, True


def too_many(root: str, what: str = "Python files", unmarked: bool = False) -> str:
    """Why a listing past its limit (`_limit`) is no listing of the project (`ProjectGraph.why_incomplete`): the
    words a message says where it did not search the modules of the project (`analysis.index.ProjectIndex`)."""
    if unmarked:
        return (
            f"the project root {root} holds more than {MAX_UNMARKED_FILES:,} {what} and has no `pyproject.toml`, "
            "`setup.cfg` or `.git` at or above it"
        )
    return f"the project root {root} holds more than {MAX_FILES:,} {what}"


def project_files(root: str) -> tuple[list[str], bool]:
    """The `.py` files and notebooks (`.ipynb`) of the project at `root` (absolute, real paths, sorted) as a run
    over `root` finds them (configured excludes and `.gitignore` respected), and whether the list is whole: past
    `MAX_FILES` (or `MAX_UNMARKED_FILES`: `_limit`) the walk stops and the list is empty (`_project_files` says
    why). A notebook imports modules of the project and nothing imports it: it is an importer whose vmaps a
    partial run of a module it imports analyses (`reaching`)."""
    files, why = _project_files(root)
    return files, not why


def _project_files(root: str) -> tuple[list[str], str]:
    """`project_files`' list, and "" when it is whole, else why not (`ProjectGraph.why_incomplete`): more than
    `MAX_FILES` files, or `MAX_UNMARKED_FILES` under a root with no project marker (`_limit`: the walk stops at
    the first file past it, and no file is listed: which of them came first is an accident of their names), or
    a root that cannot be listed."""
    from spmdfix.config import Resolver
    from spmdfix.discovery import ListingMemo, iter_sources
    from spmdfix.globs import glob_matcher

    resolver = Resolver(cwd=Path(root))

    def excludes(directory: str) -> tuple[str, ...] | None:
        """The exclude patterns of a directory's entries (None: a bad configuration file, which the run
        reports; nothing is excluded here)."""
        try:
            settings = resolver.for_dir(directory)
        except Exception:  # noqa: BLE001 - see above
            return None
        return tuple(settings.exclude + settings.extend_exclude)

    if not os.path.lexists(root):
        return [], ""  # (no such directory, as for an editor's buffer of a new folder: no module on disk)

    def excluded_in(directory: str):
        """The exclude test of one directory's entries, as the CLI's walk asks it (once per directory)."""
        patterns = excludes(directory)
        return glob_matcher(patterns) if patterns is not None else lambda absolute, is_dir, name: False

    # The listings of this process's earlier walks of the root, served again for a directory whose stamp, ignore
    # files and excludes are unchanged (`discovery.ListingMemo`): a language server lists the project again at
    # each edit of a module that a partial run analyses.
    known = _LISTINGS.setdefault(root, {})
    memo = ListingMemo(known, excludes)
    out: list[str] = []
    limit, unmarked = _limit(root)

    def lane(path: str, absolute: str) -> bool:
        # A regular file the walk found (not a link): taken here, before the walk makes a `Path` of it. (The
        # cap is counted here: the loop below sees only the files the lane does not take.)
        if absolute.endswith((".py", ".ipynb")):
            out.append(absolute)
            _cap(out, limit)
        return True

    try:
        for found in iter_sources([root], excluded_in=excluded_in, memo=memo, lane=lane):
            if found.suffix in (".py", ".ipynb"):
                # (the root is a real path and the walk follows no linked directory: only a linked file
                # needs resolving)
                path = os.fspath(found)
                out.append(os.path.realpath(path) if os.path.islink(path) else path)
                _cap(out, limit)
    except _TooMany:
        return [], too_many(root, unmarked=unmarked)
    except (FileError, OSError) as err:  # (a directory that cannot be listed: the graph is then not complete)
        return [], f"the project root {root} cannot be listed ({err})"
    finally:
        known.update(memo.changed)
    return sorted(out), ""


# The default-excluded names a package of the project may have (identifiers: `pkg/dist/`, `pkg/build/`); the
# judgement's walk keeps such a directory when it holds `__init__.py` (`_judged_files`).
_PACKAGE_NAMES = frozenset({"_build", "build", "dist", "node_modules", "venv", "__pypackages__"})


def judged_files(root: str) -> tuple[list[str], bool]:
    """The `.py` files and notebooks (`.ipynb`) of the project at `root` (absolute, real paths, sorted) that a
    cross-module fix is judged against (module doc): every one under the root but those the default excludes
    skip (`settings.DEFAULT_EXCLUDE`, as a directory or file name; a directory so named that holds `__init__.py`,
    a package of the project such as `pkg/dist/`, is kept); the configured excludes and `.gitignore`
    are not respected (an excluded module still runs). Whether the list is whole: past `MAX_FILES` (or
    `MAX_UNMARKED_FILES`: `_limit`) the walk stops and the list is empty (`_judged_files` says why)."""
    files, why = _judged_files(root)
    return files, not why


def _judged_files(root: str) -> tuple[list[str], str]:
    """`judged_files`' list, and "" when it is whole, else why not (as `_project_files`)."""
    from spmdfix.discovery import ListingMemo, iter_sources
    from spmdfix.settings import DEFAULT_EXCLUDE

    if not os.path.lexists(root):
        return [], ""
    defaults = frozenset(DEFAULT_EXCLUDE)
    top = os.path.normpath(root)

    def excluded_in(directory: str):
        # A directory of a default-excluded name that a package may have (`pkg/dist/`, `pkg/build/`) is kept at
        # its parent and decided by its own listing, whose stamp changes when its `__init__.py` comes or goes:
        # a package of the project (it holds `__init__.py`) is walked, anything else (a `build/` copy, a `venv`)
        # drops every entry (breaker19 a15/a16/s07/s13: `pkg/dist/info.py` reading the mesh was not searched
        # and add-axis stayed safe).
        if os.path.normpath(directory) != top and os.path.basename(directory) in defaults:
            if not os.path.isfile(os.path.join(directory, "__init__.py")):
                return lambda absolute, is_dir, name: True
        return lambda absolute, is_dir, name: name in defaults and not (is_dir and name in _PACKAGE_NAMES)

    # (as `project_files`: a language server lists the project again at each edit whose fix is judged; the
    # records are this listing's own, `_JUDGED_LISTINGS`, since a directory keeps other entries here; a run
    # with the results cache starts from the records of earlier runs, `keep_listings_in`)
    known = _JUDGED_LISTINGS.get(root)
    if known is None:
        known = _JUDGED_LISTINGS[root] = dict(_LISTING_STORE[0].known) if _LISTING_STORE else {}
    memo = ListingMemo(known, lambda directory: ("judged", DEFAULT_EXCLUDE, "packages kept"))
    out: list[str] = []
    limit, unmarked = _limit(root)

    def lane(path: str, absolute: str) -> bool:
        if absolute.endswith((".py", ".ipynb")):
            out.append(absolute)
            _cap(out, limit)
        return True

    try:
        for found in iter_sources([root], respect_gitignore=False, memo=memo, excluded_in=excluded_in, lane=lane):
            if found.suffix in (".py", ".ipynb"):
                path = os.fspath(found)
                out.append(os.path.realpath(path) if os.path.islink(path) else path)
                _cap(out, limit)
    except _TooMany:
        return [], too_many(root, "Python files and notebooks", unmarked)
    except (FileError, OSError) as err:
        return [], f"the project root {root} cannot be listed ({err})"
    finally:
        known.update(memo.changed)
        if _LISTING_STORE and memo.changed:
            _LISTING_STORE[0].keep(memo.changed)
    return sorted(out), ""


_LISTINGS: dict[str, dict] = {}  # project root -> the listings of its walks (`ListingMemo.known`)
_JUDGED_LISTINGS: dict[str, dict] = {}  # project root -> the listings of `judged_files`' walks


class ListingStore(Protocol):
    """Where the judgement's listings of earlier processes are kept (`keep_listings_in`): `known`, their
    directory records (`discovery.ListingMemo.known`); `keep` is given the new records of each walk; `flush`
    writes them."""

    known: dict[str, tuple]

    def keep(self, records: dict[str, tuple]) -> None: ...

    def flush(self) -> None: ...


_LISTING_STORE: list[ListingStore] = []  # the store of this process's run, when it has one


def keep_listings_in(store: ListingStore | None) -> None:
    """Start the judgement's listings (`judged_files`) from `store`'s records and keep new ones there from now
    on (None: only in this process)."""
    _LISTING_STORE[:] = [store] if store is not None else []
    _JUDGED_LISTINGS.clear()


def flush_listings() -> None:
    """Write the records kept since the store was read (`ListingStore.flush`), when there is a store."""
    for store in _LISTING_STORE:
        store.flush()


class AnswerStore(Protocol):
    """Where the answers of earlier processes about a project are kept (`keep_answers_in`): `known` answers
    the kept (project state, answers) of the project at a root (`answered`), when kept; `keep` is given this
    process's; `flush` writes them."""

    def known(self, root: str) -> tuple[str, dict[str, str]] | None: ...

    def keep(self, root: str, state: str, answers: dict[str, str]) -> None: ...

    def flush(self) -> None: ...


_ANSWER_STORE: list[AnswerStore] = []  # the store of this process's run, when it has one
# project root -> (its state when first asked in this process, its answers by question), or None when its
# state is not one answers can be kept for (`judged_state`)
_ANSWERS: dict[str, tuple[str, dict[str, str]] | None] = {}


def keep_answers_in(store: AnswerStore | None) -> None:
    """Serve `answered`'s questions from `store`'s answers while the project's state is the one they were
    given for, and keep new ones there (None: only in this process); a new run, whose projects are stat'ed
    again."""
    _ANSWER_STORE[:] = [store] if store is not None else []
    _ANSWERS.clear()


def flush_answers() -> None:
    """Give the store the answers of every project whose answers grew in this process, and write them."""
    for store in _ANSWER_STORE:
        store.flush()


def judged_state(root: str) -> str | None:
    """A digest of what every answer about the modules of the project at `root` (absolute, real) is made from:
    the judgement's listing (`judged_files`), each listed file's stat key (`word_scan.stat_of`: the bytes its
    imports and words are read from), and which directories above the root hold an `__init__.py` (they name the
    root's packages: `_package_of`). None when the listing is not whole or a file's stat key had not settled
    or cannot be taken: no answer is kept for such a state."""
    files, why = _judged_files(root)
    if why:
        return None
    keys = []
    for path in files:
        stat = stat_of(path)
        if stat is None or not stat[1]:
            return None
        keys.append(stat[0])
    above, directory = [], root
    while os.path.dirname(directory) != directory:
        directory = os.path.dirname(directory)
        above.append(os.path.isfile(os.path.join(directory, "__init__.py")))
    return state_digest(repr((files, keys, above)).encode())


def answered(root: str, question: str, answer) -> str:
    """The digest `answer()` gives for `question` (`analysis.project_answers`' keys: who imports a module, who
    holds a word) about the project at `root` (absolute, real), served without asking when this process or
    the store (`keep_answers_in`) has it for the project's state now (`judged_state`, taken once per process
    and project before the first answer: a file changed after it changes the state the next run sees). A
    warm run checks every result's answers again: building the import graph of a project and searching the
    words of jax's 1,302 modules took about a tenth of it."""
    if root not in _ANSWERS:
        # (a graph or word listing of the project this process made before may answer from files as they
        # were before the state is taken now: a module added in between, settled by now, would be in the state
        # and not in the answer, served to every later process; such answers are given, not kept: breaker21)
        early = (root, True) in _GRAPHS or root in _WORD_LISTINGS
        state = None if early else judged_state(root)
        kept = _ANSWER_STORE[0].known(root) if state is not None and _ANSWER_STORE else None
        _ANSWERS[root] = None if state is None else (state, dict(kept[1]) if kept and kept[0] == state else {})
    memo = _ANSWERS[root]
    if memo is None:
        return answer()
    found = memo[1].get(question)
    if found is None:
        found = memo[1][question] = answer()
        if _ANSWER_STORE:
            _ANSWER_STORE[0].keep(root, memo[0], memo[1])
    return found


# (project root, judged: the judgement's listing) -> its graph
_GRAPHS: dict[tuple[str, bool], ProjectGraph] = {}


def _scan_text(text: str) -> tuple[tuple[Import, ...], bool]:
    """The scan of an unsaved text (`import_scan.imports_of_bytes` and whether it may hold a vmap)."""
    raw = text.encode("utf-8", "surrogatepass")
    return imports_of_bytes(raw), utf8_may_have_findings(raw)


def graph_of(
    root: str | Path, refresh: bool = False, overlay: dict[str, str] | None = None, *, judged: bool = False
) -> ProjectGraph:
    """The import graph of the project at `root`, built once per process and root (a run's files do not change
    under it); `refresh` lists the files again and builds the graph again when one was added, removed or
    changed (a language server's edit, a new file: `ProjectGraph.unchanged`), reading only the changed ones;
    an `overlay` (unsaved texts; a notebook's: the module of its code cells) gives a graph of its own, not
    kept, made from the kept one (`ProjectGraph.overlaid`; an unsaved buffer of a file not on disk is a module
    of it too). `judged`: over the judgement's listing (`judged_files`), else the partial run's
    (`project_files`); see the module doc."""
    key = os.path.realpath(root)
    graph = _GRAPHS.get((key, judged))
    if graph is not None and refresh and _LISTED is not None and (key, judged) in _LISTED:
        refresh = False  # (listed already in this analysis: `listed_once`)
    if graph is None or refresh:
        files, why = _judged_files(key) if judged else _project_files(key)
        if graph is None or not graph.unchanged(files, not why) or graph.why_incomplete != why:
            graph = _GRAPHS[(key, judged)] = ProjectGraph(key, files, not why, why=why)
            flush_scans()  # (the next process reads only the modules changed since: `import_scan.keep_scans_in`)
        if _LISTED is not None:
            _LISTED.add((key, judged))
    if not overlay:
        return graph
    # An editor's buffer of a module not saved yet is a module of the project too; other modules' imports may
    # name it, so the graph is built again over the listed files and it (their scans are kept: `import_scan`).
    new = [p for p in overlay if p not in graph._names and p.endswith(".py") and p.startswith(key + os.sep)]
    if new:
        return ProjectGraph(key, sorted({*graph.files, *new}), graph.complete, overlay, graph.why_incomplete)
    return graph.overlaid(overlay)


# (root, judged) of the listings made in the current `listed_once` scope; None outside one
_LISTED: set[tuple[str, bool]] | None = None


@contextlib.contextmanager
def listed_once() -> Iterator[None]:
    """A scope in which `graph_of(refresh=True)` lists each project (each listing: the partial run's, the
    judgement's) once: the first refresh lists it and stats its modules, later ones take the graph it gave.
    A language server's analysis of one edit refreshed the judgement's listing of the 1,000-module benchmark
    project three times (the kept index's check, then the importers and the `holding` of the index holding
    the typed text: `api.new_project_index(refresh=True)`), about 1,000 stats each, within a few
    milliseconds; a file changed during an analysis is seen by the next one, as one changed just after it
    (`lsp.project.ProjectIndexes` checks the digests of the files an analysis read). Nested scopes are one."""
    global _LISTED
    outer = _LISTED
    if outer is None:
        _LISTED = set()
    try:
        yield
    finally:
        if outer is None:
            _LISTED = None


def path_name(module: str) -> str:
    """The name an importer's entry in the graph holds for an import that reaches a module of the project
    through a directory put on `sys.path` (`ProjectGraph._on_path`): "<as MODULE>", MODULE the dotted name the
    importer imports it by (`analysis.importers.path_names` reads it)."""
    return f"<as {module}>"


def importers_source(root: str | Path, overlay: dict[str, str] | None = None, refresh: bool = False) -> ImportersSource:
    """What a project index is given as `importers` (`analysis.index.Importers`): a module's path -> the
    modules of the project at `root` importing it and the names (`ProjectGraph.importers_with_dynamic`), over
    the judgement's listing (`graph_of(judged=True)`: gitignored and excluded modules and notebooks too). The
    graph is built on the first question (a run that judges no cross-module fix never lists the project so),
    listed again then with `refresh` (`graph_of(refresh=True)`: a language server's). Its `why_unknown` is the
    index's `importers_unknown`."""
    return ImportersSource(root, overlay, refresh)


class ImportersSource:
    """`importers_source`'s answer: called with a module's path, the modules importing it (None when the graph
    is not complete); `why_unknown`, why they are not known, in a message's words."""

    def __init__(self, root: str | Path, overlay: dict[str, str] | None, refresh: bool) -> None:
        self._root, self._overlay, self._refresh = root, overlay, refresh
        self._graph: ProjectGraph | None = None

    def graph(self) -> ProjectGraph:
        """The judgement's graph, listed on the first question."""
        if self._graph is None:
            self._graph = graph_of(self._root, refresh=self._refresh, overlay=self._overlay, judged=True)
        return self._graph

    def __call__(self, path: str) -> dict[str, frozenset[str]] | None:
        return self.graph().importers_with_dynamic(path)

    def why_unknown(self) -> str:
        """Why an answer was None (`ProjectGraph.why_incomplete`): asked only after one was."""
        return self.graph().why_incomplete or "the project's import graph is not known"


def holding_source(root: str | Path, overlay: dict[str, str] | None = None, refresh: bool = False):
    """What a project index is given as `holding` (`analysis.index.Holding`): a word -> the modules of the
    project at `root` whose text holds it, with their digests (`ProjectGraph.holding`), over the judgement's listing
    (`graph_of(judged=True)`, as `importers_source`: gitignored and excluded modules and notebooks too), listed
    on the first question."""
    held: list[ProjectGraph | WordListing] = []

    def holding(word: str) -> tuple[tuple[str, str], ...] | None:
        if not held:
            key = os.path.realpath(root)
            graph = _GRAPHS.get((key, True))
            if refresh or overlay or graph is not None:
                held.append(graph_of(root, refresh=refresh, overlay=overlay, judged=True))
            else:
                # (a run of the command line: the words' search needs the listing, not the imports of every
                # module, which the graph scans; `WordListing`)
                held.append(_word_listing(key))
        return held[0].holding(word)

    return holding


class WordListing:
    """`ProjectGraph.holding` over the judgement's listing alone, without the import scan the graph makes of
    every module: which modules hold a word is a search of their bytes. Hazard H2 asks it of a whole project
    (`analysis.importers.method_definer`: may any class give `obj.sum`?) in a cold run of the command line,
    where no graph was built: building one scanned the imports of the 1,074 modules of jax's repository
    (2.6 s of the 2.9 s `shard_map_test.py`'s facts took; the corpus's cold run 0.72 s -> 1.63 s). The
    answers are the graph's: the same listing, the same bytes, the same digests; a module larger than
    `import_scan.SCAN_MAX_BYTES` (a notebook's limit for a notebook), which the graph leaves unread, or one
    that cannot be read, is left out; None when the listing is not whole. Each file is read at most once per
    process (a worker asks several words), and not at all when its reading is kept by its stat key
    (`word_scan.words_held`: a warm run checks the answers again)."""

    def __init__(self, files: list[str], complete: bool) -> None:
        self.files = files
        self.complete = complete
        self._stats: dict[str, tuple[StatKey, bool] | None] = {}
        self._raw: dict[str, bytes | None] = {}
        self._holding: dict[str, tuple[tuple[str, str], ...]] = {}

    def holding(self, word: str) -> tuple[tuple[str, str], ...] | None:
        """As `ProjectGraph.holding`."""
        if not self.complete:
            return None
        found = self._holding.get(word)
        if found is None:
            hits = []
            for path in self.files:
                if path not in self._stats:
                    self._stats[path] = stat_of(path)
                stat = self._stats[path]
                if stat is None or stat[0][0] > scan_limit(path):
                    continue  # (not read by the graph's scan either: `ProjectGraph.unread`)
                held = words_held(path, stat, [word], lambda: self._bytes(path))
                if held is not None and held[1][word]:
                    hits.append((path, held[0]))
            found = self._holding[word] = tuple(hits)
        return found

    def _bytes(self, path: str) -> bytes | None:
        if path not in self._raw:
            try:
                self._raw[path] = read_bytes(path)
            except (OSError, FileError):
                self._raw[path] = None
        return self._raw[path]


def _word_listing(key: str) -> WordListing:
    """The `WordListing` of the project at `key` (a real path), made once per process."""
    found = _WORD_LISTINGS.get(key)
    if found is None:
        files, why = _judged_files(key)
        found = _WORD_LISTINGS[key] = WordListing(files, not why)
    return found


_WORD_LISTINGS: dict[str, WordListing] = {}


def forget_graphs() -> None:
    """Drop the graphs and listings kept (after a run wrote files, or a test changed a project)."""
    _GRAPHS.clear()
    _WORD_LISTINGS.clear()
    if _LISTED is not None:
        _LISTED.clear()
    forget_words()
    _LISTINGS.clear()
    _JUDGED_LISTINGS.clear()
    _ANSWERS.clear()
