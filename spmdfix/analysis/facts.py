"""The linter: vmap sites -> reached shard_maps -> collisions, as plain facts for the planner.

Source text in, facts out; no I/O. For every `jax.vmap` with a resolvable `spmd_axis_name` (call form,
`partial(jax.vmap, spmd_axis_name=...)` as decorator or value, positional 6th argument), it follows the
vmapped callable (`spmdfix.analysis.reach`) to every shard_map it applies and records, with spans:

- the spmd_axis_name argument and its axes;
- each reached shard_map's in_specs/out_specs entries, mesh (resolved to its construction or not),
  `axis_names`, `check_vma`/`check_rep`, and what its body does (elementwise or not, the axes of its
  collectives, an inner `jax.vmap`);
- the axes of `with_sharding_constraint` specs on the way.

JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs` (resp. `out_specs`) when any spmd axis
appears in any in_specs (out_specs) entry of a reached shard_map, batched argument or not
(docs/jax-behaviour.md, "When JAX raises"). The planner (`spmdfix.plan`) turns facts into
findings and fixes.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from spmdfix import jaxapi
from spmdfix.analysis.callers import OtherCallers
from spmdfix.analysis.calls import argument
from spmdfix.analysis.mesh_uses import MeshUses
from spmdfix.analysis.uses import Use, UseIndex, short
from spmdfix.analysis.vmap_calls import VmapCallAnalysis, VmapCalls
from spmdfix.analysis.capture import Capture, CaptureAnalysis, LiftSite
from spmdfix.analysis.ranks import RankAnalysis
from spmdfix.analysis.values import AxisNames, Evaluator, MeshInfo, Spec, SpecEntry, SpecTree
from spmdfix.model import Related, Span
from spmdfix.analysis.placement import Placement, PlacementAnalysis
from spmdfix.analysis.primitives import UnaryCheck
from spmdfix.analysis.reach import Reacher, ReachedSite, ShardMapSite
from spmdfix.analysis.scopes import Binding, ModuleIndex, Scope
from spmdfix.analysis.stripbody import SpecUses, StripBodyCheck
from spmdfix.paths import relpath

if TYPE_CHECKING:
    from spmdfix.analysis.index import ProjectLink

# The last component of each qualified vmap name: an attribute callee with another name is no vmap.
_VMAP_LAST_NAMES = frozenset(name.rsplit(".", 1)[-1] for name in jaxapi.VMAP_SIGNATURES)


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class AxisNamesArg:
    """A shard_map `axis_names=` argument: the names, and the set/tuple/list display to extend (or None)."""

    names: frozenset[str]
    display: Span | None
    quote: str
    written: Span | None = None  # where the names are written (smap's `axis_name=` value), for findings


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class CollectiveUse:
    """A collective or axis query in a shard_map body (or a function it calls), with its axis argument."""

    name: str
    axes: AxisNames
    call: Span
    line: int = 0  # 1-based line of the call, for reasons that name it


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class NestedShardMap:
    """A shard_map applied inside another shard_map's body: where it is built and its specs."""

    span: Span
    in_specs: SpecTree
    out_specs: SpecTree


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class BodyFacts:
    """What a shard_map body does, as far as the rules and the transforms' safety need to know."""

    resolved: bool
    reason: str
    collectives: tuple[CollectiveUse, ...]
    collectives_unknown: bool
    inner_vmaps: tuple[Span, ...]
    # shard_maps the body applies (a nested shard_map): measured on jax 0.10.2, under an spmd vmap neither
    # rename, add-axis nor strip runs (DuplicateSpecError eager, a verifier error under jit); dropping
    # spmd_axis_name does.
    nested_shard_maps: tuple[NestedShardMap, ...] = ()
    unary_only: bool = False  # only unary primitives: no hazard H2 under an inner vmap (analysis.primitives)
    # every inner vmap of the body is written in it as `jax.vmap(<lambda of unary steps>)`: binary steps
    # outside those vmaps do not bring H2 back (measured: safety/measurements/spmd007_binary_beside_inner_vmap.py)
    inner_unary: bool = False

    @property
    def collective_axes(self) -> frozenset[str]:
        return frozenset(a for c in self.collectives for a in c.axes.names)

    @property
    def inner_vmap(self) -> bool:
        return bool(self.inner_vmaps)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ConstraintUse:
    """A with_sharding_constraint call on the way from a vmap, with its spec(s)."""

    call: Span
    specs: SpecTree
    shared: tuple[str, ...] = ()  # uses elsewhere of the spec values it is written in (`...` (line n))


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ShardMapFacts:
    """One shard_map construction and everything known about it."""

    key: str
    span: Span
    # "new" (jax.shard_map: check_vma), "old" (jax.experimental.shard_map: check_rep) or "smap" (jax.smap:
    # specs read from in_axes/out_axes, `axis_names` its one axis, always check_vma=True)
    api: str
    check_span: Span | None  # the check_vma= / check_rep= value as written, when given
    in_specs: SpecTree
    out_specs: SpecTree
    mesh: MeshInfo | None
    axis_names: AxisNamesArg | None
    axis_names_unknown: bool
    check_vma: bool | None
    body: BodyFacts


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ReachedFacts:
    """A shard_map as reached from one vmap site."""

    shard_map: ShardMapFacts
    chain: tuple[Related, ...]
    vmaps: tuple[Span, ...]  # jax.vmap calls/decorators between the spmd vmap and the shard_map
    captures: tuple[Capture, ...] = ()  # batched values the body closes over (SPMD003)
    lift: LiftSite | str | None = None  # where lift-captures edits, or why it cannot
    # Why stripping the spmd axes from this shard_map's specs would change the body's values ("" when it
    # keeps them; spmdfix.analysis.stripbody).
    strip_blocker: str = ""
    # Body collectives (their call spans) whose operand is made only of operands the spmd vmap does not
    # batch: they run correctly under the vmap (measured), so they are no SPMD004.
    unbatched_collectives: frozenset[Span] = frozenset()
    # Places that run this shard_map without going through the spmd vmap (`...` (line n), or a note for
    # callers not searched): a fix that edits the shard_map changes them too (analysis.callers).
    other_callers: tuple[str, ...] = ()
    # A jax.jit lies between the vmap and the shard_map (analysis.reach.ReachedSite.jitted): the shard_map
    # is traced under jit whatever the vmap's callers do.
    under_jit: bool = False
    # The first `jax.vmap` on the way, when it is applied in the vmapped function itself and maps along axis
    # 0 parameters of that function passed on as they are: their positions (the per-example dimension 0 it
    # maps is dimension 1 of the vmap's input), and its span [SPMD006, an inner vmap mapping away a placed axis].
    inner_mapped: tuple[int, ...] = ()
    inner_vmap: Span | None = None


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class VmapFacts:
    """One vmap site with a resolved spmd_axis_name and the shard_maps it reaches."""

    key: str
    span: Span
    spmd: AxisNames
    reached: tuple[ReachedFacts, ...]
    constraints: tuple[ConstraintUse, ...]
    constraints_unknown: bool
    # "spmd": spmd_axis_name given; "explicit": a plain vmap whose batch dim is placed on Explicit mesh
    # axes (`spmd` then holds those axes, as written in the placement's spec) [SPMD006].
    kind: str = "spmd"
    opaque_calls: tuple[Span, ...] = ()  # calls on the way that spmdfix cannot follow
    # (span, what) of each place into code of the project the analysis lost on the way (an unresolved
    # import of the project, `getattr`, an unknown callable), one per place: reported as SPMD910 on request.
    unresolved: tuple[tuple[Span, str], ...] = ()
    # The call that passes `spmd_axis_name=` as a keyword (the vmap call, or the `partial(jax.vmap, ...)`),
    # None when it is positional or comes from a `**kwargs` dict.
    spmd_keyword_call: Span | None = None
    calls: VmapCalls | None = None  # the calls of the vmapped function (batch sizes, jit), for rename/add-axis
    # The module sets `jax_disable_vmap_shmap_error`: JAX skips its spmd_axis_name-in-specs check and fails
    # later with another error (measured; docs/rules.md, SPMD001).
    shmap_error_disabled: bool = False
    placement: Placement | None = None  # kind "explicit": how the vmapped input is placed

    @property
    def constraint_axes(self) -> frozenset[str]:
        return frozenset(a for c in self.constraints for a in c.specs.axes())


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class FunctionSummary:
    """What calling one function (or callable value) of a module reaches, as plain data.

    reached: the shard_maps it applies (chains start inside its module); constraints: the
    `with_sharding_constraint`s on the way, and whether any of their specs is unknown; opaque: calls it cannot
    follow (parameters, methods); unresolved: (span, what) of each place into code of the project it lost
    (`reach.ReachResult.unresolved`: an unresolved import of the project, `getattr`, an unknown callable);
    depends: (path, digest) of every module the summary was computed from (its own included).
    """

    reached: tuple[ReachedFacts, ...] = ()
    constraints: tuple[ConstraintUse, ...] = ()
    constraints_unknown: bool = False
    opaque: tuple[Span, ...] = ()
    unresolved: tuple[tuple[Span, str], ...] = ()
    depends: tuple[tuple[str, str], ...] = ()


# Not frozen: built and read in this module only (a frozen `__init__` sets each field through
# `object.__setattr__`); eq=False, repr=False as above.
@dataclass(slots=True, eq=False, repr=False)
class _VmapSite:
    node: ast.AST
    scope: Scope
    fun: ast.AST | None
    spmd_expr: ast.AST
    in_axes: ast.AST | None = None


class Analyzer:
    """Runs the analysis over one module. Input: source `str` and its `ast.Module`; never raises on them.

    With a project index (`project`, see `spmdfix.analysis.index`), names imported from other modules of
    the project are followed; `path` and `package` then say where this module is (`ModuleIndex`).
    """

    def __init__(
        self,
        source: str,
        tree: ast.Module,
        path: str = "",
        package: str | None = None,
        project: ProjectLink | None = None,
    ) -> None:
        self.ix = ModuleIndex(source, tree, path, package)
        self.project = project
        self.ev = Evaluator(self.ix, project)
        self.reacher = Reacher(self.ix, project)
        self.capture = CaptureAnalysis(self.ix)
        self.placement = PlacementAnalysis(self.ix, self.ev)
        self.strip_body = StripBodyCheck(self.ix, self.ev)
        self.uses = UseIndex(self.ix)  # one index of name loads, shared by the allowlists
        self.spec_uses = SpecUses(self.ix, self.uses)
        self.mesh_uses = MeshUses(self.ix, self.ev, self.uses)
        self.vmap_calls = VmapCallAnalysis(self.ix, self.ev, self.uses)
        self.ranks = RankAnalysis(self.ix, self.capture, self.vmap_calls)
        self.callers = OtherCallers(self.ix, self.uses)
        self._facts_cache: dict[int, ShardMapFacts] = {}
        self._disabled: bool | None = None  # `_shmap_error_disabled`
        self._foreign_mesh_uses: dict[int, MeshUses] = {}
        self._summaries: dict[tuple[int, frozenset[str]], FunctionSummary | None] = {}
        # (vmap, its spmd_axis_name expression, what) of each vmap site whose spmd_axis_name `facts` could
        # not resolve to axis names (and that is not None): its analysis stopped at its start.
        self.unknown_spmd: list[tuple[Span, Span, str]] = []

    def span(self, node: ast.AST) -> Span:
        return self.ix.lines.span_of_ast(node)

    def _key(self, kind: str, node: ast.AST) -> str:
        """A fact's key: its kind and offset, and the module's path when it is another module's."""
        span = self.span(node)
        return f"{kind}@{span.start}" + (f"@{span.path}" if span.path else "")

    # --- summaries, for the project index ------------------------------------------------------------
    def callable_target(self, binding: Binding) -> tuple[ast.AST, Scope] | None:
        """What calling the top-level `binding` runs: a function, a class's `__call__`, a callable value
        (with the scope it is evaluated in); None for anything else."""
        if binding.kind == "def":
            return binding.node, binding.scope
        if binding.kind == "class":
            for stmt in binding.node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "__call__":
                    return stmt, binding.scope
            return None
        if binding.kind == "assign":
            return binding.node, binding.scope
        return None

    def summary(self, expr: ast.AST, scope: Scope, stripped: frozenset[str] = frozenset()) -> FunctionSummary:
        """What calling the callable `expr` of this module reaches (`FunctionSummary`), for a vmap whose spmd
        axes are `stripped` (strip's safety depends on them). Computed once per axes; a cycle through other
        modules sees an empty summary."""
        key = (id(expr), stripped)
        if key in self._summaries:
            return self._summaries[key] or FunctionSummary()
        self._summaries[key] = None  # in progress
        summary = self._summary(expr, scope, stripped)
        self._summaries[key] = summary
        return summary

    def _summary(self, expr: ast.AST, scope: Scope, stripped: frozenset[str]) -> FunctionSummary:
        reach = self.reacher.reach(expr, scope)
        site = _VmapSite(expr, scope, None, expr)
        traced = frozenset(id(f) for f in reach.functions)
        reached = [self._reached_facts(r, site, set(stripped), traced=traced, root=None) for r in reach.sites]
        constraints, unknown = self._constraints(reach.functions)
        opaque = [self.span(c) for c in reach.opaque]
        unresolved = [(self.span(n), what) for n, what in reach.unresolved]
        depends = {(self.ix.path, self.project.digest() if self.project is not None else "")}
        for path, owner, target, target_scope in reach.external:
            summary = owner.summary(target, target_scope, stripped)
            reached += self._prefixed(summary, path, owner, target)
            constraints += summary.constraints
            unknown = unknown or summary.constraints_unknown
            opaque += summary.opaque
            unresolved += summary.unresolved
            depends.update(summary.depends)
        return FunctionSummary(
            tuple(reached), tuple(constraints), unknown, tuple(opaque), tuple(unresolved), tuple(sorted(depends))
        )

    def _prefixed(self, summary: FunctionSummary, path, owner: Analyzer, target: ast.AST) -> list[ReachedFacts]:
        """Another module's reached shard_maps, as reached from here: this module's steps come first. Their
        callers in modules other than this one and the owner are not searched (`analysis.callers`): each
        says so among its other callers."""
        vmaps = tuple(self._vmap_span(n) for n in path.vmaps)
        name = getattr(target, "name", None) or ast.unparse(target)[:40]
        note = f"other modules that may import `{name}` of {relpath(owner.ix.path)} (not searched)"
        return [
            replace(
                r, chain=path.chain + r.chain, vmaps=vmaps + r.vmaps, other_callers=(*r.other_callers, note),
                under_jit=r.under_jit or path.jitted,
            )
            for r in summary.reached
        ]

    # --- vmap sites ---------------------------------------------------------------------------------
    def vmap_sites(self) -> list[_VmapSite]:
        """Every vmap application or decoration that passes an spmd_axis_name, in source order."""
        sites: list[_VmapSite] = []
        ix = self.ix
        for call in ix.calls:
            func = call.func
            kind = func.__class__
            if kind is ast.Attribute and func.attr not in _VMAP_LAST_NAMES:  # type: ignore[attr-defined]
                # `x.attr(...)` resolves to a name ending in `.attr`, no vmap's; and `_vmap_factory` of an
                # attribute is None. Most calls of a module are such method calls: no name resolution for them.
                continue
            scope = ix.scope_at(call)
            if kind is ast.Name:
                # A callee bound once to anything but a value or a parameter (a def, a class, a loop target,
                # no binding: most plain-name calls) has no factory to follow: its qualified name, when it
                # has one, is its import's (what `qualname` and `_vmap_factory` would find, one look-up).
                binding = ix.single_binding(func.id, scope)  # type: ignore[attr-defined]
                if binding is None:
                    continue
                if binding.kind != "assign" and binding.kind != "param":
                    if binding.kind != "import" or binding.qname not in jaxapi.VMAP_SIGNATURES:
                        continue
            signature = jaxapi.VMAP_SIGNATURES.get(ix.qualname(func, scope) or "")
            if signature is not None:
                fun_name, fun_position, spmd_position = signature
                spmd = argument(call, spmd_position, jaxapi.VMAP_SPMD_KEYWORD)
                if spmd is None:
                    spmd = self._from_kwargs(call, scope, jaxapi.VMAP_SPMD_KEYWORD)
                if spmd is not None:
                    fun = argument(call, fun_position, fun_name)
                    sites.append(_VmapSite(call, scope, fun, spmd, argument(call, 1, "in_axes")))
                continue
            spmd = self._vmap_factory(call.func, scope)
            if spmd is not None and call.args:
                sites.append(_VmapSite(call, scope, call.args[0], spmd))
        for node, scope in self.ix.scope_by_node.items():
            func = scope.node
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            outer = self.ix.scope_at(func)
            for deco in func.decorator_list:
                spmd = self._vmap_factory(deco, outer)
                if spmd is not None:
                    sites.append(_VmapSite(deco, outer, func, spmd))
        sites.sort(key=lambda s: (s.node.lineno, s.node.col_offset))
        return sites

    def _from_kwargs(self, call: ast.Call, scope: Scope, keyword: str) -> ast.AST | None:
        """The value of `keyword` in a `**kw` argument bound to a dict display or `dict(...)` call."""
        for kw in call.keywords:
            if kw.arg is not None:
                continue
            resolved = self.ev.resolve_name(kw.value, scope)
            if resolved is None:
                continue
            value = resolved[0]
            if isinstance(value, ast.Dict):
                for key, item in zip(value.keys, value.values):
                    if isinstance(key, ast.Constant) and key.value == keyword:
                        return item
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
                for item in value.keywords:
                    if item.arg == keyword:
                        return item.value
        return None

    def _vmap_factory(self, expr: ast.AST, scope: Scope, depth: int = 0) -> ast.AST | None:
        """The spmd_axis_name expression of `partial(jax.vmap, spmd_axis_name=...)` (or a name bound to it)."""
        if depth > 8:
            return None
        if isinstance(expr, ast.Name):
            binding = self.ix.single_binding(expr.id, scope)
            if binding is not None and binding.kind == "assign":
                return self._vmap_factory(binding.node, binding.scope, depth + 1)
            if binding is not None and binding.kind == "param":
                passed = self.ix.argument_for(binding)  # `def run(fn, vec)` called with a partial(jax.vmap)
                if passed is not None:
                    return self._vmap_factory(passed[0], passed[1], depth + 1)
            return None
        if not (isinstance(expr, ast.Call) and expr.args):
            return None
        if self.ix.qualname(expr.func, scope) not in jaxapi.PARTIAL_NAMES:
            return None
        if not self.reacher.is_vmap(expr.args[0], scope):
            return None
        for kw in expr.keywords:
            if kw.arg == jaxapi.VMAP_SPMD_KEYWORD:
                return kw.value
        return None

    # --- facts --------------------------------------------------------------------------------------
    def facts(self) -> list[VmapFacts]:
        """Facts for every vmap site whose spmd_axis_name resolves to axis names."""
        out = []
        self.unknown_spmd = []
        for site in self.vmap_sites():
            spmd = self.ev.axis_names(site.spmd_expr, site.scope)
            if spmd is None and site.fun is not None and not self.ev.is_none(site.spmd_expr, site.scope):
                what = f"the value of `spmd_axis_name` (`{short(site.spmd_expr)}`) is not known"
                self.unknown_spmd.append((self.span(site.node), self.span(site.spmd_expr), what))
            if spmd is None or not spmd.axes or site.fun is None:
                continue
            fun_scope = site.scope
            reach = self.reacher.reach(site.fun, fun_scope)
            traced = frozenset(id(f) for f in reach.functions)
            calls = self.vmap_calls.calls(site.node, site.fun, site.in_axes)
            reached = [
                self._reached_facts(r, site, set(spmd.names), traced=traced, calls=calls) for r in reach.sites
            ]
            constraints, unknown = self._constraints(reach.functions)
            opaque = [self.span(c) for c in reach.opaque]
            unresolved = [(self.span(n), what) for n, what in reach.unresolved]
            for path, owner, target, target_scope in reach.external:
                summary = owner.summary(target, target_scope, frozenset(spmd.names))
                if self.project is not None:
                    self.project.index.touch(p for p, _ in summary.depends)
                reached += self._prefixed(summary, path, owner, target)
                constraints += summary.constraints
                unknown = unknown or summary.constraints_unknown
                opaque += summary.opaque
                unresolved += summary.unresolved
            out.append(
                VmapFacts(
                    key=self._key("vmap", site.node),
                    span=self.span(site.node),
                    spmd=spmd,
                    reached=tuple(_unique(reached)),
                    constraints=tuple(constraints),
                    constraints_unknown=unknown,
                    opaque_calls=tuple(opaque),
                    unresolved=tuple(_unique_places(unresolved)),
                    spmd_keyword_call=self._keyword_call(site),
                    calls=calls,
                    shmap_error_disabled=self._shmap_error_disabled(),
                )
            )
        for plain in self.placement.plain_vmaps():
            site = _VmapSite(plain.vmap, self.ix.scope_at(plain.vmap), plain.fun, plain.vmap)
            reach = self.reacher.reach(plain.fun, site.scope)
            traced = frozenset(id(f) for f in reach.functions)
            reached = [
                self._reached_facts(r, site, set(plain.axes.names), spmd=False, traced=traced) for r in reach.sites
            ]
            # Shard_maps in other modules of the project, as for an spmd vmap (their callers there are not
            # searched: `_prefixed` says so). The summary's capture facts are an spmd vmap's (SPMD003/004
            # concern spmd axes): a plain vmap has none.
            for path, owner, target, target_scope in reach.external:
                summary = owner.summary(target, target_scope, frozenset(plain.axes.names))
                if self.project is not None:
                    self.project.index.touch(p for p, _ in summary.depends)
                reached += [replace(r, captures=(), lift=None) for r in self._prefixed(summary, path, owner, target)]
            reached = tuple(_unique(reached))
            out.append(
                VmapFacts(
                    key=self._key("vmap", plain.vmap),
                    span=self.span(plain.vmap),
                    spmd=plain.axes,
                    reached=reached,
                    constraints=(),
                    constraints_unknown=False,
                    kind="explicit",
                    placement=plain.placement,
                    calls=self.vmap_calls.calls(plain.vmap, plain.fun, argument(plain.vmap, 1, "in_axes")),
                )
            )
        return out

    def _shmap_error_disabled(self) -> bool:
        """`jax.config.update('jax_disable_vmap_shmap_error', True)` appears in the module (asked once per
        site; computed once per module)."""
        if self._disabled is None:
            # (the count of arguments first: it rules out almost every call, without a method call for each)
            self._disabled = any(len(c.args) == 2 and self._disables_shmap_error(c) for c in self.ix.calls)
        return self._disabled

    def _disables_shmap_error(self, call: ast.Call) -> bool:
        """Whether `call` is `jax.config.update('jax_disable_vmap_shmap_error', True)` (the arguments are
        looked at before the callee's name is resolved: they rule out almost every call, and cheaply)."""
        if len(call.args) != 2:
            return False
        name, value = call.args
        if not (isinstance(name, ast.Constant) and name.value == jaxapi.DISABLE_VMAP_SHMAP_ERROR):
            return False
        if not (isinstance(value, ast.Constant) and value.value is True):
            return False
        return self.ix.qualname(call.func, self.ix.scope_at(call)) == "jax.config.update"

    def _keyword_call(self, site: _VmapSite) -> Span | None:
        """The call that passes the site's spmd_axis_name as the `spmd_axis_name=` keyword (the vmap call
        itself, or the `partial(jax.vmap, ...)` it comes from, maybe through a name), or None."""
        roots = [site.node]
        if isinstance(site.node, ast.Name):
            binding = self.ix.single_binding(site.node.id, site.scope)
            if binding is not None and binding.kind == "assign":
                roots.append(binding.node)
        for root in roots:
            for node in ast.walk(root):
                if isinstance(node, ast.Call) and any(
                    k.arg == jaxapi.VMAP_SPMD_KEYWORD and k.value is site.spmd_expr for k in node.keywords
                ):
                    return self.span(node)
        return None

    def _reached_facts(
        self,
        reached: ReachedSite,
        vmap: _VmapSite,
        stripped: set[str],
        spmd: bool = True,
        traced: frozenset[int] = frozenset(),
        root: ast.AST | None | bool = True,
        calls: VmapCalls | None = None,
    ) -> ReachedFacts:
        """The facts of one reached shard_map. traced: ids of the functions the vmapped callable traces;
        root: the node whose reads are the vmap itself (True: the vmap site's; None: none, the vmap is in
        another module), for the shard_map's other callers (`analysis.callers`); calls: the vmap's calls, from
        which the body operands' ranks are followed (`analysis.ranks`)."""
        sm = self._shard_map_facts(reached, vmap)
        body, wrappers = self._unwrap_body(reached.site.body, reached.site.body_scope)
        captures = self.capture.captures(vmap.fun, vmap.in_axes, reached, body)
        if spmd and sm.check_vma is not False and _all_replicated(sm):
            skip = {c.name for c in captures}
            arrays = self.capture.unbatched_arrays(reached.site.node, body, skip)
            if arrays:
                # an array only broadcast against operands of higher rank runs (measured: analysis.ranks)
                ranks = self.ranks.body_ranks(vmap.fun, reached, body, bool(wrappers), calls)
                arrays = tuple(c for c in arrays if not self.ranks.broadcast_only(body, c.name, ranks))
            captures += arrays
        lift = None
        if captures:
            names = tuple(c.name for c in captures)
            lift = self.capture.lift_site(reached.site.node, body, reached.site.args.get("in_specs"), wrappers, names)
        vmaps = tuple(self._vmap_span(n) for n in reached.vmaps)
        quiet = self._unbatched_collectives(vmap, reached, body)
        others = tuple(u.describe() for u in self._other_callers(reached, vmap, traced, root))
        mapped = self._inner_mapped(reached, vmap)
        return ReachedFacts(
            sm, reached.chain, vmaps, captures, lift, self._strip_blocker(reached, stripped), quiet, others,
            reached.jitted, mapped, self._vmap_span(reached.vmaps[0]) if mapped else None,
        )

    def _inner_mapped(self, reached: ReachedSite, vmap: _VmapSite) -> tuple[int, ...]:
        """Positions of the vmapped function's parameters that the first `jax.vmap` on the way maps along
        axis 0, when that vmap is applied in the vmapped function (`jax.vmap(g[, in_axes])(x, ...)`) to its
        parameters as they are (each a parameter name bound once); () otherwise."""
        if not reached.vmaps or vmap.fun is None:
            return ()
        inner = reached.vmaps[0]
        application = self.ix.parent.get(id(inner))
        if not (isinstance(inner, ast.Call) and isinstance(application, ast.Call) and application.func is inner):
            return ()
        if self.ix.qualname(inner.func, self.ix.scope_at(inner)) not in jaxapi.VMAP_NAMES:
            return ()
        fun = self.ix.function_of(vmap.fun)
        if not isinstance(fun, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return ()
        if self.ix.enclosing_function(application) is not fun:
            return ()
        if any(isinstance(a, ast.Starred) for a in application.args) or application.keywords:
            return ()
        params = [a.arg for a in [*fun.args.posonlyargs, *fun.args.args]]
        in_axes = argument(inner, 1, "in_axes")
        scope = self.ix.scope_at(application)
        out = []
        for j, arg in enumerate(application.args):
            axis = _literal_axis(in_axes, j)
            if axis != 0 or not isinstance(arg, ast.Name) or arg.id not in params:
                continue
            binding = self.ix.single_binding(arg.id, scope)
            if binding is not None and binding.kind == "param":
                out.append(params.index(arg.id))
        return tuple(out)

    def _other_callers(self, reached: ReachedSite, vmap: _VmapSite, traced: frozenset[int], root) -> list[Use]:
        """The places that run the reached shard_map without the vmap (`analysis.callers.OtherCallers`)."""
        if root is True:
            root = vmap.node
            if isinstance(vmap.fun, (ast.FunctionDef, ast.AsyncFunctionDef)) and vmap.node in vmap.fun.decorator_list:
                root = vmap.fun  # a vmap decorator: every call of the decorated name is the vmap
        site = reached.site
        return self.callers.outside(site.node, site.body, traced, root)

    def _unbatched_collectives(self, vmap: _VmapSite, reached: ReachedSite, body: ast.AST | None) -> frozenset[Span]:
        """Collectives written in the body itself whose operand names only unbatched body parameters."""
        if body is None or vmap.fun is None:
            return frozenset()
        unbatched = self.capture.unbatched_operands(vmap.fun, vmap.in_axes, reached, body)
        if not unbatched:
            return frozenset()
        quiet = set()
        for call in self.ix.calls_in(body):
            qname = self.ix.qualname(call.func, self.ix.scope_at(call))
            if qname not in jaxapi.COLLECTIVE_AXIS_POSITION or qname == "jax.lax.axis_index" or not call.args:
                continue
            names = [n for n in ast.walk(call.args[0]) if isinstance(n, ast.Name)]
            if names and all(n.id in unbatched for n in names):
                quiet.add(self.span(call))
        return frozenset(quiet)

    def _strip_blocker(self, reached: ReachedSite, stripped: set[str]) -> str:
        """Why stripping `stripped` from the reached shard_map's specs changes its values ("" if it does not)."""
        site = reached.site
        if site.api == "smap":
            return "`jax.smap` has no specs to strip: its specs come from `in_axes`/`out_axes` and `axis_name`"
        func, _ = self._unwrap_body(site.body, site.body_scope)
        if func is None:
            return "the shard_map body is not a function of this module"
        if self.reacher.reach_body(func).sites:
            return "the shard_map body applies another shard_map"
        args = site.args
        why = self.strip_body.check(func, args.get("in_specs"), args.get("out_specs"), site.scope, stripped)
        if why:
            return why
        roots = [a for a in (args.get("in_specs"), args.get("out_specs")) if a is not None]
        edited = [e.span for r in roots for e, _ in self.ev.spec_tree(r, site.scope).entries_naming(stripped)]
        shared = self.spec_uses.foreign_uses(roots, site.scope, edited)
        if shared:
            return f"the stripped spec is also used by {', '.join(shared)}: the strip would change that use too"
        return ""

    def _vmap_span(self, node: ast.AST) -> Span:
        """Where an inner vmap is written: the `jax.vmap` callee of a call, or a decorator."""
        if isinstance(node, ast.Call):
            return self.span(node.func)
        return self.span(node)

    def _shard_map_facts(self, reached: ReachedSite, vmap: _VmapSite) -> ShardMapFacts:
        site = reached.site
        cached = self._facts_cache.get(id(site.node))
        if cached is not None and site.args.get("mesh") is not None:
            return cached
        args = site.args
        mesh = self._mesh(site, reached, vmap)
        if site.api == "smap":
            in_specs, out_specs, axis_names, axis_names_unknown = self._smap_specs(site)
        else:
            axis_names, axis_names_unknown = self._axis_names(args.get("axis_names"), site.scope)
            in_specs = self.ev.spec_tree(args.get("in_specs"), site.scope)
            out_specs = self.ev.spec_tree(args.get("out_specs"), site.scope)
        facts = ShardMapFacts(
            key=self._key("shard_map", site.node),
            span=self.span(site.node),
            api=site.api,
            check_span=self._check_span(site),
            in_specs=in_specs,
            out_specs=out_specs,
            mesh=mesh,
            axis_names=axis_names,
            axis_names_unknown=axis_names_unknown,
            check_vma=self._check_vma(site),
            body=self._body_facts(site),
        )
        self._facts_cache[id(site.node)] = facts
        return facts

    def _mesh(self, site: ShardMapSite, reached: ReachedSite, vmap: _VmapSite) -> MeshInfo | None:
        """The shard_map's resolved mesh, with the uses of it that add-axis's allowlist does not cover."""
        found = self._mesh_expr(site, reached, vmap)
        if found is None:
            return None
        mesh = self.ev.mesh(*found)
        site = self.ev.mesh_site(*found)
        if mesh is None or site is None:
            return None
        owner, call, _ = site
        uses = self.mesh_uses if owner is self.ev else self._foreign_mesh_uses.setdefault(id(owner), MeshUses(owner.ix, owner))
        elsewhere: tuple[Use, ...] = ()
        if owner.ix.path:
            # A mesh of a module other than the one checked: its readers there count, and so would those
            # in the modules importing it, which the index does not look for.
            row = owner.ix.lines.row_col(mesh.span.start)[0]
            name = relpath(owner.ix.path)
            elsewhere = (Use(mesh.span, row, f"other modules that may import the mesh of {name}"),)
        reads = (*uses.mesh_reads(call), *elsewhere)
        return replace(mesh, reads=reads, device_reads=tuple(uses.device_reads(call)))

    def _mesh_expr(self, site: ShardMapSite, reached: ReachedSite, vmap: _VmapSite) -> tuple[ast.AST, Scope] | None:
        """The expression giving the shard_map its mesh: `mesh=`, or the `jax.set_mesh(m)` around it."""
        expr = site.args.get("mesh")
        if expr is not None:
            return expr, site.scope
        # No mesh=: the context mesh of a `with jax.set_mesh(m):` around the application.
        for node in (site.node, *reached.chain_nodes, vmap.node):
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
            where = (self.span(axis_expr if axis_expr is not None else site.node),)
            return SpecTree((), where), SpecTree((), where), None, True
        trees = []
        for name in ("in_axes", "out_axes"):
            expr = site.args.get(name)
            specs: list[Spec] = []
            unresolved: list[Span] = []
            if expr is None:
                unresolved.append(self.span(site.node))
            else:
                self._smap_axes_leaves(expr, site.scope, axis, specs, unresolved, None, 0)
            trees.append(SpecTree(tuple(specs), tuple(unresolved)))
        names = AxisNamesArg(frozenset(axis.names), None, axis.axes[0].text[:1] if axis.axes else "'", axis.span)
        return trees[0], trees[1], names, False

    def _smap_axes_leaves(
        self, expr: ast.AST, scope: Scope, axis: AxisNames, specs: list, unresolved: list, at: Span | None, depth: int
    ) -> None:
        """Collect one `Spec` per int leaf of an in_axes/out_axes value (`at`: the span to report a leaf
        of a value written elsewhere at, the name as written here)."""
        span = at or self.span(expr)
        followed = self.ev.follow(expr, scope) if depth < 8 else None
        if followed is None:
            unresolved.append(span)
            return
        _, value, inner = followed
        here = at if at is not None else (None if value is expr else span)
        if isinstance(value, ast.Constant) and value.value is None:
            return
        number = value.operand if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub) else value
        if isinstance(number, ast.Constant) and type(number.value) is int:  # `0`, `-1`: a mapped dimension
            leaf = here or self.span(value)
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
            self._smap_axes_leaves(elt, inner, axis, specs, unresolved, here, depth + 1)

    def _check_span(self, site: ShardMapSite) -> Span | None:
        expr = site.args.get("check_vma", site.args.get("check_rep"))
        return self.span(expr) if expr is not None else None

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
        module of the project), maybe inside set()/frozenset()."""
        if expr is None:
            return None, False
        display = expr
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("set", "frozenset"):
            if len(expr.args) != 1 or expr.keywords:
                return None, True
            display = expr.args[0]
        if not isinstance(display, (ast.Set, ast.Tuple, ast.List)):
            return None, True
        names, quote = [], "'"
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
        return AxisNamesArg(frozenset(names), self.span(display), quote), False

    def _body_function(self, expr: ast.AST | None, scope: Scope) -> ast.AST | None:
        """The function a shard_map maps (through names, partial, jit and vmap wrappers), or None."""
        return self._unwrap_body(expr, scope)[0]

    def _unwrap_body(self, expr: ast.AST | None, scope: Scope) -> tuple[ast.AST | None, list[tuple[str, ast.Call]]]:
        """(the mapped function, the wrapper calls met on the way to it, outermost first, each with its
        qualified name: `shard_map(jax.vmap(f))` gives `[("jax.vmap", <call>)]`)."""
        wrappers: list[tuple[str, ast.Call]] = []
        for _ in range(8):
            if expr is None or isinstance(expr, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return expr, wrappers
            if isinstance(expr, ast.Name):
                binding = self.ix.single_binding(expr.id, scope)
                if binding is None or binding.kind not in ("def", "assign"):
                    return None, wrappers
                expr, scope = binding.node, binding.scope
            elif isinstance(expr, ast.Call) and expr.args:
                qname = self.ix.qualname(expr.func, scope)
                known = (jaxapi.VMAP_NAMES, jaxapi.PARTIAL_NAMES, jaxapi.WRAPPER_NAMES)
                if not any(qname in names for names in known):
                    return None, wrappers
                wrappers.append((qname, expr))
                expr = expr.args[0]
            else:
                return None, wrappers
        return None, wrappers

    def _body_facts(self, site: ShardMapSite) -> BodyFacts:
        func, wrappers = self._unwrap_body(site.body, site.body_scope)
        vmap_wrappers = [self.span(call.func) for qname, call in wrappers if qname in jaxapi.VMAP_NAMES]
        if func is None:
            return BodyFacts(False, "the shard_map body is not a function of this module", (), True, ())
        reach = self.reacher.reach_body(func)
        collectives: list[CollectiveUse] = []
        unknown = bool(reach.sites)
        wrapped = bool(vmap_wrappers)
        inner_vmaps: list[Span] = vmap_wrappers
        in_body_vmaps: list[ast.Call] = []
        for fn in reach.functions:
            for call in self.ix.calls_in(fn):
                scope = self.ix.scope_at(call)
                qname = self.ix.qualname(call.func, scope)
                if qname in jaxapi.VMAP_NAMES:
                    inner_vmaps.append(self.span(call.func))
                    in_body_vmaps.append(call)
                if qname in jaxapi.COLLECTIVE_AXIS_POSITION and not _reduces_a_constant(call):
                    expr = argument(call, jaxapi.COLLECTIVE_AXIS_POSITION[qname], jaxapi.COLLECTIVE_AXIS_KEYWORD)
                    value = self.ev.axis_names(expr, scope) if expr is not None else None
                    if value is None:
                        unknown = True
                    else:
                        collectives.append(CollectiveUse(qname.rsplit(".", 1)[-1], value, self.span(call), call.lineno))
        nested = tuple(
            NestedShardMap(
                self.span(r.site.node),
                self.ev.spec_tree(r.site.args.get("in_specs"), r.site.scope),
                self.ev.spec_tree(r.site.args.get("out_specs"), r.site.scope),
            )
            for r in reach.sites
        )
        check = UnaryCheck(self.ix)
        own = not reach.sites and _only_its_lambdas(reach.functions, func)
        unary = own and check.unary_only(func)
        inner_unary = own and not wrapped and bool(in_body_vmaps) and all(
            check.vmap_of_unary(call, self.ix.scope_at(call)) for call in in_body_vmaps
        )
        return BodyFacts(True, "", tuple(collectives), unknown, tuple(inner_vmaps), nested, unary, inner_unary)

    def _constraints(self, functions: list[ast.AST]) -> tuple[list[ConstraintUse], bool]:
        """with_sharding_constraint calls in the traced functions and their specs."""
        uses: list[ConstraintUse] = []
        unknown = False
        for fn in functions:
            for call in self.ix.calls_in(fn):
                scope = self.ix.scope_at(call)
                if self.ix.qualname(call.func, scope) not in jaxapi.WITH_SHARDING_CONSTRAINT_NAMES:
                    continue
                spec = argument(call, 1, "shardings")
                if isinstance(spec, ast.Call) and (self.ix.qualname(spec.func, scope) or "").endswith("NamedSharding"):
                    spec = argument(spec, 1, "spec")
                tree = self.ev.spec_tree(spec, scope)
                named = [e.span for sp in tree.specs for e in sp.entries if e.value is not None]
                shared = self.spec_uses.foreign_uses([spec], scope, named) if spec is not None else []
                uses.append(ConstraintUse(self.span(call), tree, tuple(shared)))
                unknown = unknown or bool(tree.unresolved) or spec is None
        return uses, unknown


def analyse_module(source: str, tree: ast.Module, path: str, package: str | None, project: ProjectLink) -> Analyzer:
    """The analyser of a module the project index loads: the factory it is given (`ProjectIndex(analyse=...)`)."""
    return Analyzer(source, tree, path=path, package=package, project=project)


def _all_replicated(sm: ShardMapFacts) -> bool:
    """The shard_map has operands, and every in_specs and out_specs entry is read and names no mesh axis
    (`P()`, `P(None)`). Measured: with `in_specs=()` (no operand) a closure over an array runs."""
    trees = (sm.in_specs, sm.out_specs)
    return not any(t.unresolved or t.axes() for t in trees) and bool(sm.in_specs.specs and sm.out_specs.specs)


def _reduces_a_constant(call: ast.Call) -> bool:
    """`psum(1, 'x')`: a collective over a Python number gives the axis size, right under any vmap."""
    return bool(call.args) and isinstance(call.args[0], ast.Constant) and len(call.args) > 1


def _unique(reached: list[ReachedFacts]) -> list[ReachedFacts]:
    """Each shard_map once (the first way to it): two imported helpers may lead to the same one."""
    seen: set[str] = set()
    out = []
    for r in reached:
        if r.shard_map.key not in seen:
            seen.add(r.shard_map.key)
            out.append(r)
    return out


def _unique_places(places: list[tuple[Span, str]]) -> list[tuple[Span, str]]:
    """The first (span, what) of each place (a place reached on several paths is one place)."""
    seen: dict[Span, str] = {}
    for span, what in places:
        seen.setdefault(span, what)
    return sorted(seen.items())


def _only_its_lambdas(functions, func: ast.AST) -> bool:
    """The traced functions of a unary body: the body itself and lambdas written inside it (those of an inner
    `jax.vmap(lambda ...)`, which UnaryCheck judged with it)."""
    inner = {id(n) for n in ast.walk(func) if isinstance(n, ast.Lambda) and n is not func}
    return all(f is func or id(f) in inner for f in functions)


def _literal_axis(in_axes: ast.AST | None, j: int) -> int | None:
    """The `in_axes` entry of positional argument j when written as literals (default 0), else None."""
    if in_axes is None:
        return 0
    if isinstance(in_axes, ast.Constant):
        return in_axes.value if type(in_axes.value) is int else None
    if isinstance(in_axes, (ast.Tuple, ast.List)) and j < len(in_axes.elts):
        elt = in_axes.elts[j]
        return elt.value if isinstance(elt, ast.Constant) and type(elt.value) is int else None
    return None
