"""The project index: other modules of the project, parsed only when the analysis follows a name into them.

A vmap in `pkg/pipeline.py` (`from .layers import mlp_block`) reaches a shard_map in `pkg/layers.py` whose
specs name constants of `pkg/config.py`. The analysis of the checked module asks this index for the module
a qualified name lives in (`resolve`); the index finds the file under the project root, parses it once and
keeps its model (`module_model.ModuleModel`, built by the factory it is given). Nothing is parsed for an
import alone, and never the whole import closure: only modules a followed call, constant, spec, mesh or class
leads to (jax's own tests import most of `jax/_src`, which a whole-closure parse would pay for on every run).

What is followed:
- absolute imports (`from pkg.layers import f`, `import pkg.layers as m`, `import pkg.layers` then
  `pkg.layers.f`), relative imports (`from .layers import f`, `from .. import config`), and re-exports
  (`pkg/__init__.py` saying `from .layers import f`, followed to the definition), a submodule imported
  from its package (`from pkg import layers`);
- only files under the project root: the nearest directory above the checked paths holding
  `pyproject.toml`, `setup.cfg` or `.git` (or the root given), searched from the importing module's own
  package base, the root, and `<root>/src`. Installed libraries (site-packages) are never followed, and
  neither are JAX, Flax and NumPy themselves, whose API the analysis knows by name (`spmdfix.jaxapi`).

Each parsed module gets a `ModuleSummary` (plain, picklable data) whose `digest` is a SHA-256 of the file's
bytes; the summary of what a function reaches (`facts.FunctionSummary`, kept in the module's model) records
the digests of the modules it was computed from, so a cache may serve it again while those bytes are
unchanged. An `overlay` (absolute path -> unsaved text) lets a language server analyse buffers that are
not saved yet. A run builds one index (per worker process); it is not thread-safe.

The index does no I/O: what it knows of the file system it asks the `ProjectFiles` it is given
(`spmdfix.project_files.DiskFiles` reads the disk), and the model of each module it loads is built by the
`analyse` factory it is given (`module_model.ModuleModel.build`): it imports neither. Those two and the records
it keeps per module are in `analysis.project_modules`.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.follow import REEXPORTS, Follow
from spmdfix.analysis.importers import (
    UNKNOWN_GRAPH,
    attribute_writer,
    class_member_writer,
    init_caller,
    method_definer,
    name_writer,
    name_written_by_others,
    named_elsewhere,
    project_writer,
    redefined_elsewhere,
)
from spmdfix.analysis.passed_elsewhere import (
    argument_elsewhere,
    callable_passed_elsewhere,
    constructions_elsewhere,
    passed_elsewhere,
    why_not_passed,
)
from spmdfix.analysis.project_answers import HOLDING_KEY, IMPORTERS_OF_KEY, holding_digest, importers_digest
from spmdfix.analysis.project_modules import Analyse, AnalysedModule, LoadedModule, ModuleSummary, ProjectFiles

_T = TypeVar("_T")

if TYPE_CHECKING:
    from spmdfix.analysis.bindings import Binding, Scope
    from spmdfix.analysis.module_model import ModuleModel
    from spmdfix.analysis.values import Evaluator
    from spmdfix.analysis.scopes import ModuleIndex

# Packages whose API the analysis knows by name: following them would parse JAX itself for `jnp.sum`.
NOT_FOLLOWED = frozenset({"jax", "jaxlib", "flax", "numpy", "optax", "orbax", "chex", "einops", "ml_dtypes"})
MAX_MODULES = 256  # modules one index parses at most; past it names stay unresolved (and are counted)
# The tree of a module's text: (absolute path, SHA-256 of the text's bytes, text) -> `ast.parse(text)`; raises
# what `ast.parse` raises. An edge may give one that serves the tree of a text parsed before
# (`module_memo.ModuleMemo.parse`: a language server builds an index per edit of a document).
Parse = Callable[[str, str, str], ast.Module]


def parse_text(path: str, digest: str, text: str) -> ast.Module:
    """`Parse` without memory: the text parsed (`ast.parse`)."""
    return ast.parse(text)


# A module's absolute path -> the modules of the project importing it (path -> the names imported, "<module>"
# for the module itself, "<importlib>" for a module importing importlib), or None when not known.
Importers = Callable[[str], Mapping[str, frozenset[str]] | None]


# A word -> (absolute path, SHA-256 of the bytes) of each module of the project whose text holds it, in path
# order, or None when the project's modules are not known (`project_graph.ProjectGraph.holding`).
Holding = Callable[[str], "tuple[tuple[str, str], ...] | None"]


def _top_level_names(ix: ModuleIndex) -> tuple[dict[str, str], frozenset[str]]:
    """(the names a module binds by import, to the qualified names they stand for; the names of its top-level
    functions and classes): `ModuleSummary`'s, derived once per `ModuleIndex` (`ModuleIndex.derived`: a
    process shares a module's scopes between its project indexes, `spmdfix.module_memo`)."""
    key = ("index.top_level_names",)
    kept = ix.derived.get(key)
    if kept is None:
        bindings = ix.module_scope.bindings
        exports = {
            n: bs[0].qname for n, bs in bindings.items() if len(bs) == 1 and bs[0].kind is BindingKind.IMPORT and bs[0].qname
        }
        definitions = frozenset(
            n for n, bs in bindings.items() if any(b.kind in (BindingKind.DEF, BindingKind.CLASS) for b in bs)
        )
        kept = ix.derived[key] = (exports, definitions)
    return kept


@dataclass(frozen=True)
class Noted:
    """What a computation read and asked of a `ProjectIndex` (`ProjectIndex.noting`): the modules read
    (`touch`) and the questions asked with the digests of their answers (`importers_of`, `holding`)."""

    touched: set[str]
    asked: dict[str, str]


class ProjectIndex:
    """The modules of one project, parsed on demand.

    Input: the project root; `files`, what the index knows of the file system (`ProjectFiles`); `analyse`, the
    factory of a loaded module's model; an optional overlay of unsaved texts (absolute path -> text), which
    stand for the files at those paths; `max_modules`, how many modules it parses at most; `importers`, who
    imports a module (the reverse import graph, computed by the edge: `spmdfix.project_graph`), None when not
    known (then a fix editing another module's mesh says it did not look: `analysis.importers`); `parse`, how a
    module's text becomes its tree (`Parse`; `analyse` then builds its model); `earlier`, an index of the same
    root whose reads of the files this one takes as its own (`_read`); `holding`, which modules of the project
    hold a word in their text (`Holding`, computed by the edge), None when not known; `importers_unknown`, why
    `importers` answered None, in a message's words (`importers_unknown_why`). Never raises for a file that is
    missing, unreadable or does not parse: names into it stay unresolved.
    """

    def __init__(
        self,
        root: str,
        *,
        files: ProjectFiles,
        analyse: Analyse,
        overlay: Mapping[str, str] | None = None,
        max_modules: int = MAX_MODULES,
        importers: Importers | None = None,
        parse: Parse = parse_text,
        earlier: ProjectIndex | None = None,
        holding: Holding | None = None,
        importers_unknown: Callable[[], str] | None = None,
    ) -> None:
        self.files = files
        self._importers_unknown = importers_unknown
        self._holding = holding
        self._held: dict[str, tuple[tuple[str, ...] | None, str]] = {}  # `holding`: word -> (paths, digest)
        self._texts: dict[str, str | None] = {}  # `text_of`: path -> text
        self._earlier = earlier
        self._parse = parse
        self._importers = importers
        self._analyse = analyse
        self.root = files.real_path(str(root))
        self.overlay = dict(overlay or {})
        self.max_modules = max_modules
        self._by_name: dict[str, LoadedModule | None] = {}
        self._by_path: dict[str, LoadedModule] = {}
        self._located: dict[tuple[str, str], str | None] = {}
        self.parsed = 0  # modules parsed so far (the measure that the closure is not parsed)
        self.judged = 0  # modules parsed for the judgement of cross-module fixes, past any limit (`load`)
        self._touched: set[str] | None = None
        self._absent: set[str] = set()  # candidate files `locate` looked for and did not find
        self._unloaded: set[str] = set()  # files `load` could not read, parse or (past max_modules) keep
        self._peeked: dict[str, str] = {}  # files `peek` read without parsing: path -> SHA-256 of the bytes
        self._asked: dict[str, str] | None = None  # while recording: path -> `importers_digest` of the answer
        self._module_names: dict[str, tuple[str, str, bool]] = {}  # `module_name`
        # What callers derive from this index's answers, under keys of their own (`importers._object_importers`);
        # like the answers it is derived from (`importers_of`), it holds for the index's life.
        self.derived: dict[tuple, object] = {}
        # `importers_of`: path -> (the answer, [its `importers_digest`] once a recording asked it)
        # The module being checked (absolute path -> its model, whose nodes the analysis points into: a module
        # of the project read for another's question is read through it, not parsed again), and what is derived
        # during that check from its nodes and other modules (`passed_elsewhere`); both set by `checking`.
        self._checked: dict[str, ModuleModel] = {}
        self.per_check: dict[tuple, object] = {}
        self._importers_of: dict[str, tuple[Mapping[str, frozenset[str]] | None, list[str]]] = {}

    # --- where modules are ------------------------------------------------------------------------
    def contains(self, path) -> bool:
        """Whether `path` (a `str` or a path object) lies under the project root."""
        return self.files.inside(str(path), self.root)

    def _bases(self, importer: str) -> list[str]:
        bases = []
        if importer:
            bases.append(self.module_name(importer)[1])
        bases += [self.root, self.files.join(self.root, "src")]
        return [b for i, b in enumerate(bases) if b not in bases[:i] and self.contains(b)]

    def locate(self, module: str, importer: str = "") -> str | None:
        """The file of dotted `module` under the project root (`a/b.py` or `a/b/__init__.py`), or None."""
        key = (module, importer and self.module_name(importer)[1])
        if key in self._located:
            return self._located[key]
        found = None
        if module and module.split(".")[0] not in NOT_FOLLOWED:
            parts = [p for p in module.split(".") if p]  # (as a path's parts: empty ones say nothing)
            for base in self._bases(importer):
                for candidate in (
                    self.files.join(base, *parts[:-1], parts[-1] + ".py"),
                    self.files.join(base, *parts, "__init__.py"),
                ):
                    if (candidate in self.overlay or self.files.has_file(candidate)) and self.contains(candidate):
                        found = self.files.real_path(candidate)
                        break
                    self._absent.add(candidate)
                if found:
                    break
        self._located[key] = found
        return found

    def module_name(self, path: str) -> tuple[str, str, bool]:
        """`ProjectFiles.module_name` of the file at `path`, asked once per index (or taken from `earlier`'s
        answer): the index asks it of every module it loads and of every importer it locates names for, and
        keeps what it found of the file system (`locate`'s answers) as long as it lives."""
        known = self._module_names.get(path)
        if known is None:
            earlier = self._earlier._module_names.get(path) if self._earlier is not None else None
            known = self._module_names[path] = earlier if earlier is not None else self.files.module_name(path)
        return known

    def importers_of(self, path: str) -> Mapping[str, frozenset[str]] | None:
        """The modules of the project importing the module at `path` and the names each imports (the
        `importers` the index was given), or None when it was given none or they are not known."""
        if self._importers is None:
            return None
        # (asked once per index: the judgement of a mesh's fix asks it of each of the hundreds of modules
        # importing the mesh, and again per function searched; an edge's answers hold for an index's life)
        known = self._importers_of.get(path)
        if known is None:
            answer = self._importers(path)
            known = self._importers_of[path] = (answer, [])
        if self._asked is not None:
            if not known[1]:
                known[1].append(importers_digest(known[0]))
            self._asked[path] = known[1][0]
        return known[0]

    def importers_unknown_why(self) -> str:
        """Why `importers_of` answered None, as a message says it where it did not search the modules importing
        a module (`the modules that may import ... (WHY: not searched)`): the edge's words ("the project root
        /tmp holds more than 20,000 Python files", `project_graph.ProjectGraph.why_incomplete`), else "the
        project's import graph is not known"."""
        if self._importers is not None and self._importers_unknown is not None:
            return self._importers_unknown()
        return UNKNOWN_GRAPH

    def knows_project(self) -> bool:
        """Whether the index was given a search of the project's modules (`holding`): False for a text analysed
        with no project, where no other module exists."""
        return self._holding is not None

    def holding(self, word: str, record: bool = True) -> tuple[str, ...] | None:
        """The modules of the project whose text holds `word` (absolute paths, in path order: the `holding` the
        index was given, a search of their bytes), or None when it was given none or they are not known.
        Asked once per index and word; recorded while `recording` with the digest of the answer, which covers
        those modules' bytes (`holding_digest`: a results cache checks it again, `HOLDING_KEY`), so that their
        texts are read without being recorded (`text_of`). `record=False`: not recorded, for a question whose
        answer rests on one of those modules only, which the asker records (`peek`) when it finds it."""
        if self._holding is None:
            return None
        known = self._held.get(word)
        if known is None:
            answer = self._holding(word)
            paths = tuple(path for path, _ in answer) if answer is not None else None
            known = self._held[word] = (paths, holding_digest(answer))
        if record and self._asked is not None:
            self._asked[HOLDING_KEY + word] = known[1]
        return known[0]

    def text_of(self, path: str) -> str | None:
        """The text of a module `holding` named, as `peek` reads it but recorded nowhere: the `HOLDING_KEY`
        entry's digest covers its bytes, and a module read for a word asked by one check of a batch must not
        become a dependency of the later checks of the batch (`everything_read`), whose outcomes would then
        depend on the order of the jobs (tests/test_scheduling.py)."""
        loaded = self._by_path.get(path)
        if loaded is not None:
            return loaded.model.ix.source
        if path not in self._texts:  # (kept: every attribute asked reads the modules holding `setattr` again)
            read = self._read(path)
            self._texts[path] = read[0] if read is not None else None
        return self._texts[path]

    # --- loading ----------------------------------------------------------------------------------
    def _read(self, path: str) -> tuple[str, str] | None:
        """(text, SHA-256 of its bytes) of a module: the overlay's text, else the file's: as `earlier` read the
        file when it loaded it from there (a language server's index of a typed text reads the project as the
        index of the file's own text did, which the server has just found unchanged on disk: reading and
        hashing the hundreds of modules importing a mesh again was a third of a typed edit), else
        `ProjectFiles.read`."""
        text = self.overlay.get(path)
        if text is not None:
            return text, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        earlier = self._earlier
        if earlier is not None and path not in earlier.overlay:
            loaded = earlier._by_path.get(path)
            if loaded is not None:
                return loaded.model.ix.source, loaded.summary.digest
        return self.files.read(path)

    # --- what one check read ----------------------------------------------------------------------
    @contextlib.contextmanager
    def recording(self):
        """Collect the modules the analysis reads meanwhile; yields a list that holds, on exit, their
        (absolute path, SHA-256 of the bytes) in path order (what a results cache keys an outcome by): what
        `noting` collects, with the digests."""
        out: list[tuple[str, str]] = []
        try:
            with self.noting() as noted:
                yield out
        finally:
            for path in sorted(noted.touched):
                loaded = self._by_path.get(path)
                if loaded is not None:
                    out.append((path, loaded.summary.digest))
                elif path in self._peeked:
                    out.append((path, self._peeked[path]))
            # who imports the modules asked about (a fix judged against their importers depends on it)
            # (and which modules hold a word asked about: `holding`, whose keys are `HOLDING_KEY` + the word)
            out += [
                (key if key.startswith(HOLDING_KEY) else IMPORTERS_OF_KEY + key, digest)
                for key, digest in sorted(noted.asked.items())
            ]

    @contextlib.contextmanager
    def noting(self):
        """Collect what is asked and read meanwhile (`touch`, `importers_of`, `holding`), recording or not;
        yields a `Noted` that holds it on exit (and an enclosing recording gets it too). For an answer derived
        from the index and kept in `derived`: `replay` records the same for a later ask of it."""
        outer, self._touched = self._touched, set()
        outer_asked, self._asked = self._asked, {}
        noted = Noted(self._touched, self._asked)
        try:
            yield noted
        finally:
            self._touched, self._asked = outer, outer_asked
            if outer is not None:
                outer |= noted.touched
            if outer_asked is not None:
                outer_asked.update(noted.asked)

    def replay(self, noted: Noted) -> None:
        """Record what a kept answer's computation read and asked (`noting`), as asking it afresh would."""
        if self._touched is not None:
            self._touched |= noted.touched
        if self._asked is not None:
            self._asked.update(noted.asked)

    def kept(self, key: tuple, compute: Callable[[], _T]) -> _T:
        """`compute()`, kept under `key` (`derived`) with what it read and asked of this index (`noting`): a
        later ask gets the same answer and records the same reads and questions (`replay`), as a fresh answer
        would in a results cache's recording. For questions whose answers hold for the index's life (they read
        the project's texts and import graph as the index found them: `analysis.importers`)."""
        found = self.derived.get(key)
        if found is not None:
            answer, noted = found  # type: ignore[misc]
            self.replay(noted)
            return answer
        with self.noting() as noted:
            answer = compute()
        self.derived[key] = (answer, noted)
        return answer

    def everything_read(self) -> list[tuple[str, str | None]]:
        """(absolute path, SHA-256 of the bytes, or None for a file absent or unreadable now) of every module
        this index has loaded, failed to load, or looked for and not found, in path order: a superset of
        what any check run with it so far may depend on (a summary computed for one module and served to
        another carries only the modules of the functions it went through, not every module read for it).
        What a results cache keys an analysed module's outcome by, so that an edit, a new module or a
        repaired one anywhere it looked is seen."""
        out: dict[str, str | None] = {path: loaded.summary.digest for path, loaded in self._by_path.items()}
        for path, digest in self._peeked.items():
            out.setdefault(path, digest)
        for path in self._unloaded:
            read = None if path in self.overlay else self.files.digest(path)
            out.setdefault(path, read)
        for path in self._absent:
            out.setdefault(path, None)
        return sorted(out.items())

    def files_seen(self) -> dict[str, str | None]:
        """Every file this index depends on, as it found it: a loaded module's absolute path -> SHA-256 of the
        bytes it parsed; a file it could not read or parse (or left out past `max_modules`) and a candidate it
        looked for and did not find -> None. Unlike `everything_read`, nothing is read from disk: what a
        long-lived user (the language server) compares with the files now to know whether the index is stale."""
        out: dict[str, str | None] = {path: loaded.summary.digest for path, loaded in self._by_path.items()}
        for path, digest in self._peeked.items():
            out.setdefault(path, digest)
        for path in (*self._unloaded, *self._absent):
            out.setdefault(path, None)
        return out

    def digest_of(self, path: str) -> str:
        """The SHA-256 of the text the index parsed for the module at `path`, "" when it has not loaded it."""
        loaded = self._by_path.get(path)
        return loaded.summary.digest if loaded is not None else ""

    @contextlib.contextmanager
    def checking(self, path: str, model: ModuleModel):
        """While the module at `path`, modelled by `model`, is checked: other modules' questions that read it
        read `model` (`checked_models`, `model_of`), and answers derived from it are kept (`per_check`),
        forgotten when the check ends (its nodes are released)."""
        outer = self._checked, self.per_check
        self._checked, self.per_check = {path: model}, {}
        try:
            yield
        finally:
            self._checked, self.per_check = outer

    def checked_models(self) -> dict[str, ModuleModel]:
        """The module being checked, by absolute path (`checking`; empty outside a check)."""
        return self._checked

    def model_of(self, link: ProjectLink) -> ModuleModel | None:
        """The model `link` is the project link of: the index's model of a module it loaded (also of the module
        being checked, when the analysis came back to it through another module: its nodes are that parse's),
        else the model being checked at its path, else the index's model at that path."""
        loaded = self._by_path.get(link.path)
        if loaded is not None and loaded.model.project is link:
            return loaded.model
        if link.path in self._checked:
            return self._checked[link.path]
        return loaded.model if loaded is not None else None

    def touch(self, paths) -> None:
        """Record modules read on the way to a summary computed earlier (`FunctionSummary.depends`)."""
        if self._touched is not None:
            self._touched.update(p for p in paths if p)

    def touch_depends(self, depends) -> None:
        """Record what a summary computed earlier depends on (`FunctionSummary.depends`): the modules read,
        and who imports the modules its fixes were judged against (`IMPORTERS_OF_KEY` entries)."""
        self.touch(p for p, _ in depends if not p.startswith((IMPORTERS_OF_KEY, HOLDING_KEY)))
        if self._asked is not None:
            self._asked.update((p[len(IMPORTERS_OF_KEY) :], d) for p, d in depends if p.startswith(IMPORTERS_OF_KEY))
            self._asked.update((p, d) for p, d in depends if p.startswith(HOLDING_KEY))

    def peek(self, path: str) -> str | None:
        """The text of the module at `path` as `load` would read it, without parsing it (and without counting
        it against `max_modules`), or None when it cannot be read. Recorded as a module read (`recording`,
        `everything_read`, `files_seen`): a caller that decides from the text alone that the module holds
        nothing it looks for depends on it as much as on a parsed one (`importers._add_closure`)."""
        loaded = self._by_path.get(path)
        if loaded is not None:
            return loaded.model.ix.source
        read = self._read(path)
        if read is None:
            return None
        self._peeked[path] = read[1]
        return read[0]

    def peek_tree(self, path: str) -> ast.Module | None:
        """The tree of the module at `path` without loading it: the loaded module's own tree when it is loaded,
        else the text `peek` reads (recorded as `peek` records it) parsed now and not kept. None when the file
        cannot be read or parsed. The caller only reads the tree."""
        loaded = self._by_path.get(path)
        if loaded is not None:
            return loaded.model.ix.tree
        text = self.peek(path)
        if text is None:
            return None
        try:
            return ast.parse(text)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return None

    def load(self, path: str, capped: bool = True) -> LoadedModule | None:
        """The parsed module at `path` (parsed once), or None when it cannot be read or parsed, or (`capped`)
        when the index has parsed `max_modules` already. Uncapped: a module the judgement of a cross-module
        fix must read (`analysis.importers`: an importer of the edited module), which is neither refused nor
        counted in `parsed` (the limit bounds how far the analysis follows names; the judgement reads what
        imports the module, at most the project's listed files, and only when such a fix is judged)."""
        key = str(path)
        if key in self._by_path:
            return self._by_path[key]
        if capped and self.parsed >= self.max_modules:
            self._unloaded.add(key)
            return None
        read = self._read(key)
        if read is None:
            self._unloaded.add(key)
            return None
        text, digest = read
        try:
            tree = self._parse(key, digest, text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            self._unloaded.add(key)
            return None
        if capped:
            self.parsed += 1
        else:
            self.judged += 1
        self._unloaded.discard(key)  # (refused earlier past the limit: read now)
        return self.add(key, text, tree, digest)

    def add(self, path: str, text: str, tree: ast.Module, digest: str) -> LoadedModule:
        """Register a parsed module (its model built by the `analyse` factory) and return it."""
        key = str(path)
        name, _, is_package = self.module_name(key)
        package = name if is_package else name.rpartition(".")[0]
        model = self._analyse(text, tree, key, package, ProjectLink(self, key))
        exports, definitions = _top_level_names(model.ix)
        summary = ModuleSummary(
            module=name, path=key, digest=digest, is_package=is_package, exports=dict(exports), definitions=definitions
        )
        loaded = LoadedModule(summary, model)
        self._by_path[key] = loaded
        return loaded

    def module(self, name: str, importer: str = "") -> LoadedModule | None:
        """The parsed module of dotted `name`, or None."""
        path = self.locate(name, importer)
        loaded = self.load(path) if path is not None else None
        if loaded is not None and self._touched is not None:
            self._touched.add(loaded.summary.path)
        return loaded

    # --- names ------------------------------------------------------------------------------------
    def resolve(self, qname: str, importer: str = "", whole: bool = False) -> tuple[LoadedModule, str | None] | None:
        """Where the absolute qualified name `qname` is defined: (module, name bound in its top level), or
        (module, None) when `qname` is a module itself. Follows re-exports and submodules of packages. None
        when no file of the project defines it. An attribute of a top-level name (`pkg.config.CFG.axis`)
        resolves to that name (`CFG`: the caller reads the rest), unless `whole`: then None."""
        parts = qname.split(".")
        if not parts[0] or parts[0] in NOT_FOLLOWED:
            return None
        hop = Follow(REEXPORTS)
        while not hop.spent:
            hop = hop.deeper()
            found = None
            for i in range(len(parts), 0, -1):
                loaded = self.module(".".join(parts[:i]), importer)
                if loaded is not None:
                    found = (loaded, parts[i:])
                    break
            if found is None:
                return None
            loaded, rest = found
            if not rest:
                return loaded, None
            name = rest[0]
            bindings = loaded.model.ix.module_scope.bindings.get(name, [])
            if len(bindings) == 1 and bindings[0].kind is BindingKind.IMPORT and bindings[0].qname:
                target = bindings[0].qname.split(".")
                if target == parts:
                    return None
                parts, importer = target + rest[1:], loaded.summary.path  # a re-export: follow it
                continue
            if len(rest) == 1 and bindings:
                return loaded, name
            if not bindings and loaded.summary.is_package:
                sub = self.module(f"{loaded.summary.module}.{name}", loaded.summary.path)
                if sub is not None:
                    parts, importer = [*sub.summary.module.split("."), *rest[1:]], loaded.summary.path
                    continue
            if len(rest) > 1 and bindings and not whole:
                return loaded, name  # an attribute of a class or object: the caller reads the rest
            return None
        return None

    def lost(self, qname: str, importer: str = "") -> str | None:
        """Why `resolve` could not follow the qualified name `qname` into a definition, in words, when it
        names code of the project (a module under the root that could not be read or parsed, or that the
        `max_modules` limit left out; a name its module does not bind, or binds more than once); None when
        it is not a module of the project at all (a library: `scipy.special.erf`, a re-export of one)."""
        parts = qname.split(".")
        hop = Follow(REEXPORTS)
        while not hop.spent:
            hop = hop.deeper()
            if not parts[0] or parts[0] in NOT_FOLLOWED:
                return None
            located = next(
                ((i, p) for i in range(len(parts), 0, -1) if (p := self.locate(".".join(parts[:i]), importer))),
                None,
            )
            if located is None:
                return None
            i, path = located
            module, rest = ".".join(parts[:i]), parts[i:]
            loaded = self.load(path)
            if loaded is None:
                if self.parsed >= self.max_modules:
                    return f"module `{module}` is past the limit of {self.max_modules} modules read for one run"
                return f"module `{module}` could not be read or parsed"
            if not rest:
                return f"`{module}` is a module"
            bindings = loaded.model.ix.module_scope.bindings.get(rest[0], [])
            if len(bindings) == 1 and bindings[0].kind is BindingKind.IMPORT and bindings[0].qname:
                target = bindings[0].qname.split(".")
                if target == parts:
                    return f"`{qname}` imports itself"
                parts, importer = target + rest[1:], loaded.summary.path
                continue
            if not bindings:
                undecided = _undecided_names(loaded.model.ix, module, rest[0])
                if undecided:
                    return undecided
            if not bindings and loaded.summary.is_package:
                return f"package `{module}` has no module or name `{rest[0]}`"
            if not bindings:
                return f"module `{module}` does not define `{rest[0]}`"
            if len(bindings) > 1:
                return f"`{rest[0]}` is bound in {len(bindings)} places of module `{module}`"
            if bindings[0].kind in (BindingKind.DEF, BindingKind.CLASS, BindingKind.ASSIGN):
                return None  # it resolves: nothing is lost
            return f"`{'.'.join(parts)}` is not a function or class the analysis follows"
        # (the walk looks at the name and at each re-export, `REEXPORTS.limit + 1` names in all)
        return f"`{qname}` is re-exported more than {REEXPORTS.limit + 1} times"


def _undecided_names(ix: ModuleIndex, module: str, name: str) -> str | None:
    """Why module `module` (its scopes `ix`), which binds no `name` by its own statements, may still give it:
    a star import at its top level (`from .layers import *` in a package's `__init__.py`: the names it binds
    are not followed) or a module-level `__getattr__` (PEP 562: a lazy re-export), in words naming the
    line; None when it has neither (the name is then missing)."""
    stars = ix.star_imports()  # (only a module's top level may hold one: Python refuses it in a function)
    if stars:
        star = min(stars, key=lambda node: node.lineno)
        spelled = "." * (star.level or 0) + (star.module or "")
        return (
            f"`{module}` may bind `{name}` through `from {spelled} import *` (line {star.lineno}), whose names "
            "the analysis does not follow"
        )
    for stmt in ix.tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "__getattr__":
            return (
                f"`{module}` may give `{name}` through its module-level `__getattr__` (line {stmt.lineno}), "
                "which the analysis does not follow"
            )
    return None


@dataclass(slots=True, eq=False, repr=False)
class ProjectLink:
    """One module's view of the project index: resolves the qualified names its bindings spell."""

    index: ProjectIndex
    path: str

    def resolve(self, qname: str | None, whole: bool = False) -> tuple[LoadedModule, str | None] | None:
        if not qname or qname.startswith("."):
            return None
        return self.index.resolve(qname, self.path, whole)

    def binding(self, qname: str | None, whole: bool = False) -> tuple[AnalysedModule, Binding] | None:
        """(the model of the module defining `qname`, its single top-level binding), or None. `whole`: None
        for an attribute of a top-level name (`ProjectIndex.resolve`)."""
        found = self.resolve(qname, whole)
        if found is None or found[1] is None:
            return None
        loaded, name = found
        ix = loaded.model.ix
        binding = ix.single_binding(name, ix.module_scope)
        return (loaded.model, binding) if binding is not None else None

    def lost(self, qname: str) -> str | None:
        """Why `qname`, which `binding` did not find, is code of the project the index lost; None for a
        library's name (`ProjectIndex.lost`)."""
        return self.index.lost(qname, self.path)

    def library_name(self, qname: str | None) -> str | None:
        """The qualified name of the library object (JAX's, not the project's) that the project name `qname`
        re-exports: `from jax import shard_map` or `shard_map = jax.shard_map` in pkg/compat.py makes
        `pkg.compat.shard_map` stand for `jax.shard_map` (through re-exports of the project too); None for
        the project's own code, a name bound more than once (`try: from jax import shard_map except
        ImportError: ...`), or past the budget of re-exports. Silence before (breaker8: a shard_map or vmap
        spelled through a compat module of the project was not recognised)."""
        hop = Follow(REEXPORTS)
        while qname and self.follows(qname) and not hop.spent:
            hop = hop.deeper()
            if qname.split(".")[0] in sys.stdlib_module_names:
                return None  # (`functools.partial`: no module of the project is looked for)
            head, _, name = qname.rpartition(".")
            found = self.resolve(head) if head else None
            if found is None or found[1] is not None:
                return None
            ix = found[0].model.ix
            binding = ix.single_binding(name, ix.module_scope)
            if binding is None:
                return None
            if binding.kind is BindingKind.IMPORT:
                target = binding.qname
            elif binding.kind is BindingKind.ASSIGN and isinstance(binding.node, (ast.Name, ast.Attribute)):
                target = ix.qualname(binding.node, binding.scope)
            else:
                return None
            if not target or target.startswith(".") or target == qname:
                return None
            if self.follows(target) and self.resolve(target.split(".")[0]) is not None:
                qname = target  # a re-export of another module of the project: on to it
                continue
            return target
        return None

    def kind_of(self, qname: str | None) -> BindingKind | None:
        """The binding kind (`bindings.BindingKind`) of what `qname` names in the project, or None."""
        found = self.binding(qname)
        return found[1].kind if found is not None else None

    def digest(self) -> str:
        """The digest of this module's text ("" when the index has not loaded it: the module checked)."""
        return self.index.digest_of(self.path)

    def named_elsewhere(self, name: str) -> bool:
        """Whether another module of the project may reach this module's module-level `name` (a function or
        class it may call with other arguments): `importers.named_elsewhere`."""
        return named_elsewhere(self.index, self.path, name)

    def passed_elsewhere(self, param: Binding) -> tuple[Evaluator, ast.AST, Scope] | None:
        """The one value the calls of the project pass for `param`, a parameter of this module's module-level
        function or class (`passed_elsewhere.passed_elsewhere`), with the evaluator of the module writing it;
        None when not known."""
        owner = self.index.model_of(self)
        return passed_elsewhere(self.index, owner, param) if owner is not None else None

    def argument_elsewhere(self, param: Binding) -> tuple[tuple[ModuleModel, ast.AST, Scope] | None, str]:
        """(the argument the one call of the project passes for `param`, a parameter of this module's module-level
        function its module never calls, with the calling module's model and the call's scope, or None; why not)
        (`passed_elsewhere.argument_elsewhere`)."""
        owner = self.index.model_of(self)
        if owner is None:
            return None, "the module's calls are not read"
        return argument_elsewhere(self.index, owner, param)  # type: ignore[return-value]

    def constructions_elsewhere(self, name: str) -> list | None:
        """The calls of this module's module-level class `name` in the project's other modules
        (`passed_elsewhere.constructions_elsewhere`), None when not all its reads there are calls."""
        owner = self.index.model_of(self)
        return constructions_elsewhere(self.index, owner, name) if owner is not None else None

    def why_not_passed(self, param: Binding) -> str:
        """Why `passed_elsewhere` gives no value for `param` (`passed_elsewhere.why_not_passed`); "" when it does."""
        owner = self.index.model_of(self)
        return why_not_passed(self.index, owner, param) if owner is not None else ""

    def callable_passed_elsewhere(self, param: Binding) -> tuple[ModuleModel, ast.FunctionDef | ast.AsyncFunctionDef] | None:
        """The one `def` the calls of the project pass for `param` (`passed_elsewhere.callable_passed_elsewhere`),
        with its module's model; None when not known."""
        owner = self.index.model_of(self)
        return callable_passed_elsewhere(self.index, owner, param) if owner is not None else None

    def redefined_elsewhere(self, cls_name: str, attr: str) -> bool:
        """Whether a subclass in another module of the project may give this module's class `cls_name` another
        member `attr`: `importers.redefined_elsewhere`."""
        return redefined_elsewhere(self.index, self.path, cls_name, attr)

    def attribute_writer(self, attr: str, known: bool = False) -> str | None:
        """Why a module of the project importing this one, directly or not, may write `.attr` on some object
        (an instance this module holds among them), in words; None when none may: `importers.attribute_writer`
        (`known`: only the writes of the modules known count)."""
        return attribute_writer(self.index, self.path, attr, known)

    def known_attribute_writer(self, attr: str) -> str | None:
        """`attribute_writer(attr, known=True)`: what a class attribute or `self.NAME` read asks (writes10)."""
        return attribute_writer(self.index, self.path, attr, True)

    def project_writer(self, attr: str, judged: frozenset[str] = frozenset()) -> str | None:
        """Why any module of the project (but the `judged` ones, absolute paths) may store `.attr` on an object
        it was handed, in words naming the module and line; None when none may: `importers.project_writer`."""
        return project_writer(self.index, attr, judged)

    def class_member_writer(self, attr: str) -> str | None:
        """Why a module of the project may set the special method `attr` on a class from outside its body, in
        words naming the module and line; None when none may: `importers.class_member_writer`."""
        return class_member_writer(self.index, attr)

    def init_caller(self) -> str | None:
        """Why a module of the project may run `__init__` again on an object already built, in words naming the
        module and line; None when none may: `importers.init_caller`."""
        return init_caller(self.index)

    def method_definer(self, name: str) -> str | None:
        """Where a class of the project defines a method `name` (an indented `def name(`), in words naming the
        module and line ("a module of the project not listed" when the listing is not whole); None when none does
        or there is no project: `importers.method_definer`."""
        return method_definer(self.index, name)

    def name_writer(self, qname: str | None) -> str | None:
        """Why the module-level name `qname` of another module of the project, bound there once to a value
        (`binding(qname, whole=True)`), may hold another value when read: a write in another spelling
        (`importers.name_writer`), in words; None when nothing may write it, or `qname` is no such name."""
        found = self.resolve(qname, whole=True)
        if found is None or found[1] is None:
            return None
        return name_writer(self.index, found[0].summary.path, found[1])

    def own_name_writer(self, name: str) -> str | None:
        """Why a module importing this one may write this module's top-level `name`, in
        words (`importers.name_written_by_others`); None when none may. This module's own text is its
        reader's to look at (the module checked: its text may not be the file's)."""
        return name_written_by_others(self.index, self.path, name)

    def follows(self, qname: str | None) -> bool:
        """Whether `qname` names something the index would look for in the project (not JAX, not a
        relative name without a known package)."""
        return bool(qname) and not qname.startswith(".") and qname.split(".")[0] not in NOT_FOLLOWED
