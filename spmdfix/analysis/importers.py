"""The uses of one module's top-level name in the other modules of the project (issue 20, cross-module safety).

A fix that edits a mesh built in `pkg/config.py` changes it for every module that imports it: each of those
uses must be on the same allowlist the module's own uses are judged by (`mesh_uses.MeshUses`). The project
index does not scan the project (it parses modules on demand); which modules import which module, and which
names, is given to it as data by the edge (`ProjectIndex(importers=...)`, from `spmdfix.project_graph`). Here,
for a module and one of its names, every module of the project that imports it is parsed (through the index)
and the places holding the value are found by scope (`uses.UseIndex.loads`):

- `from pkg.config import MESH [as M]` (at any scope): each read of that binding;
- `from pkg import config`, `import pkg.config [as c]`, `import pkg`: each `config.MESH` / `pkg.config.MESH`
  attribute read; another attribute of the module is another name; the module object itself read any other
  way (passed on, stored, `getattr(config, ...)`) may reach the name unseen: it is a use of its own, reported;
- a re-export (`MESH` imported at module level, or a module-level name whose value or body mentions it, as
  `MESH2 = MESH` or `def get_mesh(): return MESH`) is followed to the modules importing that name in turn;
- `from pkg.config import *` is reported at its statement, and so is a module that imports `importlib` and may
  load a module by name with it (any use but `importlib.metadata` / `importlib.resources` and an
  `importlib.import_module('other.module')` of a literal naming another module), at its `import importlib`;
  so is a read of the builtin `__import__` that may load it (any but `__import__('other')` of a literal whose
  top-level package is another), at that read; and an importer that cannot be read or parsed.

Code outside the project (installed consumers) is out of scope (docs/safety.md). Pure: the index reads.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from spmdfix import jaxapi
from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.dynamic_loads import dynamic_loads, may_load_by_name
from spmdfix.analysis.members import attribute_writes
from spmdfix.analysis.scopes import has_word
from spmdfix.analysis.uses import Use
from spmdfix.analysis.writes import (
    attribute_stores,
    code_lines,
    attribute_write,
    class_attribute_write,
    container_write,
    init_call,
    own_name_write,
    project_write,
    setattr_calls,
)
from spmdfix.model import Span
from spmdfix.paths import relpath

if TYPE_CHECKING:
    from spmdfix.analysis.index import ProjectIndex
    from spmdfix.analysis.module_model import ModuleModel


# What a message says where the modules importing a module are not known and the edge gave no reason
# (`index.ProjectIndex.importers_unknown_why`).
UNKNOWN_GRAPH = "the project's import graph is not known"
DYNAMIC = "<importlib>"  # the name the edge gives a module that imports `importlib`
MODULE = "<module>"  # the name the edge gives an import of the module itself
_OBJECT_NAMES = frozenset({MODULE, "*", DYNAMIC})  # names by which a package's importer may reach a submodule
# What the edge gives a module importing one of the project by a directory put on `sys.path`: "<as NAME>", NAME
# the dotted name it imports it by (`project_graph.path_name`: `import config` -> pkg/config.py).
_PATH_NAME = "<as "


def path_names(names: frozenset[str]) -> list[str]:
    """The dotted names by which an importer (its `names`, an edge's answer) imports a module of the project
    through a directory on `sys.path` ("<as config>" -> "config"), sorted."""
    return sorted(n[len(_PATH_NAME) : -1] for n in names if n.startswith(_PATH_NAME))


@dataclass(slots=True)
class ImportedUses:
    """Where one name's value is read in the modules importing it.

    reads: (the importing module's model, the expressions there holding the value), one entry per module;
    sites: places that may reach the value where the analysis does not look (a star import, `importlib`, the
    module object passed on, an unreadable importer), each a `Use` naming its module. closure: every module
    of the project importing the owner directly or not, whatever the names (arrays computed from the value may
    reach them through calls: `mesh_uses` judges their `.sharding.mesh` reads).
    """

    reads: list[tuple[ModuleModel, list[ast.expr]]] = field(default_factory=list)
    sites: list[Use] = field(default_factory=list)
    closure: list[ModuleModel] = field(default_factory=list)


def in_module(use: Use, path: str, model: ModuleModel | None = None) -> Use:
    """`use` naming the module at `path` (how a reason says it is not in the finding's module). With the
    `model` the use was found in, the place is named as the project's files name it (`ProjectFiles.place`:
    in a notebook, `nb.ipynb cell 3` and the line in that cell)."""
    link = model.project if model is not None else None
    if link is None or not path.endswith(".ipynb"):
        return replace(use, module=relpath(path))
    shown, line = link.index.files.place(path, model.ix.source, use.line)
    return replace(use, module=shown, line=line)


def _not_read(path: str) -> Use:
    """The place a judgement names for a module of the project it could not read or parse (at `path`)."""
    return in_module(Use(Span(0, 0, path), 1, "(module not read or parsed)"), path)


def module_path(model: ModuleModel) -> str:
    """The absolute path of the module `model` models: the path its project link was made for (the module
    checked has no path of its own on its nodes), else its index's path ("" outside a project)."""
    return model.project.path if model.project is not None else model.ix.path


def imported_uses(
    index: ProjectIndex,
    owner: ModuleModel,
    name: str,
    *,
    values: bool = True,
    models: Mapping[str, ModuleModel] | None = None,
    budget: int | None = None,
    kept: Callable[[ModuleModel, ast.Name], bool] | None = None,
) -> ImportedUses | None:
    """The reads of `owner`'s top-level `name` in every module of the project that imports it, directly or
    through re-exports (module doc); None when the index was given no importers (nobody listed the
    project's imports: the caller keeps its own reason).

    values: `name` is a value whose module-level aliases (`_aliases`) carry it too, and whose importers'
    importers are gathered in `closure` (a mesh); False for a function, whose other names the caller's own
    follower finds (`analysis.callers`). models: the models to read some modules by (absolute path -> model:
    the module checked, whose nodes the caller's facts point into), instead of the index's. budget: at most
    that many importers are read; past it the answer is None, as when nobody listed the imports (the caller's
    fix is then unsafe, "not searched"): a question asked for every parameterised vmap site of a run, where a
    widely imported module of a large project (axlearn's common modules) had the search parse hundreds of
    modules per site. kept: whether a read of the value (a name holding it, in a module) reduces it to a value
    the caller's judgement keeps and that carries nothing of it on (`mesh.shape["data"]`: `mesh_uses.MeshUses.
    kept_number`): a module-level name assigned from such reads only is not one of its aliases (`_aliases`).

    Kept per index and question (`_KeptSearch`): each analysis of a module's importers asks the same search
    (the benchmark project's 11 importers of layers.py each searched `forward`'s ~460 module paths, in every
    typed edit), which differs between them only in the model `models` reads the asking module by."""
    models = models or {}
    key = ("importers.imported_uses", module_path(owner), name, values, budget, kept)
    searches: list[_KeptSearch] = index.derived.setdefault(key, [])  # type: ignore[assignment]
    for search in searches:
        if search.owner_text == owner.ix.source and search.fits(index, models):
            answer = search.answer_for(index, models)
            if answer is not _NOT_KEPT:
                index.replay(search.noted)
                return answer  # type: ignore[return-value]
    search = _KeptSearch(owner.ix.source)
    with index.noting() as search.noted:
        answer = _imported_uses(index, owner, name, values, models, budget, kept, search)
    search.answer = answer
    if len(searches) < _KEPT_SEARCHES:
        searches.append(search)
    return search.copy(answer)


# At most so many searches kept per question and index (owners' texts or models that differ: rare)
_KEPT_SEARCHES = 4
_NOT_KEPT = object()


class _KeptSearch:
    """One search of `imported_uses`, kept for the same question asked with other `models`: the answer, which
    module model each module it read was read by (`used`), the arguments of each read (`args`, one per entry
    of the answer's `reads`), and what it asked of the index (`noted`, replayed for a recording). Another
    asker's answer is the same search when every module it read has the same text in the asker's models (or
    the index's): only the reads of a module read by another model are found again, in that model's nodes."""

    def __init__(self, owner_text: str) -> None:
        self.owner_text = owner_text
        self.answer: ImportedUses | None = None
        self.used: dict[str, ModuleModel] = {}
        self.overridden: set[str] = set()  # the modules read by a model of the asker's `models`
        self.unread: set[str] = set()  # the modules neither the asker's models nor the index could give
        self.args: list[tuple[str, str, str, frozenset[str], int | None]] = []
        self.noted = None

    def fits(self, index: ProjectIndex, models: Mapping[str, ModuleModel]) -> bool:
        """Whether every module this search read has, for an asker with `models`, the text it was read in."""
        if any(path in models for path in self.unread):
            return False
        for path, used in self.used.items():
            mine = models.get(path)
            if mine is not None:
                if mine.ix.source != used.ix.source:
                    return False
            elif path in self.overridden and index.text_of(path) != used.ix.source:
                return False
        return True

    def answer_for(self, index: ProjectIndex, models: Mapping[str, ModuleModel]) -> ImportedUses | None | object:
        """The answer for an asker with `models` (`fits`): each read of a module the asker reads by another
        model found again there; `_NOT_KEPT` when such a module cannot be loaded (asked afresh then)."""
        if self.answer is None:
            return None
        reads = []
        for (loaded, found), (path, module, held, aliases, leave) in zip(self.answer.reads, self.args):
            want = models.get(path) or (_model(index, path) if path in self.overridden else loaded)
            if want is None:
                return _NOT_KEPT
            if want is not loaded:
                found = _reads_in(want, path, module, held, aliases, ImportedUses(), [], leave)
            reads.append((want, list(found)))
        return ImportedUses(reads, list(self.answer.sites), list(self.answer.closure))

    @staticmethod
    def copy(answer: ImportedUses | None) -> ImportedUses | None:
        if answer is None:
            return None
        return ImportedUses([(m, list(f)) for m, f in answer.reads], list(answer.sites), list(answer.closure))


def _imported_uses(
    index: ProjectIndex,
    owner: ModuleModel,
    name: str,
    values: bool,
    models: Mapping[str, ModuleModel],
    budget: int | None,
    kept: Callable[[ModuleModel, ast.Name], bool] | None,
    search: _KeptSearch,
) -> ImportedUses | None:
    out = ImportedUses()
    read = 0
    owner_module = index.module_name(module_path(owner))[0]
    out.sites += _namespace_sites(index, module_path(owner))
    # (a module holding the names, the dotted path of the module object holding them there, the names): the
    # owner's own; a module-level name re-exporting them (`from .config import MESH`: the module's own object);
    # a module-level name holding the owner's module object (`import pkg.config as cfg`: `pkg.loader.cfg`).
    todo = [(owner, owner_module, frozenset(_aliases(owner, name, kept) if values else {name}), (), False, None)]
    seen: set[tuple[str, str, frozenset[str]]] = set()
    while todo:
        # (chain: the module-level names holding module objects the path `held` goes through, ((module, name),
        # the number of parts of the path from there); around: the path went through one of them twice, and
        # leave: where, counted in parts of `held`, it leaves the cycle the first time)
        model, held, aliases, chain, around, leave = todo.pop()
        path = module_path(model)
        if (path, held, aliases) in seen:
            continue
        seen.add((path, held, aliases))
        module = index.module_name(path)[0]
        importers = _importers(index, path, module)
        if importers is None:
            return None
        wanted = aliases if held == module else {held[len(module) + 1 :].split(".")[0]}
        # Module objects holding each other (`import pkg` in pkg/utils.py, `from pkg import utils` in
        # pkg/train.py) make a cycle, `pkg.train.utils.pkg.train.utils.pkg.config`, whose paths never end
        # (breaker7 s08 looped forever). A path through a name it went through before goes around the cycle
        # once: its importers' reads along it are read, and a read leaving it where it comes back to that name
        # and goes on (`pkg.train.utils.pkg.train...` around again instead of `...pkg.config`) counts as a read
        # of the value, judged by the caller's allowlist. The names carrying it on are followed so too; a path
        # going around a second time ends there.
        parts = held.split(".")
        hop = (path, next(iter(wanted))) if held != module else None
        earlier = next((m for h, m in chain if h == hop), None) if hop is not None else None
        if earlier is not None:
            if around:
                continue
            around = True
            # (`held` ends with the path of that earlier visit from its name on: the name read again there)
            leave = len(parts) - (earlier - len(module.split("."))) + 1
        if hop is not None:
            chain = (*chain, (hop, len(parts)))
        for importer, names in importers.items():
            loaded = _read_by(index, importer, models, search) if DYNAMIC in names else None
            if DYNAMIC in names:
                sites = _loader_sites(loaded, importer) if loaded is not None else None
                if sites is None:
                    out.sites.append(_statement_site(index, importer, "importlib", "imports `importlib`"))
                    continue
                if sites:
                    out.sites += sites
                    continue
            if not (wanted & names or MODULE in names or "*" in names):
                continue
            read += 1
            if budget is not None and read > budget:
                return None
            loaded = loaded or _read_by(index, importer, models, search)
            index.touch([importer])  # (a results cache keys the outcome by it too)
            if loaded is None:
                out.sites.append(_not_read(importer))
                continue
            exports: list[tuple[str, str | None]] = []
            # (the module by its name from the root, and by each name a directory on `sys.path` gives it there:
            # `import config` reading pkg/config.py, breaker19 a53; the path and `leave` moved to that name)
            for name_there in [module, *path_names(names)]:
                held_there = name_there + held[len(module) :]
                shift = len(name_there.split(".")) - len(module.split("."))
                leave_there = None if leave is None else leave + shift
                found = _reads_in(loaded, importer, name_there, held_there, aliases, out, exports, leave_there)
                if found:
                    out.reads.append((loaded, found))
                    search.args.append((importer, name_there, held_there, aliases, leave_there))
            there = index.module_name(importer)[0]
            for bound, suffix in exports:
                if suffix is None:
                    carried_on = frozenset(_aliases(loaded, bound, kept) if values else {bound})
                    todo.append((loaded, there, carried_on, chain, around, None if leave is None else 1))
                else:
                    # (the new path replaces the module's name, `module`, by the importer's and its binding)
                    shift = len(f"{there}.{suffix}".split(".")) - len(parts)
                    moved = None if leave is None else leave + shift
                    todo.append((loaded, f"{there}.{suffix}", aliases, chain, around, moved))
    if values and not _add_closure(index, module_path(owner), out):
        return None
    return out


def _importers(index: ProjectIndex, path: str, module: str) -> dict[str, frozenset[str]] | None:
    """The modules that may read the module at `path` (dotted `module`): its importers, and the modules
    importing a package above it as a module object (`import pkg.model` binds `pkg`, whose attribute `config`
    is `pkg.config` once any module imported it) or by a star import; None when some are not known. Kept per
    index (`ProjectIndex.derived`): `imported_uses` asks it for every module a mesh's search passes through,
    thousands of times per analysis in a project of a thousand modules (the callers only read the answer);
    a kept answer asks its modules' importers of the index again, for what a results cache records."""
    return index.kept(("importers._importers", path), lambda: _importers_of(index, path, module))


def _importers_of(index: ProjectIndex, path: str, module: str) -> dict[str, frozenset[str]] | None:
    direct = index.importers_of(path)
    if direct is None:
        return None
    out = dict(direct)
    parts = module.split(".")
    for depth in range(1, len(parts)):
        package = index.locate(".".join(parts[:depth]), path)
        if package is None or package == path:
            continue
        above = index.importers_of(package)
        if above is None:
            return None
        rest = ".".join(parts[depth:])
        for importer, kept in _object_importers(index, package, above).items():
            if importer != path:
                # (a package imported through `sys.path` reaches the module by that name and the rest of its own)
                moved = frozenset(f"{_PATH_NAME}{n}.{rest}>" for n in path_names(kept))
                out[importer] = out.get(importer, frozenset()) | (kept - _path_markers(kept)) | moved
    return out


def _path_markers(names: frozenset[str]) -> frozenset[str]:
    return frozenset(n for n in names if n.startswith(_PATH_NAME))


def module_importers(index: ProjectIndex, path: str) -> dict[str, frozenset[str]] | None:
    """The modules that may read the module at `path` and the names each imports from it (`MODULE`: the module
    as an object, "*", `DYNAMIC`), as `_importers` finds them; None when some are not known."""
    return _importers(index, path, index.module_name(path)[0])


def named_elsewhere(index: ProjectIndex, path: str, name: str) -> bool:
    """Whether a module of the project other than the one at `path` may reach its module-level `name` (a
    function or class it may call with arguments of its own): one importing `name` from it, the module as an
    object (or a package above it), by a star import, or loading modules by name; a namespace package above
    it; True too when the importers are not known (`ProjectIndex.importers_of`: no graph). What
    `ModuleIndex.argument_for` asks before it reads a parameter from the calls of its own module only."""
    reaching = _importers_reaching(index, path, name)
    return reaching is None or bool(reaching)


def attribute_writer(index: ProjectIndex, path: str, attr: str, known: bool = False) -> str | None:
    """Why an object the module at `path` builds may carry another `.attr` than its construction gives: a
    module of the project importing it, directly or not, writes `.attr = ...` (or an augmented assignment to
    `.attr`) on some object, or calls `setattr` (`members.attribute_writes`, on the text:
    `ProjectIndex.peek`), or those modules are not known or one cannot be read; in words, or None when none
    may. An instance the module builds (`CFG = Config()`, read as `CFG.axis` in another module:
    `members.class_attribute`) is read only when None. Kept per index and question (`ProjectIndex.derived`, as
    `redefined_elsewhere`: every read of such a field asks it). `known`: only the writes of the modules known
    and read count (importers not known, a module that cannot be read or parsed, are passed over): the
    questions writes10 added (class attributes, `self.NAME`, module constants), which before it read the value
    whatever the importers; an imported instance's field keeps the stricter answer it had."""
    return _attribute_writer_and_read(index, path, attr, known)[0]


def _attribute_writer_and_read(index: ProjectIndex, path: str, attr: str, known: bool) -> tuple[str | None, tuple[str, ...]]:
    """`attribute_writer`'s answer and the modules whose text it read, in the order it read them (kept)."""

    def compute() -> tuple[str | None, tuple[str, ...]]:
        read: list[str] = []
        return _attribute_writer(index, path, attr, read, known), tuple(read)

    return index.kept(("importers.attribute_writer", path, attr, known), compute)


def _attribute_writer(index: ProjectIndex, path: str, attr: str, read: list[str], known: bool) -> str | None:
    seen = {path}
    todo = [path]
    while todo:
        importers = index.importers_of(todo.pop())
        if importers is None:
            if known:
                continue
            why = index.importers_unknown_why()
            return f"the modules importing {relpath(path)} are not known" + ("" if why == UNKNOWN_GRAPH else f": {why}")
        for importer in sorted(importers):
            if importer in seen:
                continue
            seen.add(importer)
            todo.append(importer)
            told = _writes_in(index, importer, attr, read, f"{relpath(importer)}, which imports {relpath(path)}")
            if told is not None and not (known and told.endswith("cannot be read")):
                return told
    return None


def _writes_in(index: ProjectIndex, path: str, attr: str, read: list[str], what: str) -> str | None:
    """Why the module at `path` (`what` names it in words) may write `.attr` on an object (`writes`), in words;
    None when it may not. Its text is read, not parsed, and recorded as read."""
    index.touch([path])
    read.append(path)
    text = index.peek(path)
    if text is None:
        return f"{what}, cannot be read"
    spelled = attribute_write(text, attr)
    return f"{relpath(path)} {spelled}" if spelled is not None else None


def project_writer(
    index: ProjectIndex, attr: str, judged: frozenset[str] = frozenset(), module_name: bool = False
) -> str | None:
    """Why any module of the project may store `.attr` on the object a value is read from, though it does
    not import that object's module: handed the object (`def tweak(cfg): cfg.data_axis = ...`, called as
    `tweak(CFG)` in another module; `setattr(obj, key, value)`: writes10 w08, w09). Which object a module
    writes is not followed, so a store of `.attr` on anything, a `setattr` naming `'attr'` or a name that is
    not a string literal, anywhere in the project, counts (`writes.project_write`), in words naming the
    module and line; None when no module may. `judged`: the modules (absolute paths) whose own writes the
    caller judged already (the module defining the class counts its `self.attr = ...` itself).
    `module_name`: `attr` is a module's top-level name, which `self.attr = ...` cannot store
    (`writes.project_write`). Only the
    modules whose text holds `attr` or `setattr` are read (`ProjectIndex.holding`: a search of the bytes,
    kept per graph and word), never parsed; when the project's modules are not known (no graph, past its
    limit), or a module cannot be read, they are passed over, as the importers not known are for the
    questions writes10 added (`attribute_writer(known=True)`). Kept per index and question."""
    key = ("importers.project_writer", attr, judged, module_name)
    return index.kept(key, lambda: _project_writer(index, attr, judged, module_name))


def _project_writer(index: ProjectIndex, attr: str, judged: frozenset[str], module_name: bool) -> str | None:
    named, setters = index.holding(attr), index.holding("setattr")
    for path in sorted({*(named or ()), *(setters or ())} - judged):
        # (read, not recorded: the `holding` answers' digests cover these modules' bytes; each module's text
        # and `setattr` calls read once per index, whatever the attribute asked)
        text = index.text_of(path)
        if text is None:
            continue
        key = ("importers.writes_of", path)
        kept = index.derived.get(key)
        if kept is None:
            code = code_lines(text)  # (comment lines write nothing)
            kept = index.derived[key] = (setattr_calls(code), attribute_stores(code))
        found = project_write(text, attr, module_name, *kept)  # type: ignore[misc]
        if found is not None:
            return f"{relpath(path)} line {found[0]} {found[1]}"
    return None


def class_member_writer(index: ProjectIndex, attr: str) -> str | None:
    """Why a module of the project may set the special method `attr` (`__call__`, `__init__`) on one of its
    classes from outside the class body (`Layer.__call__ = _plain` after the class, `cls.__call__ = ...` in a
    decorator or an `__init_subclass__`, `setattr(Layer, '__call__', ...)`: `writes.class_attribute_write`), in
    words naming the module and line; None when none may. Which class a store sets is not followed: one
    anywhere in the project counts (breaker11 a10, a14, a49: `Layer()(x)` ran a plain `__call__` while the
    lookup read the base's). Only the modules whose text holds `attr` are read (`ProjectIndex.holding`), never
    parsed; none when the project's modules are not known. Kept per index and question."""
    return index.kept(("importers.class_member_writer", attr), lambda: _class_member_writer(index, attr))


def _class_member_writer(index: ProjectIndex, attr: str) -> str | None:
    for path in index.holding(attr) or ():
        text = index.text_of(path)  # (read, not recorded: the `holding` answer's digest covers its bytes)
        found = class_attribute_write(text, attr) if text is not None else None
        if found is not None:
            return f"{relpath(path)} line {text.count(chr(10), 0, found[0]) + 1} {found[1]}"  # type: ignore[union-attr]
    return None


def init_caller(index: ProjectIndex) -> str | None:
    """Why a module of the project may run `__init__` again on an object already built (`writes.init_call`:
    `CFG.__init__('y')` in a module importing the one building `CFG`: breaker18 i11), in words naming the module
    and line; None when none may. Which object it runs on is not followed: one anywhere in the project counts.
    Only the modules whose text holds `__init__` are read (`ProjectIndex.holding`), never parsed; none when the
    project's modules are not known. Kept per index."""
    return index.kept(("importers.init_caller",), lambda: _init_caller(index))


def _init_caller(index: ProjectIndex) -> str | None:
    for path in sorted(index.holding("__init__") or ()):
        text = index.text_of(path)  # (read, not recorded: the `holding` answer's digest covers its bytes)
        found = init_call(text) if text is not None else None
        if found is not None:
            return f"{relpath(path)} line {found[0]} {found[1]}"
    return None


def method_definer(index: ProjectIndex, name: str) -> str | None:
    """Where a module of the project defines a method `name` in a class body (an indented `def name(`: a
    method, or a function nested in one, counted alike), in words naming the module and line; None when none
    does or the project's modules are not known. Hazard H2 keys `obj.name(...)` on an object the walk does not
    resolve as the array method `Array.name` only when no class of the project may give `obj` that method:
    `Summer.sum` of utils.py applying `lax.cond`, reaching a body of main.py as a parameter, a default, a
    closure's or an attribute's object, kept rename SAFE and the renamed program raised `pvary is a
    invariant->variant collective` (breaker16 x03-x07, x11). Only the modules whose text holds `name` are read
    (`ProjectIndex.holding`), never parsed. When the project's modules are not all listed (past the cap), a
    module not listed may define it: "a module of the project not listed". Kept per index and name."""
    return index.kept(("importers.method_definer", name), lambda: _method_definer(index, name))


def _method_definer(index: ProjectIndex, name: str) -> str | None:
    # (`def name(` is searched, then its line's start checked: a pattern anchored at every line start, `^[ \t]+`
    # with re.MULTILINE, made the engine try each offset, 0.06 s over the 184 modules of jax's repository that
    # hold `sum`)
    pattern = re.compile(rf"def[ \t]+{re.escape(name)}[ \t]*\(")
    # (modules first: one is enough, and a notebook's text is its cells, each compiled as it is read, 0.06 s for
    # the 34 notebooks of jax's repository that hold `sum`)
    # A module found to define it is what the answer rests on: it alone is recorded (`peek`), so that a warm run
    # checks its digest, not every module holding the word (reading jax's 1,074 modules again in each warm run
    # made it 0.11 s -> 0.28 s); none found, the answer rests on every module holding the word (`holding`).
    paths = index.holding(name, record=False)
    if paths is None:
        # the project's modules are not all listed (past the cap), or the index knows no project: a class of a
        # module not listed may give the method; with no project (one text analysed alone) none can. (Recorded:
        # the listing made whole later changes the answer's digest.)
        index.holding(name)
        return "a module of the project not listed" if index.knows_project() else None
    for path in sorted(paths, key=lambda p: p.endswith(".ipynb")):
        text = index.text_of(path)
        for found in pattern.finditer(text) if text is not None else ():
            if _indented(text, found.start()):  # type: ignore[arg-type]
                index.peek(path)
                index.touch((path,))
                return f"{relpath(path)} line {text.count(chr(10), 0, found.start()) + 1}"  # type: ignore[union-attr]
    index.holding(name)
    return None


def _indented(text: str, at: int) -> bool:
    """Whether the `def` at offset `at` starts an indented line, maybe after `async` (a method, or a function
    nested in one)."""
    head = text[text.rfind("\n", 0, at) + 1 : at]
    stripped = head.rstrip(" \t")
    if stripped.endswith("async"):
        head = stripped[: -len("async")]
    return bool(head) and not head.strip(" \t")


def name_writer(index: ProjectIndex, path: str, name: str) -> str | None:
    """Why the module-level `name` of the module at `path`, bound there once to a value, may hold another
    value when another module reads it (`from pkg.config import DATA`, `config.DATA`, `config.CFG.axis`), in
    words; None when nothing may write it: its own text writing `globals()`, declaring `global name` or
    storing into the container it holds (`writes.own_name_write`, `writes.container_write`), or another module
    writing it (`name_written_by_others`)."""
    own = index.peek(path)
    if own is None:
        return f"{relpath(path)} cannot be read"
    told = own_name_write(own, name) or container_write(own, name)
    if told is not None:
        return f"{relpath(path)} {told}"
    return name_written_by_others(index, path, name)


def name_written_by_others(index: ProjectIndex, path: str, name: str) -> str | None:
    """Why a module of the project importing the module at `path`, directly or not, may write its top-level
    `name`, in words: `.name` written in any spelling (`config.DATA = ...`,
    `setattr(config, ...)`, `vars(config)[...]`, `mock.patch('pkg.config.DATA', ...)`: `attribute_writer`),
    or a store into the container it holds (`config.SPECS['act'] = ...`, `.update(...)`:
    `writes.container_write`); None when none may. Kept per index and question (`ProjectIndex.derived`), as
    `attribute_writer` (every read of a module-level name of the project asks it)."""
    return index.kept(("importers.name_written_by_others", path, name), lambda: _name_written(index, path, name))


def _name_written(index: ProjectIndex, path: str, name: str) -> str | None:
    answer, read = _attribute_writer_and_read(index, path, name, known=True)
    if answer is None:
        for where in read:
            text = index.peek(where)
            told = container_write(text, name) if text is not None else None
            if told is not None:
                answer = f"{relpath(where)} {told}"
                break
    if answer is None:
        # a module handed the module object (`def tweak(mod): mod.DATA = ...`), importing it or not
        answer = project_writer(index, name, module_name=True)
    return answer


def _importers_reaching(index: ProjectIndex, path: str, name: str) -> list[str] | None:
    """The modules of the project that may reach the module-level `name` of the module at `path` (`_importers`
    naming it, the module as an object, a star import or a load by name), in their order; None when that is
    not known: the importers are not known, or the module lies in a namespace package (`_namespace_sites`)."""
    importers = _importers(index, path, index.module_name(path)[0])
    if importers is None or _namespace_sites(index, path):
        return None
    return [i for i, names in importers.items() if name in names or names & _OBJECT_NAMES]


def redefined_elsewhere(index: ProjectIndex, path: str, cls_name: str, attr: str) -> bool:
    """Whether a class of another module of the project may subclass the module-level class `cls_name` of the
    module at `path` and give its member `attr` another value there (a class attribute, a method, a
    `self.attr = ...` of its methods), or another module writes `.attr = ...` on some object; True too when the
    importers are not known, one cannot be read, or the module lies in a namespace package.

    A method of the class reached through an instance of such a subclass (`ModelBlock().apply`, `apply`
    inherited from `layers.Block`) reads `self.attr` in the subclass: `layers.Block`'s own `axis = 'data'`
    read for `class ModelBlock(Block): axis = 'model'` of train.py was a finding on a program JAX runs. What
    `members.ClassMembers.overridden` asks, in a module the analysis follows a name into, besides its own
    subclasses. The bases of a class are matched by the qualified name they resolve to, or, when they name
    the class otherwise (`mod.Block` after a load by name, a star import), by the word; subclasses of a
    subclass in further modules are asked the same way. Kept per index and question (`ProjectIndex.derived`:
    every `self.NAME` read of a followed module asks it)."""
    key = ("importers.redefined", path, cls_name, attr)
    return index.kept(key, lambda: _redefined(index, path, cls_name, attr, set()))


def _redefined(index: ProjectIndex, path: str, cls_name: str, attr: str, seen: set[tuple[str, str]]) -> bool:
    if (path, cls_name) in seen:
        return False
    seen.add((path, cls_name))
    reaching = _importers_reaching(index, path, cls_name)
    if reaching is None:
        return True
    target = f"{index.module_name(path)[0]}.{cls_name}"
    for importer in reaching:
        loaded = _model(index, importer)
        index.touch([importer])
        if loaded is None:
            return True
        ix = loaded.ix
        if has_word(ix.source, attr) and attribute_writes(ix.source, attr):
            return True
        for node in ast.walk(ix.tree):
            if not isinstance(node, ast.ClassDef) or not any(_names_class(ix, b, cls_name, target) for b in node.bases):
                continue
            methods, values = loaded.members.members_of(node)
            if attr in methods or attr in values:
                return True
            if ix.scope_at(node) is ix.module_scope and _redefined(index, importer, node.name, attr, seen):
                return True
    return False


def _names_class(ix, base: ast.expr, cls_name: str, target: str) -> bool:
    """Whether a base expression of a class may name the class `target` (`cls_name` in its module)."""
    if ix.qualname(base, ix.scope_at(base)) == target:
        return True
    return any(
        (isinstance(n, ast.Name) and n.id == cls_name) or (isinstance(n, ast.Attribute) and n.attr == cls_name)
        for n in ast.walk(base)
    )


def _namespace_sites(index: ProjectIndex, path: str) -> list[Use]:
    """A namespace package above the module at `path` (a directory without `__init__.py`: `ns` of `ns.config`)
    as a place of its own: any module importing any module of it (`import ns.model`) binds `ns`, whose
    attribute `config` is the module once something imported it (`ns.config.MESH`), and a namespace package
    has no file whose importers the graph lists (measured: `ns.config.MESH.devices.shape[0]` 2 -> 1 under a
    safe add-axis, golden/refuse/tree_namespace_package_attribute). Only when some module of the project
    imports the module (a module nothing imports is a script, not a module of a package in use)."""
    chain, base, _ = index.module_name(path)
    tops = (index.files.join(index.root, "src"), index.root)
    if base in tops or not index.importers_of(path):
        # (a module nothing imports, as a script in a directory without `__init__.py`, is not used as a
        # namespace package's module: asked only when some module of the project imports it)
        return []
    for top in tops:
        if base != top and base.startswith(index.files.join(top, "")):
            spaces = base[len(index.files.join(top, "")) :].replace("\\", "/").strip("/").split("/")
            name = spaces[0]
            what = (
                f"the namespace package {name} (no __init__.py): a module importing any module of it reads "
                f"{'.'.join([*spaces, chain])} as its attribute unseen"
            )
            return [in_module(Use(Span(0, 0, path), 1, what), path)]
    return []


def _object_importers(
    index: ProjectIndex, package: str, above: Mapping[str, frozenset[str]]
) -> dict[str, frozenset[str]]:
    """The entries of `above` (who imports the package at `package`, `index.importers_of`) that import it as a
    module object, by a star import or by name, each with those names only: filtered once per index and
    package (`ProjectIndex.derived`). A package's `__init__` is imported by nearly every module of a project
    (`from pkg import ...`), and the judgement of a mesh's fix asks this for each of the hundreds of modules
    importing the mesh (a typed edit of the 1,000-module benchmark project spent 3.7 s here, filtering ~1,000
    entries ~12,000 times)."""
    key = ("importers.object_importers", package)
    kept = index.derived.get(key)
    if kept is None:
        kept = index.derived[key] = {
            i: (n & _OBJECT_NAMES) | _path_markers(n) for i, n in above.items() if n & _OBJECT_NAMES
        }
    return kept  # type: ignore[return-value]


def _read_by(index: ProjectIndex, path: str, models: Mapping[str, ModuleModel], search: _KeptSearch) -> ModuleModel | None:
    """The model `imported_uses` reads the module at `path` by (the asker's, else the index's), noted in
    `search`."""
    mine = models.get(path)
    loaded = mine or _model(index, path)
    if loaded is None:
        search.unread.add(path)
    else:
        search.used[path] = loaded
        if mine is not None:
            search.overridden.add(path)
    return loaded


def _model(index: ProjectIndex, path: str) -> ModuleModel | None:
    loaded = index.load(path, capped=False)
    return loaded.model if loaded is not None else None


def importing_closure(index: ProjectIndex, path: str, until_unread: bool = False) -> ImportedUses | None:
    """The modules of the project importing the module at `path`, directly or not, in `closure` (an unreadable
    one in `sites`); None when some importers are not known. `until_unread`: stop at the first unreadable one
    (a judgement it already makes unsafe need not read the rest: `ShardMapAnalysis._closure_reads`)."""
    out = ImportedUses()
    return out if _add_closure(index, path, out, until_unread) else None


def connected_modules(index: ProjectIndex, models: list[ModuleModel]) -> ImportedUses | None:
    """Every module of the project linked to one of `models` by imports, in either direction and through any
    number of modules (the importers of each, the modules each imports, theirs, ...), in `closure` when its text
    holds the word `sharding` (the others are read to follow their imports); an unreadable one in `sites`; None
    when some importers are not known. A module making a mesh the context mesh may run, under it, a callback
    that reaches it through the state of a module both import: a registry a third module fills
    (`@registry.register` in pkg/hooks.py, imported by tests/conftest.py only; pkg/train.py calls
    `registry.HOOKS` under `with jax.set_mesh(MESH)`), which neither the setters' imports nor their importers'
    reach (leftovers8: `get_abstract_mesh().axis_sizes[0]` there went 2 -> 1 under a safe add-axis)."""
    out = ImportedUses()
    seen = {module_path(m) for m in models}
    todo = list(models)
    while todo:
        model = todo.pop()
        here = module_path(model)
        linked = index.importers_of(here)
        if linked is None:
            return None
        found = list(linked)
        for node in ast.walk(model.ix.tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _star_base(model.ix, node)
                names = [base, *(f"{base}.{a.name}" for a in node.names if a.name != "*")] if base else []
            else:
                continue
            for name in names:
                path = index.locate(name, here)
                if path is not None:
                    found.append(path)
        for path in found:
            if path in seen:
                continue
            seen.add(path)
            index.touch([path])
            loaded = index.load(path, capped=False)
            if loaded is None:
                out.sites.append(_not_read(path))
                continue
            todo.append(loaded.model)
            if has_word(loaded.model.ix.source, "sharding"):
                out.closure.append(loaded.model)
    return out


def _add_closure(index: ProjectIndex, path: str, out: ImportedUses, until_unread: bool = False) -> bool:
    """Add to `out.closure` the modules importing the module at `path`, directly or not (an unreadable one to
    `out.sites`); False when some importers are not known.

    What the closure is judged for is the `.sharding` reads of arrays that may be placed on the mesh
    (`mesh_uses.MeshUses.imported_reads([])`, which reads nothing in a module whose text does not hold the
    word `sharding`): a module whose text does not hold it is read (`ProjectIndex.peek`, a dependency of the
    judgement as a parsed one is) but not parsed. On the 1,000-module benchmark project, 265 modules import
    the mesh's module directly or not and one of them names `sharding`. The modules the judgement parses are
    not held to the index's `max_modules` (`ProjectIndex.load(capped=False)`): past that limit add-axis was
    unsafe only because modules were not read."""
    seen = {path}
    todo = [path]
    while todo:
        importers = index.importers_of(todo.pop())
        if importers is None:
            return False
        for importer in importers:
            if importer in seen:
                continue
            seen.add(importer)
            todo.append(importer)
            index.touch([importer])
            text = index.peek(importer)
            if text is not None and not has_word(text, "sharding"):
                continue
            loaded = index.load(importer, capped=False) if text is not None else None
            if loaded is None:
                out.sites.append(_not_read(importer))
                if until_unread:
                    return True
            else:
                out.closure.append(loaded.model)
    return True


def imported_closure(index: ProjectIndex, models: list[ModuleModel], stdlib: bool = True) -> ImportedUses:
    """The modules of the project that `models` import, directly or not (any import statement, at any scope),
    in `closure` (those whose text holds the word `sharding`, the only ones that can call
    `jax.sharding.get_abstract_mesh()`; the others are read to follow their imports), an unreadable one in
    `sites`. A module making a mesh the context mesh (`with jax.set_mesh(MESH): util.n()`) runs their code
    under it: `mesh_uses.MeshUses.getter_reads` judges their context-mesh getters. `stdlib` False: names of
    the standard library (`functools`) are not looked for in the project (no lookup recorded)."""
    out = ImportedUses()
    seen = {module_path(m) for m in models}
    todo = list(models)
    while todo:
        model = todo.pop()
        here = module_path(model)
        for node in ast.walk(model.ix.tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _star_base(model.ix, node)
                names = [base, *(f"{base}.{a.name}" for a in node.names if a.name != "*")] if base else []
            else:
                continue
            for name in names:
                if not stdlib and name.split(".")[0] in sys.stdlib_module_names:
                    continue
                path = index.locate(name, here)
                if path is None or path in seen:
                    continue
                seen.add(path)
                index.touch([path])
                loaded = index.load(path, capped=False)
                if loaded is None:
                    out.sites.append(_not_read(path))
                    continue
                todo.append(loaded.model)
                if has_word(loaded.model.ix.source, "sharding"):
                    out.closure.append(loaded.model)
    return out


def _aliases(model: ModuleModel, name: str, kept: Callable[[ModuleModel, ast.Name], bool] | None = None) -> set[str]:
    """`name` and the module-level names of `model` that may carry its value to a module importing them: an
    assigned value or a class body mentioning one of them (`MESH2 = MESH`, `S = NamedSharding(MESH, ...)`), a
    function returning one (`def get_mesh(): return MESH`, `return NamedSharding(MESH, ...)`; a `return f(...,
    mesh=MESH)(x)` returns what the call computes, not the mesh). Their uses are judged as the value's own. An
    assigned value mentioning them only in reads `kept` says reduce them to a kept value (`EVAL_BATCH = 4 *
    MESH.shape["data"]`) carries nothing of them: those reads are judged where they are, as the module's own."""
    out = {name}
    scope = model.ix.module_scope
    grew = True
    while grew:
        grew = False
        for other, bindings in scope.bindings.items():
            if other in out:
                continue
            for b in bindings:
                if b.kind is BindingKind.ASSIGN and _mentions(b.node, out, lambda n: kept is not None and kept(model, n)):
                    out.add(other)
                    grew = True
                    break
                if b.kind is BindingKind.CLASS and _mentions(b.node, out):
                    out.add(other)
                    grew = True
                    break
                if b.kind is BindingKind.DEF and _returns(model, b.node, out):
                    out.add(other)
                    grew = True
                    break
    return out


def _mentions(node: ast.AST, names: set[str], reduced: Callable[[ast.Name], bool] | None = None) -> bool:
    """Whether `node` reads one of `names` other than in a read `reduced` says carries nothing of it."""
    return any(
        isinstance(n, ast.Name) and n.id in names and not (reduced is not None and reduced(n)) for n in ast.walk(node)
    )


def _returns(model: ModuleModel, func: ast.AST, names: set[str]) -> bool:
    """Whether a `return` or `yield` of `func` may give one of `names`: it is read there outside any call, or
    inside a call that keeps it (a `NamedSharding(...)`, a call the module does not know)."""
    ix = model.ix
    for node in ast.walk(func):
        if not (isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)) and node.value is not None):
            continue
        for name in ast.walk(node.value):
            if not (isinstance(name, ast.Name) and name.id in names):
                continue
            calls = []
            for a in ix.ancestors(name):
                if a is node:
                    break
                if isinstance(a, ast.Call):
                    calls.append(a)
            if not any(_consumes(ix, c, name) for c in calls):
                return True
    return False


def _consumes(ix, call: ast.Call, name: ast.Name) -> bool:
    """Whether `call` returns something other than its argument `name`: a JAX call other than a
    `NamedSharding`, or the call of a shard_map / jit built from it (`jax.shard_map(f, mesh=MESH)(x)`)."""
    func = call.func
    while isinstance(func, ast.Call):
        func = func.func
    qname = ix.qualname(func, ix.scope_at(call)) or ""
    return qname.startswith("jax.") and qname not in jaxapi.NAMED_SHARDING_NAMES


def _reads_in(
    model: ModuleModel,
    path: str,
    module: str,
    held: str,
    aliases: frozenset[str],
    out: ImportedUses,
    exports: list[tuple[str, str | None]],
    leave: int | None = None,
) -> list[ast.expr]:
    """`_find_reads`, derived once per `ModuleIndex` and question (`ModuleIndex.derived`: a function of the
    module's text, its path and the question alone; the cross-module judgement asks it of every module
    importing a mesh, in each project index, and a language server builds an index per typed edit)."""
    key = ("importers.reads", path, module, held, aliases, leave)
    kept = model.ix.derived.get(key)
    if kept is None:
        sites, carried = ImportedUses(), []
        found = _find_reads(model, path, module, held, aliases, sites, carried, leave)
        kept = model.ix.derived[key] = (tuple(found), tuple(sites.sites), tuple(carried))
    found, site_uses, carried = kept  # type: ignore[misc]
    out.sites += site_uses
    exports += carried
    return list(found)


def _find_reads(
    model: ModuleModel,
    path: str,
    module: str,
    held: str,
    aliases: frozenset[str],
    out: ImportedUses,
    exports: list[tuple[str, str | None]],
    leave: int | None = None,
) -> list[ast.expr]:
    """The expressions of `model` (the module at `path`) holding one of `aliases` of the module object at the
    dotted path `held` (the module `module` itself, or a name of it holding another module object); star
    imports of `module` (or of a package above it) and reads of a module object that may reach them unseen
    are added to `out.sites`. The module-level names of `model` carrying them on go to `exports`: (name, None)
    for a name bound to one of the values, (name, its path to the module object) for a name bound to a module
    object holding them (`import pkg.config as cfg` -> ("cfg", "cfg"); `import pkg.config` -> ("pkg",
    "pkg.config")). leave: `held` goes around a cycle of module objects (`imported_uses`): a read leaving the
    path at that attribute past a binding, or later, is a read of the value."""
    ix = model.ix
    found: list[ast.expr] = []
    qnames = {f"{held}.{a}" for a in aliases}
    for node in ix.star_imports():
        base = _star_base(ix, node)
        if base and (base == module or module.startswith(base + ".")):
            out.sites.append(in_module(model.uses.use(node), path, model))
    # (names bound only by imports that do not reach the value: what a text run by `exec` may read harmlessly)
    foreign: dict[str, bool] = {}
    for scope in {id(s): s for s in ix.scope_by_node.values()}.values():
        for bindings in scope.bindings.values():
            for b in bindings:
                if b.kind is not BindingKind.IMPORT or not b.qname:
                    foreign[b.name] = False
                    continue
                exported = b.scope is ix.module_scope
                reaches = b.qname in qnames or held == b.qname or held.startswith(b.qname + ".")
                foreign[b.name] = foreign.get(b.name, True) and not reaches
                if reaches and b.scope.is_class:
                    # (read as a class attribute too, `C.cfg.MESH`, `self.cfg.MESH`: not followed)
                    out.sites.append(in_module(model.uses.use(b.node), path, model))
                    continue
                if b.qname in qnames:
                    found += model.uses.loads(b)
                    if exported:
                        exports.append((b.name, None))
                elif held == b.qname or held.startswith(b.qname + "."):
                    rest = held[len(b.qname) :].lstrip(".").split(".") if held != b.qname else []
                    past = None if leave is None else max(0, leave - len(b.qname.split(".")))
                    for load in model.uses.loads(b):
                        _attribute_read(model, path, load, rest, aliases, found, out, past)
                    if exported:
                        exports.append((b.name, b.name + held[len(b.qname) :]))
    if may_load_by_name(ix.source):
        loads = _loads_of(model)
        for load in loads.named:
            returns = load.returns
            if load.level or not (held == returns or held.startswith(returns + ".")):
                continue
            rest = held[len(returns) :].lstrip(".").split(".") if held != returns else []
            _loaded_object(model, path, load.node, rest, aliases, found, out, exports, held[len(returns) :])
        for text in loads.executed:
            # (a name the text reads may hold the value unless the module binds it only by an import of something
            # else, `P` of jax.sharding; one it does not bind at all comes from the globals handed to `exec`)
            reads = any(not foreign.get(name, False) for name in text.reads)
            if reads or any(_imports_module(ix.package, imported, module) for imported in text.imports):
                out.sites.append(in_module(model.uses.use(text.node), path, model))
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _loads_of(model: ModuleModel):
    """`dynamic_loads` of the module `model` models, once per module index (`ModuleIndex.derived`)."""
    key = ("importers.dynamic_loads",)
    kept = model.ix.derived.get(key)
    if kept is None:
        kept = model.ix.derived[key] = dynamic_loads(model.ix.tree, model.ix.package)
    return kept


def _imports_module(package: str, imported: tuple[int, str, tuple[str, ...]], module: str) -> bool:
    """Whether an import of a text run by `exec` / `eval` / `compile` (`ExecutedText.imports`: level, module,
    names), in a module of the dotted `package`, may bind `module` or a package above it (whose attributes reach
    it) or import a module below it (which imports it): `import pkg`, `from pkg import config`,
    `from pkg.config import MESH`, `import pkg.config.sub` all reach `pkg.config`."""
    level, name, names = imported
    if level:
        parts = package.split(".") if package else []
        if level - 1 > len(parts):
            return False
        name = ".".join([*parts[: len(parts) - (level - 1)], *([name] if name else [])])
    for dotted in (name, *(f"{name}.{n}" if name else n for n in names if n != "*")):
        if dotted and (dotted == module or module.startswith(dotted + ".") or dotted.startswith(module + ".")):
            return True
    return False


def _loaded_object(
    model: ModuleModel,
    path: str,
    call: ast.Call,
    rest: list[str],
    aliases: frozenset[str],
    found: list,
    out: ImportedUses,
    exports: list[tuple[str, str | None]],
    suffix: str,
) -> None:
    """The module object a dynamic load returns (`call`), read as an import's binding is: each attribute read
    off it, or off the plain names it is assigned to, goes to `_attribute_read`; a name bound at module level
    may carry it to other modules (`exports`); the value dropped (`import_module('pkg.plugins')` as a
    statement) is no read; any other use of it (returned, passed, stored, a class attribute) is a site of its
    own."""
    up = model.ix.parent.get(id(call))
    if isinstance(up, ast.Expr):
        return
    if isinstance(up, ast.Attribute) and up.value is call:
        _attribute_read(model, path, call, rest, aliases, found, out)
        return
    if isinstance(up, (ast.Assign, ast.AnnAssign)) and up.value is call:
        targets = up.targets if isinstance(up, ast.Assign) else [up.target]
        bindings = [model.uses.target_binding(t, call) for t in targets]
        if bindings and all(b is not None and not b.scope.is_class for b in bindings):
            for b in bindings:
                for load in model.uses.loads(b):
                    _attribute_read(model, path, load, rest, aliases, found, out)
                if b.scope is model.ix.module_scope:
                    exports.append((b.name, b.name + suffix))
            return
    out.sites.append(in_module(model.uses.use(call.func), path, model))  # (named by the call's text)


def _attribute_read(
    model: ModuleModel,
    path: str,
    load: ast.expr,
    rest: list[str],
    aliases: set[str],
    found: list,
    out: ImportedUses,
    leave: int | None = None,
) -> None:
    """One read of a module object (`config`, `pkg` of `import pkg.config`): `pkg.config.MESH` holds the value;
    `pkg.other`, `config.DATA` do not; the module object taken whole before the name is reached may. leave:
    the path goes around a cycle of module objects from that part on: an attribute leaving it there or later
    (around the cycle again) is taken for the value."""
    node: ast.expr = load
    for i, part in enumerate(rest):
        up = model.ix.parent.get(id(node))
        if not (isinstance(up, ast.Attribute) and up.value is node):
            out.sites.append(in_module(model.uses.use(node), path, model))
            return
        if up.attr != part:
            if leave is not None and i >= leave:
                found.append(up)
            elif _reaches_namespace(up.attr):
                out.sites.append(in_module(model.uses.use(node), path, model))
            return
        node = up
    up = model.ix.parent.get(id(node))
    if not (isinstance(up, ast.Attribute) and up.value is node):
        out.sites.append(in_module(model.uses.use(node), path, model))
    elif up.attr in aliases or leave is not None:
        found.append(up)
    elif _reaches_namespace(up.attr):
        out.sites.append(in_module(model.uses.use(node), path, model))


# The dunder attributes of a module object that hold no value of its namespace (its name, file, docs, spec).
_MODULE_METADATA = frozenset(
    {"__name__", "__file__", "__doc__", "__package__", "__path__", "__spec__", "__cached__", "__all__", "__version__"}
)


def _reaches_namespace(attr: str) -> bool:
    """Whether the attribute `attr` read off a module object may reach any value of the module by a name not
    written as an attribute: `config.__getattribute__('MESH')`, `config.__dict__['MESH']` (breaker19 a51:
    add-axis stayed safe and the read went 2 -> 1); a module's plain names and its metadata do not."""
    return attr.startswith("__") and attr.endswith("__") and attr not in _MODULE_METADATA


def _star_base(ix, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = ix.package.split(".") if ix.package else []
    if node.level - 1 > len(parts):
        return ""
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _loader_sites(model: ModuleModel, path: str) -> list[Use]:
    """The places of `model` (the module at `path`) that may load any module by name
    (`dynamic_loads.DynamicLoads.unresolved`), each named; the `import importlib` statements first when one of
    them reads importlib. Empty when every load names its module (the loads are then read as imports).
    Kept per module index (`ModuleIndex.derived`): every mesh of a project whose modules use importlib asks it of
    each of them (`spmdfix check .` of this repository: one walk per mesh and importer before)."""
    key = ("loader_sites", path)
    kept = model.ix.derived.get(key)
    if kept is not None:
        return list(kept)  # type: ignore[call-overload]
    loads = _loads_of(model)
    sites: list[Use] = []
    if loads.unresolved:
        statements = loads.importlib_imports if loads.by_importlib else []
        sites = [in_module(model.uses.use(node), path, model) for node in [*statements, *loads.unresolved]]
    model.ix.derived[key] = tuple(sites)
    return list(sites)


def _statement_site(index: ProjectIndex, path: str, module: str, what: str) -> Use:
    """The import of `module` in the module at `path`, as a `Use` (the statement's text; `what` at its first
    line when the module cannot be read)."""
    loaded = index.load(path, capped=False)
    if loaded is not None:
        for node in ast.walk(loaded.model.ix.tree):
            names = node.names if isinstance(node, ast.Import) else ()
            base = node.module if isinstance(node, ast.ImportFrom) else None
            if base == module or any(a.name == module or a.name.startswith(module + ".") for a in names):
                return in_module(loaded.model.uses.use(node), path, loaded.model)
    return in_module(Use(Span(0, 0, path), 1, what), path)
