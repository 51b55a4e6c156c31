"""One module as every sub-analysis sees it: its scopes, the evaluation of its values, the uses of its names.

A `ModuleModel` is built once per parsed module: for the module being checked (by `spmdfix.api`), and for each
module of the project the analysis follows a name into (by the factory `spmdfix.api` gives the project index,
`ProjectIndex(analyse=...)`). The sub-analyses (`reach`, `capture`, `placement`, `stripbody`, `mesh_uses`,
`vmap_calls`, `ranks`, `callers`, `shard_map_facts`) and the driver (`analyzer.Analyzer`) receive it; the project
index keeps it, with the module's function summaries, so that another module's analysis reads this one's
bindings, values and summaries without parsing it again. Plain data: it holds no analysis of its own.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spmdfix.analysis.bindings import Binding, Scope
from spmdfix.analysis.members import ClassMembers
from spmdfix.analysis.scopes import ModuleIndex
from spmdfix.analysis.uses import UseIndex
from spmdfix.analysis.values import Evaluator
from spmdfix.model import SiteId, SiteKind, Span

if TYPE_CHECKING:
    from spmdfix.analysis.facts import FunctionSummary
    from spmdfix.analysis.index import ProjectLink


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@dataclass(slots=True, eq=False, repr=False)
class ModuleModel:
    """The model of one parsed module.

    ix: its scopes, bindings and calls (`scopes.ModuleIndex`); ev: the evaluation of its values
    (`values.Evaluator`), which follows names into other modules through `project`; uses: the loads of its
    names by binding (`uses.UseIndex`); members: its classes' members (`members.ClassMembers`); project: this
    module's view of the project index, None when no index follows imports; summaries: what calling each of
    its callables reaches (`facts.FunctionSummary`) by (id of the callable's node, the spmd axes stripped, the
    call whose arguments its parameters are bound to: `analyzer._call_key`),
    None while one is being computed (a cycle through other modules then sees an empty summary), filled by
    `analyzer.summary_of`.
    """

    ix: ModuleIndex
    ev: Evaluator
    uses: UseIndex
    members: ClassMembers
    project: ProjectLink | None = None
    summaries: dict[tuple[int, frozenset[str], tuple | None], FunctionSummary | None] = field(default_factory=dict)
    # the facts of the shard_maps each callable reaches, read with some or all (None) of its parameters batched
    # (`analyzer._reached_under`, `_plain_captures_of`), by (id of the callable's node, the axes, those
    # parameters' names, spmd or plain)
    reached_under: dict[tuple[int, tuple[str, ...], frozenset[str] | None, bool], dict] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        source: str,
        tree: ast.Module,
        path: str = "",
        package: str | None = None,
        project: ProjectLink | None = None,
    ) -> ModuleModel:
        """The model of a module from its source and `ast` tree; `path` and `package` say where it is
        (`ModuleIndex`: "" for the module being checked). Never raises for a tree `ast.parse` produced."""
        return cls.over(ModuleIndex(source, tree, path, package), project)

    @classmethod
    def over(cls, index: ModuleIndex, project: ProjectLink | None = None) -> ModuleModel:
        """The model of a module whose `ModuleIndex` is built already."""
        elsewhere = _elsewhere(index, project)
        redefined = project.redefined_elsewhere if elsewhere is not None and project is not None else None
        constructions = project.constructions_elsewhere if project is not None else None
        written = project.known_attribute_writer if project is not None else None
        anywhere = _anywhere(project) if project is not None else None
        members = ClassMembers(index, elsewhere, redefined, constructions, written, anywhere)
        return cls(index, Evaluator(index, project, members, elsewhere), UseIndex(index), members, project)

    def argument_for(self, param: Binding) -> tuple[ast.AST, Scope] | None:
        """`ModuleIndex.argument_for` of `param`, as this module's evaluator reads it (`_elsewhere`). Every
        sub-analysis reading a parameter from its module's calls asks this."""
        return self.ix.argument_for(param, self.ev.elsewhere)

    def span(self, node: ast.AST) -> Span:
        """Where `node` is written in this module (its path on the span for another module than the checked)."""
        return self.ix.lines.span_of_ast(node)

    def site(self, kind: SiteKind, node: ast.AST) -> SiteId:
        """The identity of the vmap site or shard_map `node` is (`model.SiteId`): its kind, where it starts in
        this module's text, and the module's path when it is another module's."""
        span = self.span(node)
        return SiteId(kind, span.start, span.path)


def _elsewhere(index: ModuleIndex, project: ProjectLink | None):
    """What a module's reads of a parameter from its own calls (`ModuleIndex.argument_for`) ask first: for a
    module the analysis follows a name into (`index.path` set: the checked module's is ""), whether another
    module of the project may call the function by name (`ProjectLink.named_elsewhere`). The analysis reached
    it from another module, whose call may pass other values than this module's calls do (a layer
    `block(x, axis)` called here with 'model' and by the vmap of another with 'data'). The checked module's own
    paths enter its functions through its own calls, which are the ones read: nothing asked (None)."""
    if project is None or not index.path:
        return None
    return project.named_elsewhere


def _anywhere(project: ProjectLink):
    """What `ClassMembers` asks last of a `self.NAME` it would read: why another module of the project than
    this one (whose own writes it counts) may store `.NAME` on an object it is handed
    (`ProjectLink.project_writer`)."""
    own = frozenset({project.path} - {""})
    return lambda name: project.project_writer(name, own)
