"""The facts of one shard_map construction: specs, mesh, manual axes, and what its body does.

For a shard_map reached from a vmap (`reach.ReachedSite`): its in_specs/out_specs entries (for `jax.smap`, the
specs it builds from in_axes/out_axes), its mesh (resolved to its construction, with the uses of it add-axis's
allowlist does not cover: `analysis.mesh_uses`), `axis_names`, `check_vma`/`check_rep`, and what its body does
(`facts.BodyFacts`: the axes of its collectives, inner `jax.vmap`s, nested shard_maps, unary primitives only),
as `facts.ShardMapFacts`.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from spmdfix import jaxapi
from spmdfix.analysis.bindings import FUNCTION_NODES, BindingKind, Scope
from spmdfix.analysis.axis_sets import axis_sequence
from spmdfix.analysis.calls import argument
from spmdfix.analysis.facts import AxisNamesArg, BodyFacts, CollectiveUse, NestedShardMap, ShardMapFacts, UnreadValue
from spmdfix.analysis.h2_calls import H2Call, allowed_everywhere, call_key, not_followed, refused_kinds, value_keys
from spmdfix.analysis.follow import SMAP_AXES, Follow
from spmdfix.analysis.importers import (
    UNKNOWN_GRAPH, connected_modules, imported_closure, imported_uses, importing_closure, in_module, module_path,
)
from spmdfix.analysis.kinds import AxisTypesForm, MeshKind, UnreadKind
from spmdfix.analysis.mesh_uses import MeshUses
from spmdfix.analysis.meshes import mesh_site, module_constant, resolve_mesh
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.primitives import UnaryCheck
from spmdfix.analysis.reach import Reacher, ReachedSite
from spmdfix.analysis.method_body import method_body, method_body_why_not
from spmdfix.analysis.shard_maps import ShardMapSite, body_stop, parameter_body, unwrap_body
from spmdfix.analysis.specs import spec_tree
from spmdfix.analysis.unknown_values import unread
from spmdfix.analysis.uses import Use, short
from spmdfix.analysis.values import AxisNames, AxisRef, BoundScope, MeshInfo, Spec, SpecEntry, SpecTree
from spmdfix.model import SiteKind, Span
from spmdfix.paths import relpath


# The calls a decorated def of another module may make and still be read (`_applies_h2`): JAX's and NumPy's,
# whose inner-vmap and hazard-H2 names are `jaxapi.VMAP_NAMES` and `jaxapi.INNER_BATCHING_NAMES`; builtins.
# Each must then be on hazard H2's measured allowlist too (`h2_calls`).
_LIBRARIES = ("jax.", "numpy.", "math.", "builtins.")

class ShardMapAnalysis:
    """The facts of the shard_maps one module's vmaps reach (`ShardMapFacts`), each built once per site.

    Input: the module's model, its call walk (`reach.Reacher`, for what a body traces) and its mesh uses
    (`mesh_uses.MeshUses`). Pure; never raises on a tree `ast.parse` produced.
    """

    def __init__(self, model: ModuleModel, reacher: Reacher, mesh_uses: MeshUses) -> None:
        self.model = model
        self.ix = model.ix
        self.ev = model.ev
        self.reacher = reacher
        self.mesh_uses = mesh_uses
        self._facts: dict[int, ShardMapFacts] = {}
        self._foreign_mesh_uses: dict[int, MeshUses] = {}
        self._foreign: dict[int, ShardMapAnalysis] = {}  # `_foreign_analysis`
        # (`_closure_reads`: the same for every mesh of a module, and a module's meshes are many in a test file)
        self._closures: dict[str, tuple | None] = {}
        # (`_h2_calls`' `defines`: whether a class of a module defines a method of a name, per module and name; it
        # looks at every class of the module, and is asked for each method call of every body read)
        self._defines: dict[tuple[int, str], bool] = {}

    def facts(self, reached: ReachedSite, vmap: ast.AST, elsewhere: bool = False) -> ShardMapFacts:
        """The facts of the shard_map `reached` leads to from the vmap site `vmap` (a node of this module; with
        `elsewhere`, the function of this module a vmap of another module reaches it through).
        Kept per site when the shard_map names its mesh (its facts then do not depend on the way to it)."""
        site = reached.site
        cached = self._facts.get(id(site.node)) if not isinstance(site.scope, BoundScope) else None
        if cached is not None and site.args.get("mesh") is not None:
            return cached
        args = site.args
        mesh = self._mesh(site, reached, vmap)
        operand_specs = None
        if not site.api.written_specs:
            in_specs, out_specs, axis_names, axis_names_unknown = self._smap_specs(site)
        else:
            axis_names, axis_names_unknown = self._axis_names(args.get("axis_names"), site.scope)
            in_specs = spec_tree(self.ev, args.get("in_specs"), site.scope)
            out_specs = spec_tree(self.ev, args.get("out_specs"), site.scope)
            operand_specs = self._operand_specs(args.get("in_specs"), site.scope)
        check_vma = self._check_vma(site)
        facts = ShardMapFacts(
            site=self.model.site(SiteKind.SHARD_MAP, site.node),
            span=self.model.span(site.node),
            api=site.api,
            check_span=self._check_span(site),
            in_specs=in_specs,
            out_specs=out_specs,
            mesh=mesh,
            axis_names=axis_names,
            axis_names_unknown=axis_names_unknown,
            check_vma=check_vma,
            body=self._body_facts(site),
            unread=self._unread(site, reached, vmap, mesh, axis_names_unknown, check_vma, elsewhere),
            operand_specs=operand_specs,
        )
        if not isinstance(site.scope, BoundScope):  # (bound by one call of another module: `reach.External`)
            self._facts[id(site.node)] = facts
        return facts

    def _operand_specs(self, expr: ast.AST | None, scope: Scope) -> tuple[SpecTree, ...] | None:
        """The specs of each operand when in_specs is a tuple or list display written at the shard_map, one
        tree an element (`ShardMapFacts.operand_specs`); None for any other form."""
        if not isinstance(expr, (ast.Tuple, ast.List)) or any(isinstance(e, ast.Starred) for e in expr.elts):
            return None
        return tuple(spec_tree(self.ev, e, scope) for e in expr.elts)

    def _unread(
        self, site: ShardMapSite, reached: ReachedSite, vmap: ast.AST, mesh: MeshInfo | None,
        axis_names_unknown: bool, check_vma: bool | None, elsewhere: bool = False,
    ) -> tuple[UnreadValue, ...]:
        """The mesh, `axis_names` and `check_vma` of the shard_map that could not be read, each with why
        (`unknown_values.unread`); a mesh given by no expression (no `mesh=`, no `with jax.set_mesh(...)` on
        the way) is recorded at the shard_map."""
        out = []
        found = self._mesh_expr(site, reached, vmap)
        if mesh is None and found is not None and not self.ev.is_none(*found):
            out.append(unread(self.ev, UnreadKind.MESH, "the shard_map's mesh", *found))
        elif mesh is None:
            # `_mesh_expr` looks for the `with` in this module only: a vmap (or a call on the way) of another
            # module under `with jax.set_mesh(MESH):` is not read, and the message must not say there is none
            # (safety/trials/newuser13 p4, breaker8 t12)
            what = (
                "the shard_map's mesh is not known: no `mesh=` is passed and no `with jax.set_mesh(...)` of this "
                "module is around it or its way from the vmap (one around the vmap or a call on the way in "
                "another module is not read yet, nor a mesh installed otherwise)"
                if elsewhere else
                "the shard_map's mesh is not known: no `mesh=` is passed and no `with jax.set_mesh(...)` is "
                "around it or its way from the vmap (a mesh installed elsewhere is not followed)"
            )
            out.append(UnreadValue(UnreadKind.MESH, self.model.span(site.node), what))
        names = site.args.get("axis_names") if site.api.written_specs else site.args.get("axis_name")
        if axis_names_unknown and names is not None:
            label = "`axis_names`" if site.api.written_specs else "`axis_name` of the `jax.smap`"
            out.append(unread(self.ev, UnreadKind.AXIS_NAMES, label, names, site.scope))
        check = site.args.get("check_vma", site.args.get("check_rep"))
        if check_vma is None and check is not None:
            out.append(unread(self.ev, UnreadKind.CHECK_VMA, "`check_vma`", check, site.scope))
        return tuple(out)

    def _mesh(self, site: ShardMapSite, reached: ReachedSite, vmap: ast.AST) -> MeshInfo | None:
        """The shard_map's resolved mesh, with the uses of it that add-axis's allowlist does not cover."""
        found = self._mesh_expr(site, reached, vmap)
        if found is None:
            return None
        mesh = resolve_mesh(self.ev, *found)
        if mesh is not None and mesh.returns_span is not None:
            return mesh  # (a helper's several returns: no construction of its own to edit, add-axis refuses)
        made = mesh_site(self.ev, *found)
        if mesh is None or made is None:
            return None
        if mesh.kind is MeshKind.TEST_MESH or mesh.shape_span is None or mesh.names_span is None:
            # add-axis refuses such a mesh before it reads the mesh's uses (`fixes.add_mesh_axis.plan`), the only
            # reader of them: not searched (in jax's tests, each `jtu.create_mesh` mesh built jax's import graph)
            return mesh
        owner, call, _ = made
        if owner is self.ev:
            uses = self.mesh_uses
        else:
            uses = self._foreign_mesh_uses.get(id(owner))
            if uses is None:
                uses = self._foreign_mesh_uses[id(owner)] = MeshUses(ModuleModel.over(owner.ix, owner.project))
        elsewhere: tuple[Use, ...] = ()
        path = owner.ix.path or (owner.project.path if owner.project is not None else "")
        if path:
            # The readers in the modules of the project importing the mesh's module count too
            # (`analysis.importers`), when the index knows them (outside a project there are none).
            elsewhere = self._importer_reads(owner, call, path)
            if elsewhere is None:
                row = owner.ix.lines.row_col(mesh.span.start)[0]
                name = relpath(path)
                why = owner.project.index.importers_unknown_why() if owner.project is not None else UNKNOWN_GRAPH
                what = f"the modules that may import the mesh of {name} ({why}: not searched)"
                elsewhere = (Use(mesh.span, row, what),)
        reads = (*uses.mesh_reads(call), *elsewhere)
        constants = self._constant_reads(owner, call, made[2], mesh) if mesh.names_constant or mesh.types_constant else ()
        return replace(mesh, reads=reads, device_reads=tuple(uses.device_reads(call)), constant_reads=constants)

    def _constant_reads(self, owner, call: ast.Call, scope: Scope, mesh: MeshInfo) -> tuple[Use, ...]:
        """Every use, in the project, of the module constants add-axis extends in place of the mesh's literal
        arguments (`MeshInfo.names_constant` / `types_constant`: `AXES = ("data", "model")`) that is not on
        its allowlist: the constant passed as this construction's `axis_names` (or `axis_types`), and `AXES` in
        `(A,) * len(AXES)` as its `axis_types`, which grows with it. Any other read sees one axis more
        (breaker6 r21: `out / len(AXES)` in train.py), as do reads the search cannot see (a star import, an
        importer not read, the project's importers not known): each is named."""
        names_expr, types_expr = argument(call, 1, "axis_names"), argument(call, 2, "axis_types")
        out: list[Use] = []
        for expr, is_names in ((names_expr, True), (types_expr, False)):
            if (mesh.names_constant if is_names else mesh.types_constant) is None:
                continue
            found = module_constant(owner, expr, scope)
            if found is None:  # (read when the mesh was resolved: not expected)
                out.append(Use(mesh.span, owner.ix.lines.row_col(mesh.span.start)[0], "the mesh's constant argument, not read again"))
                continue
            home, _, name = found
            allowed = {id(expr)}
            if is_names and mesh.axis_types_form is AxisTypesForm.REPEAT_LEN:
                allowed.add(id(types_expr.right.args[0]))  # type: ignore[union-attr]
            model = ModuleModel.over(home.ix, home.project)
            binding = home.ix.single_binding(name, home.ix.module_scope)
            for load in home.ix.loads_of(name):
                if id(load) not in allowed and home.ix.single_binding(name, home.ix.scope_at(load)) is binding:
                    out.append(self._in(model.uses.use(load), home, model))
            project = home.project
            path = home.ix.path or (project.path if project is not None else "")
            if project is None or not path:
                continue  # (a module alone: nothing imports it)
            here = module_path(self.model)
            imported = imported_uses(project.index, model, name, values=False, models={here: self.model} if here else None)
            if imported is None:
                row = owner.ix.lines.row_col(mesh.span.start)[0]
                why = project.index.importers_unknown_why()
                what = f"the modules that may import `{name}` of {relpath(path)} ({why}: not searched)"
                out.append(Use(mesh.span, row, what))
                continue
            out += imported.sites
            for importer, ends in imported.reads:
                out += [
                    in_module(importer.uses.use(e), importer.ix.path, importer) for e in ends if id(e) not in allowed
                ]
        return tuple(sorted(set(out), key=lambda u: (u.module, u.span.start)))

    def _in(self, use: Use, home, model: ModuleModel) -> Use:
        """`use` of the module of `home` as reasons name it: with its path when that is not this module."""
        return use if home.ix is self.ix or not home.ix.path else in_module(use, home.ix.path, model)

    def _importer_reads(self, owner, call: ast.Call, path: str) -> tuple[Use, ...] | None:
        """The uses off add-axis's allowlist of the mesh `call` builds in the module `owner` (at `path`), in the
        modules of the project importing it, each naming its module; None when the importers are not known.

        The mesh reaches other modules by the module-level names it flows into (`UseIndex.uses_of_value`'s
        exits): a name bound to it (`MESH = Mesh(...)`, whose module-level aliases are followed too), or a
        function returning it (`def get_mesh(): return Mesh(...)`: each call of it in an importer is the mesh,
        any other read of it a use of its own); arrays placed on it may reach every module importing `owner`,
        directly or not, whose `.sharding.mesh` reads are judged. An importer's own module-level names the mesh
        flows into (`MESH = config.build_mesh(2, 4)`, `MESH = config.MESH0`, `def get(): return
        config.build_mesh()`) carry it on to the modules importing them in turn: followed the same way."""
        project = owner.project
        if project is None:
            return None
        model = ModuleModel.over(owner.ix, owner.project)
        exits: list[tuple[str, bool]] = []
        model.uses.uses_of_value(call, exits)
        reads: list[Use] = []
        judged = set()
        placing = [model]  # (the modules holding the mesh: arrays placed on it go from them into the code they import)
        # (the mesh made the context mesh, by its module or an importer: every module importing its module,
        # directly or not, may call `get_abstract_mesh()` under it; its getters are judged too)
        context = MeshUses(model).makes_context([call])
        setters = [model] if context else []  # (the modules making it the context mesh)
        shard_mapped = MeshUses(model).passes_to_shard_map([call])
        # (the module holding a name the mesh flows into, the name, a function returning the mesh)
        todo = [(model, name, factory) for name, factory in dict.fromkeys(exits)]
        asked: set[tuple[str, str, bool]] = set()
        while todo:
            holder, name, factory = todo.pop()
            key = (holder.ix.path or path, name, factory)
            if key in asked:
                continue
            asked.add(key)
            found = imported_uses(project.index, holder, name, values=not factory, kept=_kept_number)
            if found is None:
                return None
            reads += found.sites
            for importer, ends in found.reads:
                judged.add(importer.ix.path)
                placing.append(importer)
                if factory:  # (the call of the function is the mesh)
                    ends = [_called(importer, e) for e in ends]
                judge = MeshUses(importer)
                reads += [in_module(u, importer.ix.path, importer) for u in judge.imported_reads(ends)]
                shard_mapped = shard_mapped or judge.passes_to_shard_map(ends)
                if judge.makes_context(ends):
                    context = True
                    setters.append(importer)
                carried: list[tuple[str, bool]] = []
                for end in ends:
                    importer.uses.uses_of_value(end, carried)
                todo += [(importer, n, f) for n, f in dict.fromkeys(carried)]
        closure = self._closure_reads(project.index, path)
        if closure is None:
            return None
        sites, importers = closure
        reads += sites
        # (a module passing the mesh to a shard_map: the body may call code of any module, so the getters of the
        # modules importing the mesh's module are judged too, as with a context mesh: they are read already)
        for importer, placed, getters in importers:  # arrays placed on the mesh may reach them
            if importer not in judged:
                reads += placed()
            if context or shard_mapped:
                reads += getters()
        # An array placed on the mesh may be passed to code of a module the holders import, directly or not
        # (`replicas_of(y)` in pkg/utils.py reading `jax.typeof(x).sharding.mesh.axis_sizes[0]`): their
        # `.sharding.mesh` reads are judged too (breaker5 q39: add-axis was safe and that read went 2 -> 1).
        importing = {row[0] for row in importers}
        callees = imported_closure(project.index, placing, stdlib=False)
        reads += callees.sites
        # (a module passing the mesh to a shard_map: the body may call code of the modules it imports, directly or
        # not, which sees the mesh through `get_abstract_mesh()`: `mesh_uses.MeshUses.passes_to_shard_map`)
        for callee in callees.closure:
            if callee.ix.path not in (path, *judged, *importing):
                judge = MeshUses(callee)
                reads += [in_module(u, callee.ix.path, callee) for u in judge.imported_reads([])]
                if shard_mapped and not context:
                    reads += [in_module(u, callee.ix.path, callee) for u in judge.getter_reads()]
        if context:
            # (and the mesh's own module's, made the context mesh by an importer; and those of the modules the
            # modules making it the context mesh import, directly or not: their code may run under it; and of
            # those the modules importing them import, directly or not, whose functions they may hand to it as
            # callbacks: `train.main(on_step=hooks.log_layout)` in main.py, breaker7 s13)
            # (and every module linked to those by imports either way: a callback may come through the state of a
            # module both import, a registry filled by a module only a third one imports; leftovers8)
            reads += MeshUses(model).getter_reads()
            callers = connected_modules(project.index, setters)
            if callers is None:
                return None
            reads += callers.sites
            for callee in callers.closure:
                if callee.ix.path != path:
                    reads += [in_module(u, callee.ix.path, callee) for u in MeshUses(callee).getter_reads()]
        return tuple(sorted(set(reads), key=lambda u: (u.module, u.span.start)))

    def _closure_reads(self, index, path: str) -> tuple | None:
        """The modules importing the module at `path`, directly or not (`importers.importing_closure`), as
        (its unreadable sites, [(importer's path, its `.sharding.mesh` reads of arrays placed on a mesh of
        `path`, its context-mesh getter reads)], the reads computed on first use), None when some importers
        are not known. With an unreadable importer, that one alone and no rows: the judgement is unsafe
        whatever the others read. Kept per module for the analysis: the same for every mesh `path` builds."""
        if path in self._closures:
            return self._closures[path]
        # (an importer that cannot be read makes the judgement unsafe whatever the others read: the walk stops
        # there, and jax's own tree, whose 3.12 syntax a 3.11 interpreter cannot parse, is not parsed whole for
        # each module's meshes)
        closure = importing_closure(index, path, until_unread=True)
        if closure is None:
            self._closures[path] = None
            return None
        if closure.sites:
            self._closures[path] = found = (tuple(closure.sites), [])
            return found
        rows = []
        for importer in closure.closure:
            judge = MeshUses(importer)
            placed = _once(lambda i=importer, j=judge: [in_module(u, i.ix.path, i) for u in j.imported_reads([])])
            getters = _once(lambda i=importer, j=judge: [in_module(u, i.ix.path, i) for u in j.getter_reads()])
            rows.append((importer.ix.path, placed, getters))
        self._closures[path] = found = (tuple(closure.sites), rows)
        return found

    def _mesh_expr(self, site: ShardMapSite, reached: ReachedSite, vmap: ast.AST) -> tuple[ast.AST, Scope] | None:
        """The expression giving the shard_map its mesh: `mesh=`, or the `jax.set_mesh(m)` around it."""
        expr = site.args.get("mesh")
        if expr is not None:
            return expr, site.scope
        # No mesh=: the context mesh of a `with jax.set_mesh(m):` around the application.
        for node in (site.node, *reached.chain_nodes, vmap):
            for anc in self.ix.ancestors(node):
                if isinstance(anc, (ast.With, ast.AsyncWith)):
                    for item in anc.items:
                        ctx = item.context_expr
                        scope = self.ix.scope_at(anc)
                        if isinstance(ctx, ast.Call) and ctx.args:
                            if self.ix.qualname(ctx.func, scope) in jaxapi.SET_MESH_NAMES:
                                return ctx.args[0], scope
        return None

    def _smap_specs(self, site: ShardMapSite) -> tuple[SpecTree, SpecTree, AxisNamesArg | None, bool]:
        """The specs and manual axes `jax.smap(f, in_axes=..., out_axes=..., axis_name=A)` builds.

        JAX 0.10.2 (`jax._src.shard_map._smap`): every int leaf of in_axes/out_axes becomes a spec naming A,
        a None leaf `P()`; `axis_names={A}`. Each int leaf is read as one spec entry naming A, its span the
        leaf as written (the argument that smap maps over A). An omitted in_axes (`Infer`: taken from the
        arguments' shardings at run time) or a value that is not a literal leaves the tree unresolved.
        Returns (in_specs, out_specs, the axis_names JAX gives it (no display to extend), unknown).
        """
        axis_expr = site.args.get("axis_name")
        axis = self.ev.axis_names(axis_expr, site.scope) if axis_expr is not None else None
        if axis is None or axis.is_tuple:
            where = (self.model.span(axis_expr if axis_expr is not None else site.node),)
            return SpecTree((), where), SpecTree((), where), None, True
        trees = []
        for name in ("in_axes", "out_axes"):
            expr = site.args.get(name)
            specs: list[Spec] = []
            unresolved: list[Span] = []
            if expr is None:
                unresolved.append(self.model.span(site.node))
            else:
                self._smap_axes_leaves(expr, site.scope, axis, specs, unresolved, None, Follow(SMAP_AXES))
            trees.append(SpecTree(tuple(specs), tuple(unresolved)))
        names = AxisNamesArg(frozenset(axis.names), None, axis.axes[0].text[:1] if axis.axes else "'", axis.span)
        return trees[0], trees[1], names, False

    def _smap_axes_leaves(
        self, expr: ast.AST, scope: Scope, axis: AxisNames, specs: list, unresolved: list, at: Span | None,
        follow: Follow,
    ) -> None:
        """Collect one `Spec` per int leaf of an in_axes/out_axes value (`at`: the span to report a leaf
        of a value written elsewhere at, the name as written here). Past `follow.SMAP_AXES` levels of
        nesting a leaf is unresolved."""
        span = at or self.model.span(expr)
        followed = self.ev.follow(expr, scope) if not follow.spent else None
        if followed is None:
            unresolved.append(span)
            return
        _, value, inner = followed
        here = at if at is not None else (None if value is expr else span)
        if isinstance(value, ast.Constant) and value.value is None:
            return
        number = value.operand if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub) else value
        if isinstance(number, ast.Constant) and type(number.value) is int:  # `0`, `-1`: a mapped dimension
            leaf = here or self.model.span(value)
            specs.append(Spec(leaf, (SpecEntry(leaf, axis, True),)))
            return
        if isinstance(value, (ast.Tuple, ast.List)):
            elts = value.elts
        elif isinstance(value, ast.Dict) and None not in value.keys:
            elts = value.values
        else:
            unresolved.append(span)
            return
        for elt in elts:
            self._smap_axes_leaves(elt, inner, axis, specs, unresolved, here, follow.deeper())

    def _check_span(self, site: ShardMapSite) -> Span | None:
        expr = site.args.get("check_vma", site.args.get("check_rep"))
        return self.model.span(expr) if expr is not None else None

    def _check_vma(self, site: ShardMapSite) -> bool | None:
        """check_vma (or the old API's check_rep): True when absent, the literal written, or the literal a name
        bound once holds (`CHECK = False; check_vma=CHECK`); None when unknown (a parameter, a name bound more
        than once, any other expression)."""
        expr = site.args.get("check_vma", site.args.get("check_rep"))
        if expr is None:
            return True
        if isinstance(expr, ast.Name):
            resolved = self.ev.resolve_name(expr, site.scope)
            expr = resolved[0] if resolved is not None else expr
        if isinstance(expr, ast.Constant) and isinstance(expr.value, bool):
            return expr.value
        return None

    def _axis_names(self, expr: ast.AST | None, scope: Scope) -> tuple[AxisNamesArg | None, bool]:
        """Read `axis_names=`: a set/tuple/list display of strings or names bound to strings (here or in another
        module of the project), maybe inside set()/frozenset(); else a value computed from the mesh or from
        sets (`frozenset(mesh.axis_names) - {'x'}`, a name bound to `{SEQ}`: `axis_sets.axis_sequence`),
        which has no display a fix could extend. (None, True) when neither reads it."""
        if expr is None:
            return None, False
        found, unknown = self._axis_names_display(expr, scope)
        if not unknown:
            return found, unknown
        computed = axis_sequence(self.ev, expr, scope)
        if computed is None:
            return None, True
        return AxisNamesArg(frozenset(computed), None, "'", self.model.span(expr)), False

    def _axis_names_display(self, expr: ast.AST, scope: Scope) -> tuple[AxisNamesArg | None, bool]:
        """`axis_names=` written as a display (see `_axis_names`)."""
        display = expr
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("set", "frozenset"):
            if len(expr.args) != 1 or expr.keywords:
                return None, True
            display = expr.args[0]
        if not isinstance(display, (ast.Set, ast.Tuple, ast.List)):
            return None, True
        names, quote = [], None
        for elt in display.elts:
            value = elt
            if isinstance(elt, (ast.Name, ast.Attribute)):
                # `axis_names={X}` with `X = 'x'` (fuzz seed 7939): the constant's string
                followed = self.ev.follow(elt, scope)
                value = followed[1] if followed is not None else elt
            if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                return None, True
            names.append(value.value)
            text = self.ev.text(elt)
            quote = text[0] if text[:1] in "'\"" else quote
        # (a display of names alone: the module's style, `ModuleIndex.quote`)
        return AxisNamesArg(frozenset(names), self.model.span(display), quote or self.ev.ix.quote()), False

    def _computed_axes(self, expr: ast.AST, scope: Scope) -> AxisNames | None:
        """A collective's axis argument computed from the mesh or from sets (`axis_sets.axis_sequence`), as
        axis names that are not literal: each ref points at the whole expression, which no fix edits."""
        names = axis_sequence(self.ev, expr, scope)
        if names is None:
            return None
        span, text = self.model.span(expr), self.ev.text(expr)
        return AxisNames(tuple(AxisRef(n, span, text) for n in names), span, True, False)

    def _collectives_as_values(self, call: ast.Call, qname: str | None, scope: Scope) -> list[tuple]:
        """Collectives a body call applies without naming them as its function: `functools.partial(jax.lax.psum,
        axis_name='x')` (its axis read off the partial), a collective passed to another function
        (`jax.tree.map(jax.lax.pmean, ...)`: its axis not known), and a call of a name bound to such a partial
        (`sum_x = partial(jax.lax.psum, axis_name='x')` at module level, `sum_x(b)` in the body). Found by breaker5
        (safety/trials/breaker5, q04 and q33): rename took the partial's axis for a free one and changed the
        values. Each is `(qname, axis expression or None, evaluator, scope, node, words)`."""
        found: list[tuple] = []
        if qname in jaxapi.PARTIAL_NAMES:
            if call.args:
                head = self.ix.qualname(call.args[0], scope)
                if head in jaxapi.COLLECTIVE_AXIS_POSITION:
                    pos = jaxapi.COLLECTIVE_AXIS_POSITION[head] + 1
                    kw = next((k.value for k in call.keywords if k.arg == jaxapi.COLLECTIVE_AXIS_KEYWORD), None)
                    expr = call.args[pos] if len(call.args) > pos else kw
                    found.append((head, expr, self.ev, scope, call, " (bound by `functools.partial`)"))
            return found
        if isinstance(call.func, ast.Name):
            followed = self.ev.follow(call.func, scope)
            if followed is not None:
                ev, value, at = followed
                if isinstance(value, ast.Call) and ev.ix.qualname(value.func, at) in jaxapi.PARTIAL_NAMES and value.args:
                    head = ev.ix.qualname(value.args[0], at)
                    if head in jaxapi.COLLECTIVE_AXIS_POSITION:
                        pos = jaxapi.COLLECTIVE_AXIS_POSITION[head] + 1
                        kw = next((k.value for k in value.keywords if k.arg == jaxapi.COLLECTIVE_AXIS_KEYWORD), None)
                        expr = value.args[pos] if len(value.args) > pos else kw
                        if expr is None:  # the axis given at the call: `sum_x(b, 'x')`
                            expr = argument(call, pos - len(value.args), jaxapi.COLLECTIVE_AXIS_KEYWORD)
                            ev, at = self.ev, scope
                        found.append((head, expr, ev, at, call, f" (`{call.func.id}`, a `functools.partial` of it)"))
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            if isinstance(arg, (ast.Name, ast.Attribute)) and self.ix.qualname(arg, scope) in jaxapi.COLLECTIVE_AXIS_POSITION:
                head = self.ix.qualname(arg, scope)
                found.append((head, None, self.ev, scope, arg, ""))
        return found

    def _looked_up_by_name(self, call: ast.Call, scope: Scope) -> UnreadValue | None:
        """An unread collective for a call of a function the body looks up by name with the builtin `getattr`
        (`getattr(lax, 'psum')(b, 'y')`): which function runs, and over which axes, is not read; None for any
        other call. A rename to 'y' was SAFE and mixed batch elements (breaker13 r13)."""
        func = call.func
        if not (isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "getattr"):
            return None
        if self.ix.lookup("getattr", scope) or not func.args:
            return None  # a `getattr` of the module's own: a call like any other
        # Only where a collective may come out: `jax.lax` / `jax` looked up, or a collective's name asked of any
        # object (`getattr(jnp, "tanh")` is a library call like `jnp.tanh`: tests/test_unresolved.py)
        owner = self.ix.qualname(func.args[0], scope)
        name = func.args[1] if len(func.args) > 1 else None
        asked = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None
        collective = asked is not None and any(q.rsplit(".", 1)[-1] == asked for q in jaxapi.COLLECTIVE_AXIS_POSITION)
        if owner not in ("jax", "jax.lax") and not collective:
            return None
        what = (f"`{self.ev.text(func)}` (line {call.lineno}) calls a function looked up by name: whether it is a "
                "collective, and over which axes, is not known")
        return UnreadValue(UnreadKind.COLLECTIVE, self.model.span(call), what)

    def _h2_unread_body(self, site: ShardMapSite) -> str:
        """`BodyFacts.h2_unread` for a body that is not a function of this module: why (`shard_map(Layer(), ...)`,
        `shard_map(ops.body, ...)`); "" for a parameter of the function applying the shard_map (a project
        decorator's `fn`), whose functions are the callers', and for a jax function (`jax.nn.relu`; measured:
        gelu, relu, softmax, sort, cumsum run under an spmd vmap), left as main reads them
        (safety/trials/breaker13 README, "Left") when it is on the allowlist of every fix kind (`h2_calls`)."""
        if parameter_body(self.ix, site.body, site.body_scope):
            return self._parameter_body_h2(site)
        stopped = body_stop(self.ix, site.body, site.body_scope)
        if stopped is not None and not isinstance(stopped[0], ast.Call):
            qname = self.ix.qualname(stopped[0], stopped[1]) or ""
            if allowed_everywhere(qname):
                return ""  # `jax.nn.relu`, `jnp.tanh`: measured to run under the spmd vmap (`h2_calls`)
            if qname.startswith("jax."):
                return f"the shard_map body `{self.ev.text(site.body)}` is not on hazard H2's measured allowlist"
        why = method_body_why_not(self.model, self.reacher.instances, site.body, site.body_scope)
        return f"the shard_map body `{self.ev.text(site.body)}` is not a function of this module" + (f": {why}" if why else "")

    def _parameter_body_h2(self, site: ShardMapSite) -> str:
        """`BodyFacts.h2_unread` for a body that is a parameter of the function applying the shard_map (a
        project decorator): "" when every function given for it is found and none applies an inner vmap or a
        hazard-H2 call; else why not. A decorated def applying `lax.cond` or `jax.vmap` had a SAFE add-axis
        whose program raised `pvary` (measured, stop 41).

        The function applying it is a module-level def (`def sharded(fn)`, given by `@sharded` or
        `sharded(f)`), the `__init__` of a module-level class (`@DataParallel`), or a def a module-level
        factory returns (`def sharded(axis): def deco(fn): ...; return deco`, given by `@sharded(...)`). Its
        uses in this module give defs of this module, each read with the functions it reaches; its uses in
        other modules (`importers.imported_uses`) give defs there, read by their own calls, where a call of a
        function of the project is not read. Any other use (the decorator passed on, a star import, an
        importer not read) gives why."""
        stop = body_stop(self.ix, site.body, site.body_scope)
        name = stop[0].id  # type: ignore[index,union-attr]  (`parameter_body`: a name)
        (param,) = [b for b in self.ix.lookup(name, stop[1]) if isinstance(b.scope.node, FUNCTION_NODES)]  # type: ignore[index]
        why = f"the shard_map body `{name}` is a parameter of the function applying it"
        entry = self._decorator_entry(param)
        if entry is None:
            return f"{why}: the functions given for it are not read"
        top, position, factory = entry
        given: list[tuple[ModuleModel, ast.AST]] = []
        local = self._given(self.model, self.ix.loads_of(top.name), position, factory, given)
        if local:
            return f"{why} (`{top.name}`): {local}"
        link = self.model.project
        if link is not None and link.named_elsewhere(top.name):
            uses = imported_uses(link.index, self.model, top.name, values=False)
            if uses is None or uses.sites:
                return f"{why} (`{top.name}`), which other modules may use: the functions they give are not read"
            for model, reads in uses.reads:
                other = self._given(model, reads, position, factory, given)
                if other:
                    return f"{why} (`{top.name}`): {other}"
        for model, func in given:
            found = self._applies_h2(model, func)
            if found:
                return f"{why} (`{top.name}`), given `{func.name}`, which {found}"  # type: ignore[attr-defined]
        return ""

    def _decorator_entry(self, param) -> tuple[ast.AST, int, bool] | None:
        """(the module-level def or class whose uses give the parameter, the parameter's position among their
        arguments, whether each use is a factory's call `@f(...)`), or None for another shape."""
        applying = param.scope.node
        if not isinstance(applying, (ast.FunctionDef, ast.AsyncFunctionDef)) or param.node not in applying.args.args:
            return None
        position = applying.args.args.index(param.node)
        owner = self.ix.scope_at(applying)
        if owner is self.ix.module_scope:
            return applying, position, False
        outer = owner.node
        if self.ix.scope_at(outer) is not self.ix.module_scope:
            return None
        if isinstance(outer, ast.ClassDef) and applying.name == "__init__" and position >= 1:
            return outer, position - 1, False
        returns = [n for n in ast.walk(outer) if isinstance(n, ast.Return) and self.ix.scope_at(n).node is outer]
        if (
            isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)) and returns
            and all(isinstance(r.value, ast.Name) and r.value.id == applying.name for r in returns)
        ):
            return outer, position, True
        return None

    @staticmethod
    def _given(model: ModuleModel, reads: list, position: int, factory: bool, given: list) -> str:
        """Add to `given` the defs of `model` each read of the decorator (`reads`) gives at `position`: a
        decoration `@deco` (`@deco(...)` for a factory) of a def, or a call `deco(f)` of a def `f`; the words of
        the first read that gives anything else, "" when none does."""
        ix = model.ix
        for read in reads:
            up = ix.parent.get(id(read))
            if factory:
                call, up = up, ix.parent.get(id(up))
                if not (isinstance(call, ast.Call) and call.func is read):
                    return f"`{ix.path or 'this module'}` line {read.lineno} uses it otherwise than as `@{short(read)}(...)`"
                read = call
            if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)) and read in up.decorator_list and position == 0:
                given.append((model, up))
                continue
            args = up.args if isinstance(up, ast.Call) and up.func is read and not factory else None
            arg = args[position] if args is not None and len(args) > position else None
            binding = ix.single_binding(arg.id, ix.scope_at(arg)) if isinstance(arg, ast.Name) else None
            if binding is None or binding.kind is not BindingKind.DEF:
                return f"`{ix.path or 'this module'}` line {read.lineno} gives it a callable that is not read"
            given.append((model, binding.node))
        return ""

    def _applies_h2(self, model: ModuleModel, func: ast.AST) -> str:
        """Words naming the inner vmap or hazard-H2 call the decorated def `func` of `model` applies, or the
        call of a function not read; "" when none. In this module with the functions it reaches; in another, its
        own calls, where a call of a name bound in the project is not read."""
        if model is self.model:
            reach = self.reacher.reach_body(func)
            if reach.external:
                return "calls a function of another module, not read"
            if reach.unresolved:
                return f"calls `{short(reach.unresolved[0][0])}`, which the walk does not follow"
            calls = [(self.ix, call) for fn in reach.functions for call in self.ix.calls_in(fn)]
            data = set().union(*(_definition_data(fn) for fn in reach.functions))
        else:
            data = _definition_data(func)
            decorating = {id(n) for d in func.decorator_list for n in ast.walk(d)}  # type: ignore[attr-defined]
            calls = [(model.ix, call) for call in model.ix.calls_in(func) if id(call) not in decorating]
        for ix, call in calls:
            qname = ix.qualname(call.func, ix.scope_at(call))
            if qname in jaxapi.VMAP_NAMES or self._batching(call, qname):
                return f"applies `{short(call.func)}` (line {call.lineno})"
            if model is not self.model and not (qname or "").startswith(_LIBRARIES):
                return f"calls `{short(call.func)}` (line {call.lineno}), not read"
            if id(call) in data:
                continue  # (a decorator's arguments, a default: evaluated once, never traced)
            for found in self._h2_calls(model, call):
                return f"calls {found.describe()} (hazard H2's allowlist)"
        for found in self._h2_decorators(model, func):
            return f"is decorated with {found.describe()} (hazard H2's allowlist)"
        return ""

    def _h2_calls(self, model: ModuleModel, call: ast.Call) -> list[H2Call]:
        """The callee of `call` (a call of `model`'s read body) and the measured functions it is given as values,
        each as an `H2Call` with the fix kinds whose allowlist lacks it (`h2_calls`); [] when the callee is the
        project's or another rule judges it."""
        ix = model.ix
        scope = ix.scope_at(call)
        walker = self.reacher if model is self.model else self.reacher._other(model)

        def followed(attr: ast.Attribute, at) -> bool:
            # a function of the project the walk reads (a method, `self.m`), not a value `self.op` holds: `self.op =
            # jnp.interp` in `__init__` kept rename SAFE, the body's call judged as the project's (merged tree probe;
            # the renamed program raised `pvary is a invariant->variant collective`); such a value is judged as
            # `Array.op`, on no allowlist
            member = walker.members.self_member(attr, at)
            if member is not None:
                return isinstance(member[0], FUNCTION_NODES)
            return walker.instances.method_of(attr, at) is not None

        def defines(name: str) -> bool:
            # a class that may give an object the walk does not resolve a method `name`, so that `obj.name(...)`
            # may run it rather than an array's method (breaker15 h21, h40): a class of this module binding
            # `name` in its body or on `self` (a `def`, or any value: `sum = staticmethod(jnp.vectorize(g))`,
            # breaker16 p04/p09) or defining `__getattr__` / `__getattribute__` (any name, breaker16 g03/g05); a
            # class of another module of the project with a method `name` or those (breaker16 x03-x07, x11)
            key = (id(ix), name)
            if key not in self._defines:
                names = (name, "__getattr__", "__getattribute__")
                classes = [s.node for s in ix.scope_by_node.values() if isinstance(s.node, ast.ClassDef)]
                here = any(
                    n in walker.members.members_of(cls)[0] or (n == name and n in walker.members.members_of(cls)[1])
                    for cls in classes for n in names
                )
                project = model.project
                self._defines[key] = here or (project is not None and any(project.method_definer(n) for n in names))
            return self._defines[key]

        def held(attr: ast.Attribute, at):
            # a value the class gives `self.ops` (`self.ops = red` in `__init__`), even one a subclass or another
            # store may change: if it is an object of the project, `self.ops.sum(b)` may call the project's
            # method (breaker17 h09)
            member = walker.members.self_member(attr, at)
            return None if member is None or isinstance(member[0], FUNCTION_NODES) else member[:2]

        found = []
        key = call_key(ix, call, scope, walker.lost.follows, followed, defines, held)
        if key is not None:
            found.append((call.func, key))
        found += value_keys(ix, call, scope)
        return [
            H2Call(model.span(node), node.lineno, short(node) if isinstance(node, (ast.Name, ast.Attribute)) else model.ev.text(node), key, refused_kinds(key))
            for node, key in found if refused_kinds(key)
        ]

    def _h2_in_function(self, model: ModuleModel, fn: ast.AST) -> list[H2Call]:
        """The calls off hazard H2's allowlist that the function `fn` of `model`, reached from a body, makes when
        it runs: its name decorators (`_h2_decorators`) and its calls (`_h2_calls`), but for what its definition
        evaluates once as data (`_definition_data`)."""
        data = _definition_data(fn)
        found = self._h2_decorators(model, fn)
        for call in model.ix.calls_in(fn):
            if id(call) not in data:
                found += self._h2_calls(model, call)
        return found

    def _h2_decorators(self, model: ModuleModel, fn: ast.AST) -> list[H2Call]:
        """The decorators of `fn` written as names (`@jnp.vectorize`, `@jax.jit`) off hazard H2's allowlist,
        as `H2Call`s: each wraps what runs when the body calls `fn` (a decorator call, `@partial(jax.jit, ...)`,
        is among `fn`'s calls)."""
        found = []
        for deco in getattr(fn, "decorator_list", ()):
            if not isinstance(deco, (ast.Name, ast.Attribute)):
                continue
            qname = model.ix.qualname(deco, model.ix.scope_at(fn))
            walker = self.reacher if model is self.model else self.reacher._other(model)
            if qname is None or walker.lost.follows(qname) or qname in jaxapi.VMAP_NAMES | jaxapi.SHARD_MAP_NAMES:
                continue
            kinds = refused_kinds(qname)
            if kinds:
                found.append(H2Call(model.span(deco), deco.lineno, short(deco), qname, kinds))
        return found

    def _batching(self, call: ast.Call, qname: str | None) -> bool:
        """Whether `call` (of `qname`) is one of `jaxapi.INNER_BATCHING_NAMES`, a `cond` / `switch` deciding by
        a Python literal aside (`jax.lax.cond(True, ...)` is not batched: measured to run, breaker13 r28)."""
        if qname not in jaxapi.INNER_BATCHING_NAMES:
            return False
        first = call.args[0] if call.args else None
        return not (qname in jaxapi.LITERAL_PREDICATE_NAMES and isinstance(first, ast.Constant))

    def _batching_wrapper(self, site: ShardMapSite) -> tuple[tuple[Span, str], ...]:
        """The span and text of the call of `jaxapi.INNER_BATCHING_NAMES` where the walk to the body stopped
        (`jax.shard_map(jnp.vectorize(f), ...)`, through names bound once); () otherwise."""
        stopped = body_stop(self.ix, site.body, site.body_scope)
        if stopped is None or not isinstance(stopped[0], ast.Call):
            return ()
        call, scope = stopped
        if not self._batching(call, self.ix.qualname(call.func, scope)):
            return ()
        return ((self.model.span(call.func), self.ev.text(call.func)),)

    def _body_facts(self, site: ShardMapSite, depth: int = 0) -> BodyFacts:
        func, wrappers = unwrap_body(self.ix, site.body, site.body_scope)
        vmap_wrappers = [self.model.span(call.func) for qname, call in wrappers if qname in jaxapi.VMAP_NAMES]
        # `jax.shard_map(self._block, ...)`: the method's `def`, read as any body is (its bound `self` is no
        # operand: `UnaryCheck` leaves it out of the block's names)
        method = method_body(self.model, self.reacher.instances, site.body, site.body_scope) if func is None else None
        bound = 0
        if method is not None:
            func, bound = method.func, method.bound
        if func is None:
            # `jax.shard_map(jnp.vectorize(f), ...)`: the function is not followed, but the batching transform
            # holding it is an inner vmap all the same (hazard H2: breaker13 s09, rename and add-axis were SAFE)
            batching = self._batching_wrapper(site)
            return BodyFacts(False, "the shard_map body is not a function of this module", (), True,
                             tuple(vmap_wrappers) + tuple(span for span, _ in batching), batching_calls=batching,
                             h2_unread=self._h2_unread_body(site))
        reach = self.reacher.reach_body(func)
        collectives: list[CollectiveUse] = []
        own_unknown = False
        wrapped = bool(vmap_wrappers)
        inner_vmaps: list[Span] = vmap_wrappers
        in_body_vmaps: list[ast.Call] = []
        batching_calls: list[tuple[Span, str]] = []
        unread_axes: list[UnreadValue] = []
        sharding_in_body: tuple[int, str] | None = None
        h2_calls: list[H2Call] = []
        for fn in reach.functions:
            h2_calls += self._h2_in_function(self.model, fn)
        for node, _ in reach.unresolved:
            # a callable the walk lost may batch on its own (hazard H2) whatever axis it names: on no allowlist
            text = short(node) if isinstance(node, (ast.Name, ast.Attribute)) else self.ev.text(node)
            h2_calls.append(not_followed(self.model.span(node), getattr(node, "lineno", 0), text))
        for fn in reach.functions:
            for call in self.ix.calls_in(fn):
                scope = self.ix.scope_at(call)
                qname = self.ix.qualname(call.func, scope)
                if sharding_in_body is None and qname in _BODY_SHARDINGS:
                    sharding_in_body = (call.lineno, self.ev.text(call.func))
                if qname in jaxapi.VMAP_NAMES:
                    inner_vmaps.append(self.model.span(call.func))
                    in_body_vmaps.append(call)
                elif self._batching(call, qname):
                    # `jnp.vectorize(f)(b)`, `jax.jacfwd(f)(b)`, `jnp.interp(b, ...)`: fail as an inner vmap does,
                    # never read as unary
                    span = self.model.span(call.func)
                    inner_vmaps.append(span)
                    batching_calls.append((span, self.ev.text(call.func)))
                looked_up = self._looked_up_by_name(call, scope)
                if looked_up is not None:
                    own_unknown = True
                    unread_axes.append(looked_up)
                uses = []
                if qname in jaxapi.COLLECTIVE_AXIS_POSITION and not _reduces_a_constant(call):
                    expr = argument(call, jaxapi.COLLECTIVE_AXIS_POSITION[qname], jaxapi.COLLECTIVE_AXIS_KEYWORD)
                    uses.append((qname, expr, self.ev, scope, call, ""))
                else:
                    uses += self._collectives_as_values(call, qname, scope)
                for name_q, expr, ev, at_scope, at_node, spelled in uses:
                    value = ev.axis_names(expr, at_scope) if expr is not None else None
                    if value is None and expr is not None and ev is self.ev:
                        value = self._computed_axes(expr, at_scope)  # `mesh.axis_names`, a set expression
                    if value is None:
                        own_unknown = True
                        label = f"the axis of `{name_q.rsplit('.', 1)[-1]}`{spelled}"
                        if expr is not None and ev is self.ev:
                            unread_axes.append(unread(self.ev, UnreadKind.COLLECTIVE, label, expr, at_scope))
                        else:
                            what = f"{label} (`{self.ev.text(at_node)}`) is not known: the collective is passed to a function as a value"
                            unread_axes.append(UnreadValue(UnreadKind.COLLECTIVE, self.model.span(at_node), what))
                    else:
                        name = name_q.rsplit(".", 1)[-1]
                        collectives.append(CollectiveUse(name, value, self.model.span(call), call.lineno))
        for ext in reach.external:
            # A function of another module the body calls (`ops.add_total(v)`): its collectives count as the body's
            # (one over the axis a rename takes changed the values: safety/trials/breaker12 r35), read in its own
            # module (`_external_axis_reads`); where they cannot all be read, they are not known
            read = self._external_axis_reads(ext, depth)
            if read is not None:
                collectives += read[0]
                sharding_in_body = sharding_in_body or read[1]
                h2_calls += read[2]
                continue
            own_unknown = True
            node = ext.path.nodes[-1] if ext.path.nodes else func
            what = f"the collectives of `{_external_name(ext)}`, a function of another module the shard_map body calls, are not read"
            unread_axes.append(UnreadValue(UnreadKind.COLLECTIVE, self.model.span(node), what))
        nested = tuple(self._nested(r.site) for r in reach.sites)
        check = UnaryCheck(self.ix, bound)
        own = not reach.sites and _only_its_lambdas(reach.functions, func) and not batching_calls
        # a body wrapped in a jax.vmap is an inner vmapped lambda: collectives there are not measured
        unary_over = (check.unary_over(func) if not wrapped else frozenset() if check.unary_only(func) else None) if own else None
        unary = unary_over == frozenset()
        split_axes = check.split_axes if own and not wrapped and unary_over is not None else frozenset()
        beside = check.unary_beside(func) if own and not wrapped and unary_over is None else None
        inner_unary = own and not wrapped and bool(in_body_vmaps) and all(
            check.vmap_of_unary(call, self.ix.scope_at(call)) for call in in_body_vmaps
        )
        # The nested shard_maps' bodies, read the same way (a few levels: nesting is shallow in real code).
        nested_collectives: list[CollectiveUse] = []
        nested_unknown = False
        for r in reach.sites:
            inner = self._body_facts(r.site, depth + 1) if depth < 3 else None
            if inner is None or not inner.resolved or inner.own_collectives_unknown or inner.nested_collectives_unknown:
                nested_unknown = True
            else:
                nested_collectives += [*inner.collectives, *inner.nested_collectives]
        unknown = own_unknown or bool(reach.sites)
        return BodyFacts(
            True, "", tuple(collectives), unknown, tuple(inner_vmaps), nested, unary, inner_unary,
            unary_collective_axes=unary_over,
            split_collective_axes=split_axes,
            binary_beside=beside or None,
            own_collectives_unknown=own_unknown,
            nested_collectives=tuple(nested_collectives),
            nested_collectives_unknown=nested_unknown,
            unread_axes=tuple(unread_axes),
            sharding_in_body=sharding_in_body,
            batching_calls=tuple(batching_calls),
            h2_calls=tuple(h2_calls),
        )


    def _external_axis_reads(
        self, ext, depth: int
    ) -> tuple[list[CollectiveUse], tuple[int, str] | None, list[H2Call]] | None:
        """The collectives (and the first sharding constraint, and the calls off hazard H2's allowlist) of `ext`, a function of another module a body
        reaches, read there as a body's are (what it reaches in its own module, then in further modules, a few
        levels deep); None when they cannot all be read: an axis not read, a callable its walk cannot follow, a
        shard_map or a vmap it applies (or a call of `jaxapi.INNER_BATCHING_NAMES`), a target that is not a
        function, or nesting past three modules."""
        if depth >= 3 or not isinstance(ext.target, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return None
        other = self._foreign_analysis(ext.owner)
        reach = other.reacher.reach_body(ext.target)
        if reach.sites or reach.unresolved:
            return None
        collectives: list[CollectiveUse] = []
        sharding: tuple[int, str] | None = None
        h2_calls: list[H2Call] = []
        for fn in reach.functions:
            h2_calls += other._h2_in_function(other.model, fn)
            for call in other.ix.calls_in(fn):
                scope = other.ix.scope_at(call)
                qname = other.ix.qualname(call.func, scope)
                if qname in jaxapi.VMAP_NAMES or qname in jaxapi.SHARD_MAP_NAMES or other._batching(call, qname):
                    return None  # (a `lax.cond`, `jnp.vectorize`... as a vmap: hazard H2 there, breaker13 k07)
                if sharding is None and qname in _BODY_SHARDINGS:
                    sharding = (call.lineno, other.ev.text(call.func))
                if qname in jaxapi.COLLECTIVE_AXIS_POSITION and not _reduces_a_constant(call):
                    uses = [(qname, argument(call, jaxapi.COLLECTIVE_AXIS_POSITION[qname], jaxapi.COLLECTIVE_AXIS_KEYWORD), other.ev, scope)]
                else:
                    uses = [u[:4] for u in other._collectives_as_values(call, qname, scope)]
                for name_q, expr, ev, at_scope in uses:
                    value = ev.axis_names(expr, at_scope) if expr is not None and ev is other.ev else None
                    if value is None:
                        return None
                    collectives.append(CollectiveUse(name_q.rsplit(".", 1)[-1], value, other.model.span(call), call.lineno))
        for further in reach.external:
            read = other._external_axis_reads(further, depth + 1)
            if read is None:
                return None
            collectives += read[0]
            sharding = sharding or read[1]
            h2_calls += read[2]
        return collectives, sharding, h2_calls

    def _foreign_analysis(self, owner: ModuleModel) -> ShardMapAnalysis:
        """The shard_map analysis of another module of the project (`_external_axis_reads`), one per module."""
        found = self._foreign.get(id(owner))
        if found is None:
            found = self._foreign[id(owner)] = ShardMapAnalysis(owner, self.reacher._other(owner), MeshUses(owner))
        return found

    def _nested(self, site: ShardMapSite) -> NestedShardMap:
        """A shard_map applied in a reached body: its specs, and for a `jax.shard_map` its `axis_names=` (an
        unread one is an SPMD910 value: `unread_matters` judges when it could change a finding)."""
        in_specs = spec_tree(self.ev, site.args.get("in_specs"), site.scope)
        out_specs = spec_tree(self.ev, site.args.get("out_specs"), site.scope)
        if not site.api.written_specs:
            return NestedShardMap(self.model.span(site.node), in_specs, out_specs)
        expr = site.args.get("axis_names")
        names, unknown = self._axis_names(expr, site.scope)
        missing = ()
        if unknown and expr is not None:
            missing = (unread(self.ev, UnreadKind.AXIS_NAMES, "`axis_names` of a nested shard_map", expr, site.scope),)
        on_context = site.args.get("mesh") is None
        return NestedShardMap(self.model.span(site.node), in_specs, out_specs, names, on_context, missing)


def _once(compute):
    """`compute`, called at most once: later calls give its first result (`ShardMapAnalysis._closure_reads`)."""
    kept: list = []

    def get():
        if not kept:
            kept.append(compute())
        return kept[0]
    return get


def _definition_data(fn: ast.AST) -> set[int]:
    """The ids of the nodes `fn`'s definition evaluates once, as data, and never traces: its decorators'
    arguments (`@partial(jax.shard_map, in_specs=P('x'))`: the `P(...)`) and its parameters' defaults. The
    decorator calls themselves stay among its calls (`ScopeIndex.calls_in`): they wrap it."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return set()
    roots: list[ast.AST] = [*fn.args.defaults, *(d for d in fn.args.kw_defaults if d is not None)]
    for deco in getattr(fn, "decorator_list", ()):
        if isinstance(deco, ast.Call):
            roots += [*deco.args, *(k.value for k in deco.keywords), deco.func]
    return {id(n) for root in roots for n in ast.walk(root)}


def _reduces_a_constant(call: ast.Call) -> bool:
    """`psum(1, 'x')`: a collective over a Python number gives the axis size, right under any vmap."""
    return bool(call.args) and isinstance(call.args[0], ast.Constant) and len(call.args) > 1


def _only_its_lambdas(functions, func: ast.AST) -> bool:
    """The traced functions of a unary body: the body itself and lambdas written inside it (those of an inner
    `jax.vmap(lambda ...)`, which UnaryCheck judged with it)."""
    inner = {id(n) for n in ast.walk(func) if isinstance(n, ast.Lambda) and n is not func}
    return all(f is func or id(f) in inner for f in functions)


def _called(model: ModuleModel, read: ast.expr) -> ast.expr:
    """The call `read(...)` when `read` is called there (a factory's call is its value), else `read`."""
    up = model.ix.parent.get(id(read))
    return up if isinstance(up, ast.Call) and up.func is read else read


def _kept_number(model: ModuleModel, read: ast.Name) -> bool:
    """Whether `read`, a name holding the mesh in `model`, is read as a number add-axis keeps
    (`mesh_uses.MeshUses.kept_number`): a module-level name assigned from such reads only is no alias of it."""
    return MeshUses(model).kept_number(read)


# A sharding a shard_map body applies to a value (`BodyFacts.sharding_in_body`).
_BODY_SHARDINGS = jaxapi.WITH_SHARDING_CONSTRAINT_NAMES | jaxapi.LOGICAL_CONSTRAINT_NAMES | jaxapi.RESHARD_NAMES


def _external_name(ext) -> str:
    """A function of another module a shard_map body reaches (`reach.External`), as a record names it: its
    name and module (`add_total` of pkg/ops.py)."""
    name = getattr(ext.target, "name", None) or ast.unparse(ext.target)
    return f"{name}` of `{relpath(module_path(ext.owner))}"
