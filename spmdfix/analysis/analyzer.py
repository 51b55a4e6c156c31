"""The linter's driver: vmap sites -> reached shard_maps -> facts (`analysis.facts`) for the planner.

Source text in, facts out; no I/O. For every `jax.vmap` with a resolvable `spmd_axis_name` (call form,
`partial(jax.vmap, spmd_axis_name=...)` as decorator or value, positional 6th argument: `analysis.vmap_sites`),
it follows the vmapped callable (`analysis.reach`) to every shard_map it applies and records, with spans:

- the spmd_axis_name argument and its axes;
- each reached shard_map's facts, gathered by `analysis.reached`: its own (`analysis.shard_map_facts`:
  in_specs/out_specs entries, mesh, `axis_names`, `check_vma`/`check_rep`, what its body does), the batched
  values its body closes over (`analysis.capture`), why stripping its specs would change its values
  (`analysis.stripbody`), and who else runs it (`analysis.callers`);
- the axes of `with_sharding_constraint` specs on the way;
- the `in_shardings` / `out_shardings` of the jits applied on the way (`facts.JitShardings`).

Plain vmaps over inputs placed on Explicit mesh axes (`analysis.placement`) give facts of kind `VmapKind.EXPLICIT`.
A callable of another module of the project is summarised once in that module's model (`summary_of`,
`facts.FunctionSummary`). The planner (`spmdfix.plan`) turns facts into findings and fixes.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from dataclasses import replace

from spmdfix import jaxapi
from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.calls import argument
from spmdfix.analysis.project_answers import HOLDING_KEY, IMPORTERS_OF_KEY
from spmdfix.analysis.batched import Keys, mentions
from spmdfix.analysis.facts import (
    Capture, ConstraintUse, FunctionSummary, JitShardings, ReachedFacts, ReshardUse, UnreadValue, VmapCalls, VmapFacts,
)
from spmdfix.analysis.kinds import AxisType, CaptureKind, UnreadKind, VmapKind
from spmdfix.analysis.meshes import mesh_axis_names
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.placement import PlacementAnalysis
from spmdfix.analysis.reach import Reacher, _Path, passes_arguments
from spmdfix.analysis.project_callers import exits_of, search_exits
from spmdfix.analysis.reached import ReachedAnalysis, as_plain_vmap, jitted_capture_runs, vmap_root
from spmdfix.analysis.shared_sites import shared_by
from spmdfix.analysis.shapes import StaticShapes
from spmdfix.analysis.specs import logical_constraint_tree, partitioned_param_tree, sharding_tree
from spmdfix.analysis.stripbody import SpecUses
from spmdfix.analysis import unread_matters
from spmdfix.analysis.unknown_values import unread_message
from spmdfix.analysis.uses import short
from spmdfix.analysis.values import BoundScope, SpecTree
from spmdfix.analysis.vmap_calls import VmapCallAnalysis
from spmdfix.analysis.vmap_operands import applied_vmap, read_in_axes, through_vmap
from spmdfix.analysis.escaped_factories import escaped_factory_sites
from spmdfix.analysis.exported_factories import applied_in_importers
from spmdfix.analysis.inherited_factories import applied_in_subclasses
from spmdfix.analysis.vmap_sites import VmapSite, keyword_call, shmap_error_disabled, vmap_sites
from spmdfix.model import SiteKind, Span
from spmdfix.analysis.axis_constants import axis_spelling
from spmdfix.paths import relpath


class Analyzer:
    """Runs the analysis over one module's model (`ModuleModel`); never raises on a tree `ast.parse` produced.

    With a project index (`ModuleModel.project`, see `spmdfix.analysis.index`), names imported from other
    modules of the project are followed, and what their callables reach is summarised in their own models.
    """

    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.ix = model.ix
        self.ev = model.ev
        self.project = model.project
        self.reacher = Reacher(model)
        self.placement = PlacementAnalysis(model)
        self.spec_uses = SpecUses(model)
        self.shapes = StaticShapes(model)
        self.vmap_calls = VmapCallAnalysis(model, self.shapes)
        self.reached = ReachedAnalysis(model, self.reacher, self.spec_uses, self.shapes)
        self._disabled: bool | None = None  # `vmap_sites.shmap_error_disabled`, asked once per module
        # (vmap, its spmd_axis_name expression, what) of each vmap site whose spmd_axis_name `facts` could
        # not resolve to axis names (and that is not None): its analysis stopped at its start.
        self.unknown_spmd: list[tuple[Span, Span, str]] = []
        # (plain vmap, the placement expression, what) of each plain vmap whose input's placement could not be
        # read (`_unread_placements`): records of a plain vmap, which their words name (`model.Unfollowed`).
        self.unknown_placements: list[tuple[Span, Span, str]] = []

    def span(self, node: ast.AST) -> Span:
        return self.model.span(node)

    # --- facts --------------------------------------------------------------------------------------
    def facts(self) -> list[VmapFacts]:
        """Facts for every vmap site whose spmd_axis_name resolves to axis names."""
        out = []
        self.unknown_spmd = []
        self.unknown_placements = []
        for site in [*vmap_sites(self.model), *escaped_factory_sites(self.model)]:
            if site.stop is not None:
                self.unknown_spmd.append((self.span(site.node), self.span(site.spmd_expr), site.stop))
                continue
            spmd = self.ev.axis_names(site.spmd_expr, site.spmd_where) or mesh_axis_names(
                self.ev, site.spmd_expr, site.spmd_where
            )
            if spmd is None and site.fun is not None and not self.ev.is_none(site.spmd_expr, site.spmd_where):
                what = unread_message(self.ev, "the value of `spmd_axis_name`", site.spmd_expr, site.spmd_where)
                self.unknown_spmd.append((self.span(site.node), self.span(site.spmd_expr), what))
            if spmd is None or not spmd.axes or site.fun is None:
                continue
            reach = self.reacher.reach(site.fun, site.scope, site.node)
            traced = frozenset(id(f) for f in reach.functions)
            here = (traced, vmap_root(site))
            calls = self.vmap_calls.calls(site.node, site.fun, site.in_axes, site.in_axes_default)
            reached = [
                self.reached.facts(r, site, set(spmd.names), traced=traced, calls=calls) for r in reach.sites
            ]
            constraints, unknown = self._constraints(reach.functions, frozenset(spmd.names))
            jits = self._jit_shardings(reach.jits)
            reshards = self._reshards(site.fun, site.in_axes, reach.functions, traced, vmap_root(site))
            opaque = [self.span(c) for c in reach.opaque]
            unresolved = [(self.span(n), what) for n, what in reach.unresolved]
            lost_places, lost_externals = reach.at_entry()
            callable_lost = [self.span(n) for n, _ in lost_places]
            # (asked only when another module's callable is reached through a call)
            batched_by = functools.cache(
                lambda inner=True: self.reached.batched.batched_by_function(
                    site.fun, site.in_axes, reach.functions, inner_batches=inner
                )
            )
            for external in reach.external:
                path, owner, target, target_scope, bound = external
                summary = summary_for(owner, target, target_scope, frozenset(spmd.names), bound)
                if self.project is not None:
                    self.project.index.touch_depends(summary.depends)
                # Which parameters of `target` this call passes batched values, when every argument is read: the
                # shard_maps there are read with those batched (`_reached_under`), the summary's with all.
                passed = self._batched_parameters(path, bound, batched_by, target) if summary.reached else None
                keyed = None
                receiver = None  # (the instance a vmapped method runs on: no argument of the vmap's calls)
                if passed is None and summary.reached:
                    passed, keyed = self._mapped_by_in_axes(site, path, target)
                if passed is None and summary.reached:
                    passed = _mapped_method_parameters(owner, target, path, site)
                    receiver = _receiver(target) if passed is not None else None
                if passed is None and summary.reached and not path.nodes and not path.vmaps:
                    passed = self._unbound_by_partial(site, target)
                under = (
                    _reached_under(owner, target, target_scope, spmd.names, passed, keyed=keyed, placed_by=calls)
                    if passed is not None else {}
                )
                # (issue 22: the batched values a body there closes over were not read, silently)
                if passed is not None:
                    # (`params` index `target`'s parameters there; the rules read the vmapped function's)
                    own = {
                        span: tuple(
                            replace(c, params=self._caller_params(c.params, site, target, bound), through_vmaps=None)
                            for c in _batched_captures(f)
                        )
                        for span, f in under.items()
                    }
                    passes = True
                else:
                    own = _plain_captures_of(owner, target, target_scope, spmd.names, spmd=True) if summary.reached else {}
                    passes = own and self._passes_batched(site, path, target)
                for r in self._prefixed(summary, path, here):
                    if r.shard_map.span in under:
                        # Read with what this call batches: a collective whose operand it leaves unbatched runs (no
                        # SPMD004; fuzz/project.py seed 510033), and the captures the summary could not judge are
                        # judged (their batched ones are added below as `extra`; seed 510037)
                        span = r.shard_map.span
                        known = under[span]
                        r = replace(
                            r, unbatched_collectives=r.unbatched_collectives | known.unbatched_collectives,
                            unread_captures=_judged_captures(r.unread_captures, known.unread_captures),
                        )
                        if r.shard_map.mesh is None or r.shard_map.mesh.axis_types is not AxisType.AUTO:
                            # A value from an argument the call leaves unbatched is refused there when a call of
                            # the vmap commits it to an Explicit mesh (`CaptureAnalysis._unmapped_uses`), which
                            # only the vmap's calls tell: an SPMD910 record, as before this reading
                            batched_names = {c.name for c in own.get(span, ())}
                            assumed = _plain_captures_of(owner, target, target_scope, spmd.names, spmd=True)
                            unresolved += [
                                (c.use, _unmapped_capture_not_followed(c, relpath(owner.ix.path)))
                                for c in assumed.get(span, ()) if c.name not in batched_names and c.name != receiver
                            ]
                    extra = tuple(c for c in own.get(r.shard_map.span, ()) if c.name not in {k.name for k in r.captures})
                    mesh = r.shard_map.mesh
                    if path.traced and mesh is not None and mesh.axis_types is AxisType.AUTO:
                        # a jit or staging loop on this module's way traces the body into a jaxpr first: the
                        # capture runs on an Auto mesh, as in one module (`CaptureAnalysis.capture_facts`)
                        extra = ()
                    if extra and passes and not path.traced:
                        # (lift-captures there is not offered: its edits in another module are not built yet)
                        r = replace(r, captures=extra + r.captures, lift=None)
                    elif extra:
                        unresolved += [(c.use, _capture_not_followed(c, relpath(owner.ix.path))) for c in extra]
                    reached.append(self._with_inner_vmap(r, path, site))
                constraints += summary.constraints
                unknown = unknown or summary.constraints_unknown
                where = f" in {relpath(owner.ix.path)}"
                jits += [replace(j, described=j.described + where) for j in summary.jit_shardings]
                # (issue 22: a reshard in another module was not collected)
                reshards += self._reshard_callers(summary.reshards, traced, vmap_root(site))
                opaque += summary.opaque
                unresolved += summary.unresolved
                if any(e is external for e in lost_externals):
                    callable_lost += summary.entry
            # A shard_map reached only through a branch Python never takes: its record, not its findings
            reached, dead = _live(reached)
            unresolved += dead
            # Every spec (and `P(...)` entry) of a reached shard_map is resolved or a place where the analysis
            # stopped, with why (issue 22: never silent).
            unresolved += _spec_lost(reached)
            facts = VmapFacts(
                site=self.model.site(SiteKind.VMAP, site.node),
                span=self.span(site.node),
                spmd=spmd,
                reached=tuple(_unique(reached)),
                constraints=tuple(constraints),
                constraints_unknown=unknown,
                jit_shardings=tuple(jits),
                outer_jit_shardings=tuple(self._jit_shardings(self._outer_jits(site))),
                reshards=tuple(reshards),
                opaque_calls=tuple(opaque),
                unresolved=tuple(_unique_places(unresolved)),
                callable_lost=tuple(sorted(set(callable_lost))),
                spmd_keyword_call=keyword_call(self.model, site),
                calls=calls,
                shmap_error_disabled=self._shmap_error_disabled(),
                # (read by the fixes only: a site that reaches nothing has no finding, and the search of other
                # modules cost axlearn's pipeline.py, whose vmapped function is a parameter, a second of CPU)
                shared_by=shared_by(self.model, site) if reached or constraints or jits or reshards else (),
                module_quote=self.ix.quote,
                axis_spelling=axis_spelling(self.model, site),
            )
            out.append(_with_unread(facts))
        # A factory of this module's classes applied by a subclass of another module (never silent: issue 22)
        self.unknown_spmd += applied_in_subclasses(self.model)
        # A module-level factory of this module applied in another module (never silent: breaker8 t07)
        self.unknown_spmd += applied_in_importers(self.model)
        plains = self.placement.plain_vmaps()
        self._unread_placements()
        for plain in plains:
            # (its `in_axes`: an argument the plain vmap does not map is no batched value a body may capture;
            # fuzz seed 280006)
            site = VmapSite(plain.vmap, self.ix.scope_at(plain.vmap), plain.fun, plain.vmap, plain.in_axes)
            reach = self.reacher.reach(plain.fun, site.scope)
            traced = frozenset(id(f) for f in reach.functions)
            here = (traced, vmap_root(site))
            calls = self.vmap_calls.calls(plain.vmap, plain.fun, plain.in_axes)
            reached = [
                self.reached.facts(r, site, set(plain.axes.names), spmd=False, traced=traced, calls=calls)
                for r in reach.sites
            ]
            # Shard_maps in other modules of the project, as for an spmd vmap (their callers in every module
            # of the project are searched: `_prefixed`). The summary's capture facts are an spmd vmap's
            # (SPMD003/004 concern spmd axes): a plain vmap has none.
            reshards = self._reshards(plain.fun, plain.in_axes, reach.functions, traced, vmap_root(site))
            lost: list[tuple[Span, str]] = []
            for path, owner, target, target_scope, bound in reach.external:
                summary = summary_for(owner, target, target_scope, frozenset(plain.axes.names), bound)
                if self.project is not None:
                    self.project.index.touch_depends(summary.depends)
                # (issue 22: the body's captures there were dropped, silently)
                # Read as if the vmap mapped every parameter of `target`: right when it does, mapping `target`
                # itself or a function of this module whose one call on the way passes each parameter of
                # `target` one of its own or a literal (`_forwarded`; fuzz/project.py seeds 590075, `@jax.vmap
                # def apply(x): return block(x)`, and 590116); the captures' `params` then index the vmapped
                # function's.
                forwarded = self._forwarded(site, path, target)
                # (`target` itself, whatever callable it is: a `def`, a lambda, a value; as before `_forwarded`)
                direct = forwarded is not None or (not path.nodes and not path.vmaps and _maps_every_argument(plain.in_axes))
                every = forwarded is None or forwarded == frozenset(_positional(target))
                own = _plain_captures_of(owner, target, target_scope, plain.axes.names, batched=None if every else forwarded)
                if direct and path.nodes:
                    read = {
                        span: tuple(replace(c, params=self._caller_params(c.params, site, target, bound)) for c in caps)
                        for span, caps in own.items()
                    }
                    # (a capture whose inputs are known there but not read back here: the rule's placement
                    # exemptions could not apply, so not a finding but a record)
                    lost_params = any(
                        c.params is not None and r.params is None
                        for span, caps in own.items() for c, r in zip(caps, read[span])
                    )
                    own, direct = (own, False) if lost_params else (read, True)
                for r in self._prefixed(summary, path, here):
                    if r.shard_map.span in own:
                        # (lift-captures there is not offered: its edits in another module are not built yet)
                        r = replace(r, captures=own[r.shard_map.span] + r.captures, lift=None)
                    kept, unread = _external_plain_captures(r, direct, relpath(owner.ix.path))
                    lost += unread
                    body = tuple(as_plain_vmap(u) for u in r.unread_captures)
                    reached.append(self._with_inner_vmap(replace(r, captures=kept, lift=None, unread_captures=body), path, site))
                reshards += self._reshard_callers(summary.reshards, traced, vmap_root(site))
            reached, dead = _live(reached)
            lost += dead
            facts = VmapFacts(
                site=self.model.site(SiteKind.VMAP, plain.vmap),
                span=self.span(plain.vmap),
                spmd=plain.axes,
                reached=tuple(_unique(reached)),
                constraints=(),
                constraints_unknown=False,
                kind=VmapKind.EXPLICIT,
                placement=plain.placement,
                calls=calls,
                unresolved=tuple(_unique_places(_spec_lost(reached) + lost)),
                reshards=tuple(reshards),
                module_quote=self.ix.quote,
                axis_spelling=axis_spelling(self.model, site),
            )
            out.append(_with_unread(facts))
        return out

    def _batched_parameters(
        self, path: _Path, bound: BoundScope | None, batched_by: Callable[[bool], dict[int, set[str]]],
        target: ast.AST,
    ) -> frozenset[str] | None:
        """The parameters of another module's callable `target` that the call `bound` (the last step of `path`
        in this module) passes a value the spmd vmap batches; None when that is not read for every argument.

        An argument written in this module is batched when it mentions a batched name of the function it is
        written in (`batched.BatchedValues.batched_by_function`, from the vmap's `in_axes`), and not when it
        mentions none; that function's batched names not known: None. A parameter left to its default is not
        batched (a default is evaluated where the callable is defined, from nothing the vmap maps). No call
        binding every parameter (the vmap maps the callable itself, a `*args` call): None.

        An inner `jax.vmap` on this module's part of the way is read as in one module
        (`vmap_operands.through_vmap`, `_inner_vmaps_read`; any other: None, an SPMD910 record): a parameter of
        the function it maps holds a batched value when its operand does; the last one may map `target` itself
        (`jax.vmap(block, in_axes=(0, None))(x, w)`: fuzz/project.py seed 590048). One module also counts an
        operand only an inner vmap maps as batched (`batched_walk`'s `inner_batches`), and a capture of it is an
        SPMD003 there; measured, such a capture runs on an Auto mesh (safety/measurements/
        capture_through_inner_vmap.py) and fails when a call commits the operand to an Explicit one
        (golden/lift-captures/capture_spmd_placed_unmapped_arg_committed_inner_vmap_mapped), which is read only
        in this module: when an inner vmap maps a parameter the spmd vmap leaves unbatched, None (a record)."""
        if path.vmaps:
            if not self._inner_vmaps_read(path, target):
                return None
            spmd_only = self._passed(path, bound, lambda: batched_by(False), target, False)
            if spmd_only != self._passed(path, bound, lambda: batched_by(True), target, True):
                return None
            return spmd_only
        return self._passed(path, bound, lambda: batched_by(True), target, True)

    def _passed(
        self, path: _Path, bound: BoundScope | None, batched_by: Callable[[], dict[int, set[str]]], target: ast.AST,
        inner_batches: bool,
    ) -> frozenset[str] | None:
        """`_batched_parameters`, an inner vmap's own mapping counted as batching (`inner_batches`) or not."""
        if path.vmaps and path.nodes and path.nodes[-1] is path.vmaps[-1]:  # the last vmap maps `target` itself
            return self._through_last_vmap(path.vmaps[-1], batched_by(), target, inner_batches)
        if bound is None:
            return None
        batched = set()
        for name, (ev, expr, _) in bound.arguments.items():
            if ev is not self.ev:
                if ev.ix is self.ix:  # (another evaluator of this module: its scope is not read here)
                    return None
                continue  # the callable's default, in its own module
            if isinstance(expr, ast.Constant):
                continue  # a literal (`block(x, w, 'x')`): no batched value (and no parent: the walk skips leaves)
            function = self.ix.enclosing_function(expr) if id(expr) in self.ix.parent else None
            names = batched_by().get(id(function)) if function is not None else None
            if names is None:
                return None
            if mentions(expr, names, self.ix.parent, self._qualname):
                batched.add(name)
        return frozenset(batched)

    def _inner_vmaps_read(self, path: _Path, target: ast.AST) -> bool:
        """Whether every inner vmap on this module's part of `path` is one whose mapping the batched values are
        followed through as in one module (`vmap_operands.applied_vmap`): a `jax.vmap(f, in_axes)` call that is
        a step of the way, applied at once to positional operands, with `in_axes` read (`read_in_axes`: not a
        value the reading cannot see, which one module counts as mapping every operand); `f` a function of
        this module, or the last vmap's `f` the other module's `target` itself. A vmap decorator, a
        `jax.lax.map` with a `batch_size`, a vmap bound to a name and called later: not read."""
        steps = {id(n) for n in path.nodes}
        for vmap in path.vmaps:
            if not isinstance(vmap, ast.Call) or id(vmap) not in steps:
                return False
            qname = self.ix.qualname(vmap.func, self.ix.scope_at(vmap))
            applied = applied_vmap(self.ix, vmap, qname, self._inner_callee(vmap, target))
            if applied is None or not read_in_axes(vmap, len(applied[3])):
                return False
        return True

    def _inner_callee(self, vmap: ast.Call, target: ast.AST) -> Callable[[ast.AST], tuple[ast.AST, int] | None]:
        """`batched.BatchedValues.callee` for the inner vmap `vmap`'s function, which may also be `target`, a
        function of another module, named by an import (`_names_target`)."""

        def callee(expr: ast.AST) -> tuple[ast.AST, int] | None:
            if expr is (vmap.args[0] if vmap.args else None) and self._names_target(expr, target):
                return target, 0
            return self.reached.batched.callee(expr)
        return callee

    def _names_target(self, expr: ast.AST, target: ast.AST) -> bool:
        """Whether `expr` (`block`, `model.block`) names `target`, a `def` of another module that runs as it is
        called (no decorator but a jit, which passes the arguments through: `reach.Reacher._bound_by`)."""
        if self.project is None or not isinstance(expr, (ast.Name, ast.Attribute)) or not isinstance(target, ast.FunctionDef):
            return False
        found = self.project.binding(self.ix.qualname(expr, self.ix.scope_at(expr)))
        return (
            found is not None and found[1].kind is BindingKind.DEF and found[1].node is target
            and passes_arguments(found[0], target)
        )

    def _through_last_vmap(
        self, vmap: ast.Call, batched: dict[int, set[str]], target: ast.AST, inner_batches: bool
    ) -> frozenset[str] | None:
        """The parameters of `target` that the inner vmap `vmap` mapping it (`jax.vmap(block, in_axes=(0,
        None))(x, w)`) gives a batched value (`vmap_operands.through_vmap`, from the batched names of the function
        the vmap is applied in); None when those names are not known."""
        function = self.ix.enclosing_function(vmap)
        names = batched.get(id(function)) if function is not None else None
        if names is None:
            return None
        qname = self.ix.qualname(vmap.func, self.ix.scope_at(vmap))

        def fed(arg: ast.AST) -> bool:
            return mentions(arg, names, self.ix.parent, self._qualname)

        found = through_vmap(self.ix, vmap, qname, self._inner_callee(vmap, target), fed, inner_batches)
        return frozenset(found[1]) if found is not None and found[0] is target else None

    def _qualname(self, expr: ast.expr) -> str | None:
        return self.ix.qualname(expr, self.ix.scope_at(expr))

    def _with_inner_vmap(self, r: ReachedFacts, path: _Path, site: VmapSite) -> ReachedFacts:
        """`r`, a shard_map of another module, with the arguments the first `jax.vmap` on this module's part of
        the way maps (`ReachedFacts.inner_mapped`, `inner_vmap`), which its summary cannot see: SPMD006's inner
        vmap mapping away a dimension a call places on an Explicit axis is then judged as in one module
        (fuzz/project.py seed 530036: `jax.vmap(block, in_axes=(0, None))(x, w)` in train.py, `block`'s
        shard_map in model.py, silent). `r` as it is when the summary's way has its own inner vmap."""
        if not path.vmaps or r.inner_mapped:
            return r
        mapped = self.reached.inner_mapped(path.vmaps, site)
        return replace(r, inner_mapped=mapped, inner_vmap=self.span(path.vmaps[0])) if mapped else r

    def _caller_params(
        self, params: tuple[int, ...] | None, site: VmapSite, target: ast.AST, bound: BoundScope | None
    ) -> tuple[int, ...] | None:
        """`Capture.params` of a capture read in another module's callable `target` (indices of its positional
        parameters) as indices of the vmapped function's positional parameters, which the rules read (the
        placement of each argument of the vmap's calls): through the call `bound`, written in the vmapped
        function itself, each argument for those parameters being made of the vmapped function's parameters
        only (`block(x, w)`, `block(x * w)`). None when any of that does not hold (not known: no placement
        exemption applies)."""
        found = self.reached.batched.callee(site.fun) if site.fun is not None and bound is not None else None
        if params is None or found is None or not isinstance(target, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return None
        func, skip = found
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return None
        mine = [a.arg for a in [*func.args.posonlyargs, *func.args.args]][skip:]
        theirs = [a.arg for a in [*target.args.posonlyargs, *target.args.args]]
        out: set[int] = set()
        for i in params:
            argument = bound.arguments.get(theirs[i]) if i < len(theirs) else None
            if argument is None or argument[0] is not self.ev or self.ix.enclosing_function(argument[1]) is not func:
                return None
            names = [n.id for n in ast.walk(argument[1]) if isinstance(n, ast.Name)]
            if not names or any(n not in mine for n in names):
                return None
            out |= {mine.index(n) for n in names}
        return tuple(sorted(out))

    def _mapped_by_in_axes(
        self, site: VmapSite, path: _Path, target: ast.AST
    ) -> tuple[frozenset[str] | None, dict[str, Keys] | None]:
        """(the parameters of `target`, a function of another module the spmd vmap `site` maps itself (`path`
        holds no step of this module), that its `in_axes` display maps, with those mapped only in part through a
        dict display and their mapped keys (`batched.BatchedValues.keyed_params`)), when `in_axes` is a tuple or
        list display with an entry per parameter, not all ints (`in_axes=({"scale": 0, "bias": None}, 0)`,
        `(0, None)`: read by `_passes_batched` as not known, an SPMD910 record at each capture; breaker7
        s19/s20); else (None, None)."""
        in_axes = site.in_axes
        if path.nodes or path.vmaps or not isinstance(target, ast.FunctionDef) or _maps_every_argument(in_axes):
            return None, None
        if self._vmapped_partial(site) is not None:
            return None, None  # (`in_axes` entries stand for the arguments the partial leaves, not `target`'s)
        if isinstance(self.ix.parent.get(id(target)), ast.ClassDef) or not isinstance(in_axes, (ast.Tuple, ast.List)):
            return None, None
        params = target.args
        if params.vararg or params.kwarg or params.kwonlyargs:
            return None, None
        names = [a.arg for a in (*params.posonlyargs, *params.args)]
        if len(in_axes.elts) != len(names) or any(isinstance(e, ast.Starred) for e in in_axes.elts):
            return None, None
        batched = self.reached.batched
        return frozenset(batched.mapped_params(target, in_axes)), batched.keyed_params(target, in_axes)

    def _vmapped_partial(self, site: VmapSite) -> ast.Call | None:
        """The `functools.partial(f, ...)` call the vmap `site` maps, written as its function or bound once to the
        name it maps (`fn = partial(model.kernel, cfg=cfg)`; `jax.vmap(fn, spmd_axis_name='x')`), or None."""
        fun, scope = site.fun, site.scope
        for _ in range(8):  # (a chain of names bound to names; a cycle is not followed)
            if isinstance(fun, ast.Call):
                qname = self.ix.qualname(fun.func, self.ix.scope_at(fun)) if isinstance(fun.func, (ast.Name, ast.Attribute)) else None
                return fun if qname in jaxapi.PARTIAL_NAMES else None
            if not isinstance(fun, ast.Name):
                return None
            binding = self.ix.single_binding(fun.id, scope)
            if binding is None or binding.kind is not BindingKind.ASSIGN:
                return None
            fun, scope = binding.node, binding.scope
        return None

    def _unbound_by_partial(self, site: VmapSite, target: ast.AST) -> frozenset[str] | None:
        """The parameters of `target`, a `def` of another module that the vmap `site` maps through a
        `functools.partial` (`_vmapped_partial`) mapping every argument (`_maps_every_argument`), that the
        partial does not bind: those the vmap's arguments fill, the only ones it batches. What a partial binds
        (`cfg=cfg`, a leading positional `w`) is closed over by the vmapped callable, not mapped: measured on
        jax 0.10.2, a shard_map body there closing over it runs and matches (safety/trials/newuser14:
        xmod/run.py, run2.py; before, an SPMD003 and a SAFE drop-spmd-axis on a program that runs). None when
        there is no such partial, it binds arguments by `*` / `**` unpacking, its function is not `target`'s
        own name (a partial of a partial, of a wrapper), `target` has a decorator that may pass other arguments
        (`reach.passes_arguments`: any but a jit), or `target` is a method (its receiver)."""
        call = self._vmapped_partial(site)
        if call is None or not call.args or not isinstance(target, ast.FunctionDef):
            return None
        if not _maps_every_argument(site.in_axes) or isinstance(self.ix.parent.get(id(target)), ast.ClassDef):
            return None
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        inner = call.args[0]
        if not isinstance(inner, (ast.Name, ast.Attribute)) or self.project is None:
            return None
        found = self.project.binding(self.ix.qualname(inner, self.ix.scope_at(inner)))
        if found is None or found[1].kind is not BindingKind.DEF or found[1].node is not target:
            return None
        if not passes_arguments(found[0], target):
            return None  # (a decorator may hand the vmap's arguments to other parameters: `@swapped`)
        args = target.args
        positional = _positional(target)[len(call.args) - 1:]
        names = [*positional, *(a.arg for a in args.kwonlyargs), *(a.arg for a in (args.vararg, args.kwarg) if a)]
        bound = {k.arg for k in call.keywords}
        return frozenset(n for n in names if n not in bound)

    def _passes_batched(self, site: VmapSite, path: _Path, target: ast.AST) -> bool:
        """Whether every parameter of `target`, a function of another module the spmd vmap `site` reaches by
        `path`, receives a value the vmap batches, as `_plain_captures_of` assumes: the vmap maps `target`
        itself, or a lambda or function of this module whose one call on the way (`lambda x, w: block(x,
        w)`) passes each parameter of `target` one of its own parameters; either mapping every argument
        (`in_axes` absent, an int, or a display of ints). Anything else: not known (an SPMD910 record)."""
        forwarded = self._forwarded(site, path, target)
        return forwarded is not None and forwarded == frozenset(_positional(target))

    def _forwarded(self, site: VmapSite, path: _Path, target: ast.AST) -> frozenset[str] | None:
        """The parameters of `target`, a function of another module the vmap `site` reaches by `path`, that
        receive a value the vmap batches, when the vmap maps every argument (`in_axes` absent, an int, or a
        display of ints) and either maps `target` itself (all of them) or a lambda or function of this module
        whose one call on the way passes each parameter of `target` one of its own parameters (those) or a
        literal (`block(x, w, ('x', 'y'))`: a Python value, neither batched nor placed; fuzz/project.py seed
        590116). None for anything else (not known: an SPMD910 record)."""
        if path.vmaps or not _maps_every_argument(site.in_axes) or not isinstance(target, ast.FunctionDef):
            return None
        if not path.nodes:
            # (through a partial read by `_unbound_by_partial`, the parameters it leaves; one not read: all, as
            # before that reading, which may report a capture the partial binds as batched but is never silent)
            unbound = self._unbound_by_partial(site, target)
            return frozenset(_positional(target)) & (unbound if unbound is not None else frozenset(_positional(target)))
        if len(path.nodes) != 1 or not isinstance(path.nodes[0], ast.Call):
            return None
        call = path.nodes[0]
        fun = site.fun
        if isinstance(fun, ast.Name):
            binding = self.ix.single_binding(fun.id, site.scope)
            fun = binding.node if binding is not None and binding.kind is BindingKind.DEF else None
        own = self.ix.own_scope(fun) if isinstance(fun, (ast.Lambda, ast.FunctionDef)) else None
        params = target.args
        if own is None or call.keywords or params.vararg or params.kwarg or params.kwonlyargs:
            return None
        if len(call.args) != len(params.posonlyargs) + len(params.args) or self.ix.scope_at(call) is not own:
            return None
        forwarded = set()
        for name, arg in zip(_positional(target), call.args):
            if _literal(arg):
                continue
            binding = self.ix.single_binding(arg.id, own) if isinstance(arg, ast.Name) else None
            if binding is None or binding.kind is not BindingKind.PARAM or binding.scope is not own:
                return None
            forwarded.add(name)
        return frozenset(forwarded)

    def _unread_placements(self) -> None:
        """The plain vmaps applied to an input placed by `device_put`/`reshard` whose sharding, mesh or spec
        cannot be read (`PlacementAnalysis.unread`), when the vmapped function reaches a shard_map (here or in
        another module of the project): then whether the batch sits on an Explicit axis decides SPMD006/008,
        so the placement is a place the analysis stopped (`unknown_placements`, reported as SPMD910)."""
        for vmap, fun, span, what in self.placement.unread:
            reach = self.reacher.reach(fun, self.ix.scope_at(vmap))
            if reach.sites or reach.external:
                self.unknown_placements.append((self.span(vmap), span, what))

    def _shmap_error_disabled(self) -> bool:
        """`jax.config.update('jax_disable_vmap_shmap_error', True)` appears in the module (asked once per
        site; computed once per module)."""
        if self._disabled is None:
            self._disabled = shmap_error_disabled(self.model)
        return self._disabled

    def _constraints(self, functions: list[ast.AST], spmd: frozenset[str]) -> tuple[list[ConstraintUse], bool]:
        """with_sharding_constraint calls in the traced functions and their specs; Flax's logical constraints
        and the mesh-annotated parameters whose names may name an axis of `spmd` as unread ones (SPMD910)."""
        uses: list[ConstraintUse] = []
        unknown = False
        for fn in functions:
            for call in self.ix.calls_in(fn):
                scope = self.ix.scope_at(call)
                qualname = self.ix.qualname(call.func, scope)
                if qualname in jaxapi.LOGICAL_CONSTRAINT_NAMES:  # flax's logical axes: never read (SPMD910)
                    uses.append(ConstraintUse(self.span(call), logical_constraint_tree(self.ev, call)))
                    unknown = True
                    continue
                if qualname in jaxapi.PARTITIONED_PARAM_NAMES | jaxapi.LOGICAL_PARTITIONED_PARAM_NAMES:
                    logical = qualname in jaxapi.LOGICAL_PARTITIONED_PARAM_NAMES
                    tree = partitioned_param_tree(self.ev, call, scope, spmd, logical)
                    if tree is not None:  # (a mesh set where it runs decides: SPMD910)
                        uses.append(ConstraintUse(self.span(call), tree))
                        unknown = True
                    continue
                if qualname in jaxapi.WITH_SHARDING_CONSTRAINT_NAMES:
                    bound: tuple | None = (self.ev, argument(call, 1, "shardings"), scope)
                else:
                    bound = self._bound_constraint(call, qualname, scope)
                if bound is None:
                    continue
                ev, spec, at = bound
                if isinstance(spec, ast.Call) and (ev.ix.qualname(spec.func, at) or "").endswith("NamedSharding"):
                    spec = argument(spec, 1, "spec")
                # a spec, or a sharding pytree as `jax.jit` takes one (`NamedSharding(...)` through a name: jax's
                # pjit_test.py binds `sharding = NamedSharding(mesh, P(...))` first; an SPMD910 record before)
                tree = sharding_tree(ev, spec, at)
                named = [e.span for sp in tree.specs for e in sp.entries if e.value is not None]
                own = spec is not None and ev is self.ev
                shared = self.spec_uses.foreign_uses([spec], at, named) if own else []
                uses.append(ConstraintUse(self.span(call), tree, tuple(shared)))
                unknown = unknown or bool(tree.unresolved) or spec is None
        return uses, unknown

    def _bound_constraint(self, call: ast.Call, qualname: str | None, scope: Scope) -> tuple | None:
        """A with_sharding_constraint a call applies without naming it as its function, as `(evaluator, sharding
        expression or None, scope)`: `functools.partial(jax.lax.with_sharding_constraint, shardings=...)` (its
        sharding read off the partial), a call of a name bound to such a partial (`constrain = partial(...)` at
        module level, `constrain(v)` in the vmapped function: the partial's sharding, else the call's), and the
        function passed to another one (`jax.tree.map(jax.lax.with_sharding_constraint, v, s)`: its sharding not
        read, None). rename took the partial's `P('y')` for a free axis and the fixed program raised `vmap
        spmd_axis_name ('y',) cannot appear in with_sharding_constraint spec` (breaker14 r05). None for any
        other call."""
        names = jaxapi.WITH_SHARDING_CONSTRAINT_NAMES
        if qualname in jaxapi.PARTIAL_NAMES and call.args and self.ix.qualname(call.args[0], scope) in names:
            return self.ev, _partial_sharding(call), scope
        binding = self.ix.single_binding(call.func.id, scope) if isinstance(call.func, ast.Name) else None
        if binding is not None and (
            binding.kind is BindingKind.ASSIGN
            or (binding.kind is BindingKind.IMPORT and self.reacher.lost.follows(qualname))
        ):
            # (a name the module assigns, or imports from a module of the project: `from pkg.config import
            # CONSTRAIN` (breaker14 k03); a library name is not followed, which would ask the project index
            # for every one called on the way)
            followed = self.ev.follow(call.func, scope)
            if followed is not None:
                ev, value, at = followed
                if (
                    isinstance(value, ast.Call)
                    and ev.ix.qualname(value.func, at) in jaxapi.PARTIAL_NAMES
                    and value.args
                    and ev.ix.qualname(value.args[0], at) in names
                ):
                    bound = _partial_sharding(value)
                    if bound is not None:
                        return ev, bound, at
                    return self.ev, argument(call, 2 - len(value.args), "shardings"), scope
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            if isinstance(arg, (ast.Name, ast.Attribute)) and self.ix.qualname(arg, scope) in names:
                return self.ev, None, scope
        return None

    def _reshard_callers(
        self, uses: tuple[ReshardUse, ...], traced: frozenset[int], root: ast.AST | None
    ) -> list[ReshardUse]:
        """Another module's reshards (a summary's), as reached from the vmap of this module: the module-level
        names they leave their module by searched in every module importing them (`search_exits`), this one
        judged with `traced` and `root` (as `_prefixed` does for shard_maps)."""
        out = []
        for use in uses:
            if use.exits:
                found, exits, read = search_exits(self.model, use.exits, traced, root, keep_own=root is None)
                self.reached.read |= read
                use = replace(use, other_callers=use.other_callers + tuple(found), exits=exits)
            out.append(use)
        return out

    def _reshards(
        self,
        fun: ast.AST | None,
        in_axes: ast.AST | None,
        functions: list[ast.AST],
        traced: frozenset[int] = frozenset(),
        root: ast.AST | None = None,
    ) -> list[ReshardUse]:
        """The `jax.sharding.reshard(v, spec)` calls in the traced functions whose operand `v` may hold a value
        the vmap batches (`facts.ReshardUse`): one whose operand reads no batched name of its function (a value
        made inside, an argument mapped with `in_axes=None`, a module-level array) is left out, as measured to
        run (safety/measurements/reshard_inside_vmap.py); in a function the batched values were not followed
        to, or a lambda (its parameters may be fed batched values), the operand counts as batched."""
        batched = self.reached.batched.batched_by_function(fun, in_axes, functions)
        uses: list[ReshardUse] = []
        seen: set[int] = set()
        for fn in functions:
            for call in self.ix.calls_in(fn):
                scope = self.ix.scope_at(call)
                if id(call) in seen or self.ix.qualname(call.func, scope) not in jaxapi.RESHARD_NAMES:
                    continue
                seen.add(id(call))
                operand = argument(call, 0, "xs")
                owner = self.ix.enclosing_function(call)
                names = batched.get(id(owner)) if owner is not None else None
                outer = self.ix.enclosing_function(owner) if owner is not None else None
                while names is not None and outer is not None:  # what a nested def closes over
                    names = names | batched.get(id(outer), set())
                    outer = self.ix.enclosing_function(outer)
                if operand is not None and names is not None and not isinstance(owner, ast.Lambda):
                    if not mentions(operand, names, self.ix.parent, lambda e: self.ix.qualname(e, self.ix.scope_at(e))):
                        continue
                sharding = argument(call, 1, "out_shardings")
                tree = sharding_tree(self.ev, sharding, scope)
                named = [e.span for sp in tree.specs for e in sp.entries if e.value is not None]
                shared = self.spec_uses.foreign_uses([sharding], scope, named) if sharding is not None else []
                # who else runs the function holding it (root None: a summary, its exits searched by the
                # module of the vmap, `_reshard_callers`)
                others = [u.describe() for u in self.reached.callers.outside(call, None, traced, root)]
                exits = exits_of(self.model, self.reached.callers)
                if root is not None and exits:
                    found, exits, read = search_exits(self.model, exits, traced, root, keep_own=False)
                    others += found
                    self.reached.read |= read
                uses.append(ReshardUse(self.span(call), tree, tuple(shared), tuple(others), exits))
        return uses

    def _outer_jits(self, site) -> list[ast.Call]:
        """The jits that wrap the vmap of `site` from outside: `jax.jit(<the vmap call>, ...)` (or
        `partial(jax.jit, ...)(<the vmap call>)`), and jit decorators written above the vmap decorator (applied
        after it). Only those that are calls (with arguments that may carry shardings)."""
        node = site.node
        out: list[ast.Call] = []
        parent = self.ix.parent.get(id(node))
        if isinstance(parent, ast.Call) and parent.args and parent.args[0] is node:
            scope = self.ix.scope_at(parent)
            func = parent.func
            if self.ix.qualname(func, scope) in jaxapi.JIT_NAMES:
                out.append(parent)
            elif isinstance(func, ast.Call) and self._is_partial_jit(func, scope):
                out.append(func)
        owner = self.ix.parent.get(id(node))
        if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) and node in owner.decorator_list:
            scope = self.ix.scope_at(owner)
            for deco in owner.decorator_list[: owner.decorator_list.index(node)]:
                if isinstance(deco, ast.Call) and (
                    self.ix.qualname(deco.func, scope) in jaxapi.JIT_NAMES or self._is_partial_jit(deco, scope)
                ):
                    out.append(deco)
        return out

    def _is_partial_jit(self, call: ast.Call, scope) -> bool:
        return (
            self.ix.qualname(call.func, scope) in jaxapi.PARTIAL_NAMES
            and bool(call.args)
            and self.ix.qualname(call.args[0], scope) in jaxapi.JIT_NAMES
        )

    def _jit_shardings(self, jits: list[ast.Call]) -> list[JitShardings]:
        """The `in_shardings` / `out_shardings` arguments of the jit applications on the way
        (`ReachResult.jits`): a `jax.jit(...)` call, or `partial(jax.jit, ...)` (its keywords; pjit's shardings
        may also be its 2nd and 3rd positional arguments). A `**kwargs` or `*args` passed there is an argument
        that cannot be read."""
        out = []
        for call in jits:
            scope = self.ix.scope_at(call)
            offset, jit = 0, call.func
            if self.ix.qualname(call.func, scope) in jaxapi.PARTIAL_NAMES:
                offset, jit = 1, call.args[0]
            positional = self.ix.qualname(jit, scope) in jaxapi.PJIT_NAMES
            where = f" of the jax.jit at line {call.lineno}"
            for position, keyword in ((1, "in_shardings"), (2, "out_shardings")):
                expr = argument(call, position + offset if positional else None, keyword)
                if expr is not None:
                    tree = sharding_tree(self.ev, expr, scope)
                    described = f"`{keyword}={short(expr)}`{where}"
                    out.append(JitShardings(self.span(call), described, tree, bool(tree.unresolved)))
            hidden = [(f"**{short(k.value)}", k.value) for k in call.keywords if k.arg is None]
            hidden += [(f"*{short(a.value)}", a) for a in call.args if isinstance(a, ast.Starred)]
            for text, node in hidden:
                # (its place and why, as a sharding read but not known: an SPMD910 record where it matters,
                # `unread_matters.records`)
                why = f"`{text}` passed to the jax.jit at line {call.lineno} may give it shardings, which are not read"
                lost = SpecTree((), (self.span(node),), (), ((self.span(node), why),))
                out.append(JitShardings(self.span(call), f"`{text}`{where}", lost, True))
        return out

    # --- summaries, for the modules importing this one -----------------------------------------------
    def summary(self, expr: ast.AST, scope: Scope, stripped: frozenset[str] = frozenset()) -> FunctionSummary:
        """What calling the callable `expr` of this module reaches (`summary_of`)."""
        return summary_of(self.model, expr, scope, stripped)

    def _summary(
        self, expr: ast.AST, scope: Scope, stripped: frozenset[str], bound: BoundScope | None = None
    ) -> FunctionSummary:
        reach = self.reacher.reach(expr, scope, bound=bound)
        site = VmapSite(expr, scope, None, expr)
        traced = frozenset(id(f) for f in reach.functions)
        reached = [self.reached.facts(r, site, set(stripped), traced=traced, root=None) for r in reach.sites]
        constraints, unknown = self._constraints(reach.functions, stripped)
        jits = self._jit_shardings(reach.jits)
        # (every parameter of `expr` counts as batched: which arguments the caller's vmap batches is not known)
        reshards = self._reshards(expr, None, reach.functions, traced, None)
        opaque = [self.span(c) for c in reach.opaque]
        unresolved = [(self.span(n), what) for n, what in reach.unresolved]
        lost_places, lost_externals = reach.at_entry()
        entry = [self.span(n) for n, _ in lost_places]
        depends = {(self.ix.path, self.project.digest() if self.project is not None else "")}
        for external in reach.external:
            path, owner, target, target_scope, inner = external
            summary = summary_for(owner, target, target_scope, stripped, inner)
            if any(e is external for e in lost_externals):
                entry += summary.entry
            reached += self._prefixed(summary, path, (traced, None))
            constraints += summary.constraints
            unknown = unknown or summary.constraints_unknown
            where = f" in {relpath(owner.ix.path)}"
            jits += [replace(j, described=j.described + where) for j in summary.jit_shardings]
            reshards += summary.reshards
            opaque += summary.opaque
            unresolved += summary.unresolved
            depends.update(summary.depends)
        if self.project is not None:  # the importers searched for the callers (`analysis.project_callers`)
            depends.update((p, self.project.index.digest_of(p)) for p in self.reached.read)
        return FunctionSummary(
            reached=tuple(reached),
            constraints=tuple(constraints),
            constraints_unknown=unknown,
            jit_shardings=tuple(jits),
            opaque=tuple(opaque),
            unresolved=tuple(unresolved),
            depends=tuple(sorted(depends)),
            reshards=tuple(reshards),
            entry=tuple(sorted(set(entry))),
        )

    def _prefixed(
        self, summary: FunctionSummary, path: _Path, here: tuple[frozenset[int], ast.AST | None]
    ) -> list[ReachedFacts]:
        """Another module's reached shard_maps, as reached from here: this module's steps come first. The
        module-level names they leave their modules by are searched in every module of the project importing
        them (`analysis.project_callers`), this one judged with `here` (the functions its vmapped callable
        traces, the vmap's node or None); this module's own are kept for the module importing it when the
        vmap is elsewhere (a summary)."""
        traced, root = here
        vmaps = tuple(self.reached.vmap_span(n) for n in path.vmaps)
        out = []
        for r in summary.reached:
            others, exits = r.other_callers, r.exits
            if exits:
                found, exits, read = search_exits(self.model, exits, traced, root, keep_own=root is None)
                others += tuple(found)
                self.reached.read |= read
            captures = r.captures
            if path.jitted and jitted_capture_runs(r.shard_map.mesh):
                # A jit on this module's part of the way (`jax.jit(layers.block)(x)`) makes an unbatched
                # array's capture run, as one in the callee's module does (`reached.jitted_capture_runs`)
                captures = tuple(c for c in captures if c.kind is not CaptureKind.ARRAY)
            out.append(
                replace(
                    r, chain=path.chain + r.chain, vmaps=vmaps + r.vmaps, other_callers=others, exits=exits,
                    under_jit=r.under_jit or path.jitted, staged=r.staged or path.staged,
                    cond_staged=r.cond_staged or path.cond_staged, captures=captures,
                )
            )
        return out


def summary_of(
    model: ModuleModel,
    expr: ast.AST,
    scope: Scope,
    stripped: frozenset[str] = frozenset(),
    bound: BoundScope | None = None,
) -> FunctionSummary:
    """What calling the callable `expr` of the module `model` reaches (`FunctionSummary`), for a vmap whose spmd
    axes are `stripped` (strip's safety depends on them); `bound`: the call that reaches it, with the function's
    parameters bound to its arguments (`reach.External.bound`). Computed once per callable, axes and call, and
    kept in the module's model (`ModuleModel.summaries`); a cycle through other modules sees an empty summary."""
    key = (id(expr), stripped, _call_key(bound))
    memo = model.summaries
    if key in memo:
        return memo[key] or FunctionSummary()
    memo[key] = None  # in progress
    if model.project is None:
        summary = Analyzer(model)._summary(expr, scope, stripped, bound)
    else:
        with model.project.index.recording() as read:
            summary = Analyzer(model)._summary(expr, scope, stripped, bound)
        # who imports the modules its fixes were judged against, for a results cache served this summary later
        asked = tuple(e for e in read if e[0].startswith((IMPORTERS_OF_KEY, HOLDING_KEY)))
        summary = replace(summary, depends=tuple(sorted({*summary.depends, *asked})))
    memo[key] = summary
    return summary


def summary_for(
    model: ModuleModel, expr: ast.AST, scope: Scope, stripped: frozenset[str], bound: BoundScope | None
) -> FunctionSummary:
    """`summary_of` for a callable reached through a call (`bound`): the summary shared by every call when it
    reads everything without the parameters (no place the analysis stopped, no spec entry, mesh, `axis_names`,
    `check_vma` or collective axis left unread), else the one read with this call's arguments. A function of
    another module is only reached so when another module may call it, whose parameters its own module's calls
    are then never read for (`module_model._elsewhere`): what the shared summary resolves does not depend on
    them. (Per call, the importers of a language server's layer module each computed their own: the typed
    texts' latency on bench/lsp_latency.py's project went 35 -> 58 ms.)"""
    if bound is not None:
        shared = summary_of(model, expr, scope, stripped)
        if _reads_everything(shared):
            return shared
    return summary_of(model, expr, scope, stripped, bound)


def _reads_everything(summary: FunctionSummary) -> bool:
    """No place the analysis stopped in the summary, every reached shard_map's specs, mesh and axes read, and no
    body a parameter of the function applying it (`ReachedFacts.body_parameter`)."""
    if summary.unresolved:
        return False
    for r in summary.reached:
        sm = r.shard_map
        if sm.unread or sm.body.unread_axes or sm.in_specs.lost or sm.out_specs.lost:
            return False
        if sm.in_specs.unresolved or sm.out_specs.unresolved:
            return False
        if sm.mesh is None or sm.axis_names_unknown:
            return False
        if r.body_parameter:  # (what the body closes over is the call's argument: leftovers7 l01)
            return False
    return True


def _call_key(bound: BoundScope | None) -> tuple | None:
    """What a summary computed with `bound` depends on besides its callable: each argument's expression and
    the scope it is evaluated in. Each itself, not its id: the expression belongs to the caller's tree, which
    may be dropped (a language server's edit) while this module's model keeps the summary, and the scope may be
    a `BoundScope` made for one walk (`reach.Reacher._local_bound`); a dropped object's id may be given to a new
    one, whose summary would then be this one. (Scopes compare and hash by identity.) A `BoundScope` nested in
    another's (a decorator another module's factory returns, under the factory's call: `reach._follow_decorator`)
    adds the outer one's."""
    if bound is None:
        return None
    key: list[tuple] = []
    scope: Scope | None = bound
    while scope is not None:
        if type(scope) is BoundScope:
            key.append(tuple((name, expr, where) for name, (_, expr, where) in sorted(scope.arguments.items())))
        scope = scope.parent
    return key[0] if len(key) == 1 else tuple(key)


def _plain_captures_of(
    model: ModuleModel, target: ast.AST, scope: Scope, names: tuple[str, ...], spmd: bool = False,
    batched: frozenset[str] | None = None,
) -> dict[Span, tuple[Capture, ...]]:
    """The batched captures of the shard_maps that calling `target` of the module `model` reaches, as if every
    parameter of `target` were batched (a summary does not read them: its sites have no vmapped function), by
    shard_map span: right when a plain vmap of another module vmaps `target` itself, mapping every argument
    (`_external_plain_captures` reports the others). Read as
    an spmd vmap's over the placed axes `names` whose batch is not known to be placed (no calls: an argument
    the vmap does not map is not one here). `spmd`: for an spmd vmap over the axes `names` (`Analyzer.facts`,
    with `_passes_batched` deciding whether the assumption holds). `batched`: only those parameters batched
    (`Analyzer._forwarded`: the others receive literals)."""
    out: dict[Span, tuple[Capture, ...]] = {}
    for span, facts in _reached_under(model, target, scope, names, batched, spmd).items():
        batched = _batched_captures(facts)
        if batched:
            out[span] = batched
    return out


def _mapped_method_parameters(model: ModuleModel, target: ast.AST, path: _Path, site: VmapSite) -> frozenset[str] | None:
    """The parameters of `target`, a method of a class of another module (`model`) that the spmd vmap `site`
    maps itself (an instance's `__call__`: `jax.vmap(layer, ...)` with `layer = Layer(2.0)`), that the vmap
    batches: every one but the receiver, when `in_axes` maps every argument. The receiver is the instance,
    which the vmap does not map: read as batched, a body closing over `self.scale` was an SPMD003 on a program
    that runs (one module read it right). None when the vmap does not map `target` itself, or `target` is no
    method taking its receiver first. The receiver is no argument of the vmap's calls either, so no call of the
    vmap commits it to a mesh (`_unmapped_capture_not_followed` does not name it)."""
    if path.nodes or path.vmaps or not _maps_every_argument(site.in_axes):
        return None
    if not isinstance(target, (ast.FunctionDef, ast.AsyncFunctionDef)) or not isinstance(model.ix.parent.get(id(target)), ast.ClassDef):
        return None
    if any(short(d) in ("staticmethod", "classmethod") for d in target.decorator_list):
        return None
    args = target.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    if not positional:
        return None
    rest = [*positional[1:], *(a.arg for a in args.kwonlyargs)]
    rest += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return frozenset(rest)


def _receiver(method: ast.AST) -> str | None:
    """The name of a method's first positional parameter (`self`), which `_mapped_method_parameters` leaves out."""
    args = method.args  # type: ignore[attr-defined]
    positional = [*args.posonlyargs, *args.args]
    return positional[0].arg if positional else None


def _reached_under(
    model: ModuleModel, target: ast.AST, scope: Scope, names: tuple[str, ...], batched: frozenset[str] | None,
    spmd: bool = True, keyed: dict[str, Keys] | None = None, placed_by: VmapCalls | None = None,
) -> dict[Span, ReachedFacts]:
    """The facts of the shard_maps that calling `target` of the module `model` reaches, read as an spmd vmap's
    (`spmd`; else a plain vmap's over a batch placed on those axes) over the axes `names` that batches exactly the
    parameters `batched` of `target` (`Analyzer._batched_parameters`: what the caller's call passes), or every
    parameter (None), by shard_map span: their batched captures (SPMD003) and the collectives whose operands stay
    unbatched (SPMD004) are those the call meets; `keyed`: of those, the ones the vmap maps only in part through
    an `in_axes` dict, with the keys it maps (`batched.BatchedValues.keyed`); `placed_by`: the spmd vmap's calls,
    read only for whether they place the batch on the spmd axes of a shard_map's mesh (`reached.ReachedAnalysis.facts`:
    a capture staged on an Explicit mesh then fails as unstaged, as in one module; fuzz/project.py seed 590048).
    Computed once per callable, axes, parameters, kind and placement (`ModuleModel.reached_under`)."""
    # (of the calls, what `capture.batch_placed_on` reads)
    placement = (placed_by.exact, tuple((c.batch_axes, c.batch_mesh) for c in placed_by.calls)) if placed_by is not None else None
    key = (id(target), tuple(names), batched, spmd, tuple(sorted(keyed.items())) if keyed else None, placement)
    memo = model.reached_under
    if key in memo:
        return memo[key]
    memo[key] = {}  # (in progress: a cycle through other modules sees none)
    analyzer = Analyzer(model)
    analyzer.reached.batched.only = batched
    analyzer.reached.batched.keyed = keyed if keyed else None
    reach = analyzer.reacher.reach(target, scope)
    site = VmapSite(target, scope, target, target)
    traced = frozenset(id(f) for f in reach.functions)
    out = {}
    for r in reach.sites:
        facts = analyzer.reached.facts(
            r, site, set(names), spmd=spmd, traced=traced, root=None, calls_elsewhere=True, placed_by=placed_by
        )
        out[facts.shard_map.span] = facts
    memo[key] = out
    return out


def _judged_captures(summary: tuple[UnreadValue, ...], known: tuple[UnreadValue, ...]) -> tuple[UnreadValue, ...]:
    """A summary's SPMD910 records of a shard_map's body, with those of its inputs (`UnreadKind.CAPTURE_INPUT`:
    whether the vmap batches what it closes over, which the summary cannot read) replaced by the reading with
    what the call batches (`known`); every other record stays (a body the summary does not resolve, ...)."""
    kept = [u for u in summary if u.kind is not UnreadKind.CAPTURE_INPUT]
    places = {u.span for u in kept}
    return tuple(kept + [u for u in known if u.span not in places])


def _batched_captures(facts: ReachedFacts) -> tuple[Capture, ...]:
    """The captures of batched values among a reached shard_map's."""
    return tuple(c for c in facts.captures if c.kind is CaptureKind.BATCHED)


def _capture_not_followed(capture: Capture, where: str) -> str:
    """The words of an SPMD910 record for a capture of a parameter of another module's function that an spmd
    vmap reaches through calls spmdfix does not read as passing batched values (`Analyzer._passes_batched`)."""
    return (
        f"`{capture.name}`, which the shard_map body in {where} closes over: whether the vmap with "
        "`spmd_axis_name` batches it is not followed through the calls on the way (JAX fails on a batched "
        "capture there: SPMD003)"
    )


def _unmapped_capture_not_followed(capture: Capture, where: str) -> str:
    """The words of an SPMD910 record for a capture, in another module's shard_map on a mesh not known to be
    all Auto, of a value from an argument the spmd vmap's call does not batch (`Analyzer._batched_parameters`):
    JAX refuses it when a call of the vmap commits that argument to an Explicit mesh, which is read only in
    the vmap's module (`CaptureAnalysis._unmapped_uses`)."""
    return (
        f"`{capture.name}`, which the shard_map body in {where} closes over, comes from an argument the vmap with "
        "`spmd_axis_name` does not batch: whether a call of the vmap commits it to the mesh is not followed into "
        "that module (JAX fails on such a capture on an Explicit mesh: SPMD003)"
    )


def _positional(func: ast.AST) -> list[str]:
    """The names of a `def`'s positional parameters."""
    return [a.arg for a in (*func.args.posonlyargs, *func.args.args)]  # type: ignore[attr-defined]


def _literal(expr: ast.AST) -> bool:
    """A constant, or a tuple display of them (`'x'`, `('x', 'y')`, `None`): a Python value no vmap batches
    or places."""
    if isinstance(expr, ast.Tuple):
        return all(_literal(e) for e in expr.elts)
    return isinstance(expr, ast.Constant)


def _maps_every_argument(in_axes: ast.AST | None) -> bool:
    """A vmap's `in_axes` maps every positional argument: absent, an int, or a tuple/list display of ints."""
    if in_axes is None:
        return True
    elems = in_axes.elts if isinstance(in_axes, (ast.Tuple, ast.List)) else [in_axes]
    return all(isinstance(e, ast.Constant) and type(e.value) is int for e in elems)


def _external_plain_captures(
    reached: ReachedFacts, direct: bool, where: str
) -> tuple[tuple[Capture, ...], list[tuple[Span, str]]]:
    """The captures a plain vmap over a placed batch keeps of a shard_map in another module (a summary's,
    computed as for an spmd vmap batching every parameter of the callable it reaches there), and the SPMD910
    records of those it cannot judge.

    An array placed with `jax.device_put` is kept (refused whatever batches it). A batched capture is kept when
    the summary's assumption holds: the vmapped callable is the other module's function itself (`direct`: no
    step of this module on the way, no inner vmap) and the vmap maps every argument; its `params` then index
    the vmapped function's parameters as the rule reads them. Any other batched capture there (reached through
    this module's functions, or with an `in_axes` spmdfix does not read as mapping every argument) is an
    SPMD910 record: whether the plain vmap batches it is not followed into the other module. A capture the
    summary marks staged off the spmd axes (`off_spmd`) is the spmd vmap's concern and left out."""
    kept: list[Capture] = []
    lost: list[tuple[Span, str]] = []
    for capture in reached.captures:
        if capture.kind is CaptureKind.PLACED:
            kept.append(capture)
        elif capture.kind is not CaptureKind.BATCHED or capture.off_spmd or capture.committed:
            continue
        elif direct:
            kept.append(capture)
        else:
            lost.append((capture.use, (
                f"`{capture.name}`, which the shard_map body in {where} closes over under a `jax.vmap` without "
                "`spmd_axis_name` over a batch placed on Explicit axes: whether the vmap batches it is not "
                "followed through the calls on the way (JAX fails on a batched capture there: SPMD003)"
            )))
    return tuple(kept), lost


def _unique(reached: list[ReachedFacts]) -> list[ReachedFacts]:
    """Each shard_map once (the first way to it): two imported helpers may lead to the same one. A shard_map of
    another module reached through calls that bind its function's parameters to other values
    (`reach.External.bound`: `block(x, 'model')` and `block(x, 'data')`) is kept once per way its specs and
    mesh read: each is what JAX traces for one of the calls."""
    seen: set[tuple] = set()
    out = []
    for r in reached:
        key = (r.shard_map.site, _read_as(r))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _read_as(r: ReachedFacts) -> tuple:
    """What a reached shard_map's arguments were read as (`_unique`): its specs, its mesh (axis names, types
    and sizes), `axis_names`, `check_vma`, the body's collective axes, what could not be read, and the captures
    of its body that fail under the vmap (a jit on one way to it may exempt them: `_prefixed`). Each may be
    read through a parameter bound by the call reaching it (`def block(x, ax)` with `axis_names={ax}`,
    `check_vma=cv`, `mesh=mesh`), and each can make a finding of its own, or an SPMD910 record (`unread_captures`):
    two readings that differ in any of them are both kept (a reading dropped here is a finding lost, whichever call comes first)."""
    sm = r.shard_map
    specs = tuple(
        tuple(tuple(e.value.names) if e.value is not None else e.known for e in spec.entries)
        for tree in (sm.in_specs, sm.out_specs) for spec in tree.specs
    )
    unread_specs = tuple(len(tree.unresolved) + len(tree.lost) for tree in (sm.in_specs, sm.out_specs))
    mesh = (sm.mesh.axis_names, sm.mesh.axis_types, sm.mesh.types, sm.mesh.sizes) if sm.mesh is not None else None
    axis_names = tuple(sorted(sm.axis_names.names)) if sm.axis_names is not None else None
    body = (tuple(sorted(sm.body.collective_axes)), sm.body.collectives_unknown)
    unread = tuple((u.kind, u.span) for u in sm.unread)
    # (the same shard_map reached by a way through a jit and one without: the captures of the second fail)
    captures = tuple((c.name, c.kind, c.use) for c in r.captures)
    # (and the captures not read: a decorator applying shard_map to a module-level def and to a def closing over a
    # batched value is one shard_map read twice, the second with its record; leftovers7)
    records = tuple((u.kind, u.span) for u in r.unread_captures)
    return specs, unread_specs, mesh, axis_names, sm.axis_names_unknown, sm.check_vma, body, unread, captures, records


def _live(reached: list[ReachedFacts]) -> tuple[list[ReachedFacts], list[tuple[Span, str]]]:
    """The reached shard_maps whose way Python may take, and the SPMD910 records of the others
    (`ReachedFacts.dead`: a branch never taken, `analysis.dead_branches`)."""
    return [r for r in reached if r.dead is None], [r.dead for r in reached if r.dead is not None]


def _spec_lost(reached) -> list[tuple[Span, str]]:
    """The unreadable specs and `P(...)` entries of the reached shard_maps, with why (issue 22)."""
    return [lost for r in reached for tree in (r.shard_map.in_specs, r.shard_map.out_specs) for lost in tree.lost]


def _with_unread(facts: VmapFacts) -> VmapFacts:
    """`facts` with the unread mesh, `axis_names`, `check_vma` and collective axes of its reached shard_maps
    that could change a finding (`unread_matters`) added to the places its analysis stopped."""
    extra = unread_matters.records(facts)
    return replace(facts, unresolved=tuple(_unique_places([*facts.unresolved, *extra]))) if extra else facts


def _unique_places(places: list[tuple[Span, str]]) -> list[tuple[Span, str]]:
    """The first (span, what) of each place (a place reached on several paths is one place)."""
    seen: dict[Span, str] = {}
    for span, what in places:
        seen.setdefault(span, what)
    return sorted(seen.items())


def _partial_sharding(partial: ast.Call) -> ast.expr | None:
    """The sharding a `functools.partial(with_sharding_constraint, ...)` binds: its third positional argument
    or its `shardings=` keyword; None when it binds none (the call of the partial passes it)."""
    if len(partial.args) > 2:
        return partial.args[2]
    return next((k.value for k in partial.keywords if k.arg == "shardings"), None)
