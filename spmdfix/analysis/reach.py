"""What a vmapped callable reaches: the shard_maps it applies and the functions it traces (the call walk).

JAX traces everything a vmapped function calls, directly or through jit, checkpoint, grad, lax.scan,
lax.cond, fori_loop and the other higher-order functions of `jaxapi.HIGHER_ORDER_NAMES`, and raises the
spmd_axis_name error for any shard_map applied on the way (docs/jax-behaviour.md, "When JAX raises").
This module follows those paths through one module's code, transitively, entering each function, value and
shard_map site once per walk (a `follow.Follow`), and records the callables of other modules of the project it
reaches. shard_map's spellings are recognised by `analysis.shard_maps`; `self.name` by `analysis.members`; instances
of the project's classes (`blk.apply`, `block: Block`) by `analysis.instances`; the
places the walk cannot follow are judged and worded by `analysis.lost_places`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from spmdfix import jaxapi
from spmdfix.jaxapi import ShardMapApi
from spmdfix.analysis.follow import (
    ASSIGNED, FACTORY_RETURN, FUNCTION, PASSED, REACH, SELF_MEMBER, SHARD_MAP_SITE, TRACED, Follow,
)
from spmdfix.analysis.bindings import FUNCTION_NODES, Binding, BindingKind, Scope, callable_target
from spmdfix.analysis.instances import (
    Instances, NotFollowed, TypeMember, attribute_assigned, is_self_param, is_super, static_value, super_member,
    type_member,
)
from spmdfix.analysis.lost_places import LostPlaces
from spmdfix.analysis.members import method
from spmdfix.analysis.method_body import custom_getattribute
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.shard_maps import (
    ShardMapSite,
    closes_over_locals,
    construction,
    decorated_site,
    factory,
    reading_scope,
    shard_map_keywords,
)
from spmdfix.analysis.uses import short
from spmdfix.analysis.calls import bind_arguments, passed_for, returns, single_return
from spmdfix.analysis.values import BoundScope, Evaluator, bound_for, same_scope
from spmdfix.model import Related
from spmdfix.paths import relpath
from spmdfix.perf import frozen

# Higher-order functions whose first argument is data, not the function they apply.
_DATA_FIRST = frozenset({"cond", "switch", "fori_loop"})


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@frozen(eq=False, repr=False)
class ReachedSite:
    """A shard_map reached from a vmapped callable: the steps that lead to it, and the vmaps on the way.

    jitted: a `jax.jit` lies on the way (a jitted callable passed, called or used as a decorator), so the
    shard_map is traced under jit even when the vmap itself is called eagerly. staged: a loop of
    `jaxapi.EAGER_STAGING_NAMES` (`jax.lax.map`, `lax.scan`, `fori_loop`, `while_loop`) lies on the way, which
    traces the shard_map into a jaxpr before an eager vmap batches it, as a jit does (measured for SPMD008's
    eager case only). cond_staged: a `lax.cond`/`lax.switch` whose predicate (index) the evaluator reads as a
    constant lies on the way (`jaxapi.STATIC_PREDICATE_STAGING_NAMES`): it stages its branches as those loops do,
    measured for SPMD008's eager `check_vma=False` case only."""

    site: ShardMapSite
    chain: tuple[Related, ...]
    vmaps: tuple[ast.AST, ...]
    chain_nodes: tuple[ast.AST, ...]
    jitted: bool = False
    staged: bool = False
    cond_staged: bool = False


class External(NamedTuple):
    """A callable of another module of the project the walk reaches: the path that leads to it, its module's
    model, the callable expression there with the scope it is written in (what `analyzer.summary_of`
    summarises), and `bound`: when a direct call reaches it (`layers.block(x, 'data')`) and binds every
    parameter (`calls.bind_arguments`), the function's scope with its parameters bound to that call's
    arguments (`values.BoundScope`). The summary then reads the parameters as this call passes them: another
    module's calls of the function may pass other values, which `ModuleIndex.argument_for` does not read
    (`module_model._elsewhere`), so without the call they were a place the analysis stopped (SPMD910)."""

    path: _Path
    owner: ModuleModel
    target: ast.AST
    scope: Scope
    bound: BoundScope | None = None


@dataclass(eq=False, repr=False)
class ReachResult:
    """Everything one callable reaches: shard_map sites and the function nodes whose bodies it traces."""

    sites: list[ReachedSite] = field(default_factory=list)
    functions: list[ast.AST] = field(default_factory=list)
    opaque: list[ast.Call] = field(default_factory=list)  # calls on the way whose callee is not known
    # Callables of other modules of the project (`External`)
    external: list[External] = field(default_factory=list)
    # Places on the way into code of the project that the walk could not follow, with what it could not
    # follow in words (`lost_places.LostPlaces`): an import of the project the index cannot resolve, `getattr`, a
    # parameter or name whose callable is not known. Calls into libraries are not among them.
    unresolved: list[tuple[ast.AST, str]] = field(default_factory=list)
    # The `jax.jit(...)` / `partial(jax.jit, ...)` calls applied on the way (inside the vmap: a jit decorator
    # written above the spmd vmap's own decorator is outside it and left out), each once, in walk order:
    # their `in_shardings` / `out_shardings` are read by the analyzer (`analyzer.Analyzer._jit_shardings`).
    jits: list[ast.Call] = field(default_factory=list)
    # (first, end) of `unresolved` and of `external` for each function whose walk added entries there
    # (`Reacher._reach_function`): what lies outside every range the walk added before it entered any function,
    # while it was still looking for the callable itself (`at_entry`)
    bodies: list[tuple[int, int, int, int]] = field(default_factory=list)

    def at_entry(self) -> tuple[list[tuple[ast.AST, str]], list[External]]:
        """The places of `unresolved` and the callables of `external` the walk met before it entered any function:
        where the callable walked is itself lost (`jax.vmap(layer)` with `layer = narrow(Layer())` and
        `narrow` returning `dataclasses.replace(layer, AXIS='data')`), or another module's callable it is
        (whose summary says the same of its own places: `FunctionSummary.entry`). A place the walk met inside a
        function it entered is not: the callable is known there, and what it reached was followed."""
        inside_u: set[int] = set()
        inside_e: set[int] = set()
        for u0, u1, e0, e1 in self.bodies:
            inside_u.update(range(u0, u1))
            inside_e.update(range(e0, e1))
        return (
            [u for i, u in enumerate(self.unresolved) if i not in inside_u],
            [e for i, e in enumerate(self.external) if i not in inside_e],
        )


_PROPERTY_NAMES = frozenset({"property", "functools.cached_property"})
_DISPATCH_NAMES = frozenset({"functools.singledispatch", "functools.singledispatchmethod"})


def _is_property(home: ModuleModel, node: ast.AST) -> bool:
    """Whether `node` of module `home` is a property: a `def` decorated `@property` / `@cached_property`, or a
    class body's value `property(getter)`: reading it off an instance runs the getter and gives what it returns."""
    if isinstance(node, ast.Call):
        makers = [node.func]
    else:
        makers = list(getattr(node, "decorator_list", ()))
    for maker in makers:
        if isinstance(maker, ast.Name) and maker.id == "property" and not home.ix.lookup("property", home.ix.scope_at(node)):
            return True
        if isinstance(maker, (ast.Name, ast.Attribute)) and home.ix.qualname(maker, home.ix.scope_at(node)) in _PROPERTY_NAMES:
            return True
    return False


class Reacher:
    """Follows calls from a callable through one module (its `ModuleModel`), and with a project index
    (`ModuleModel.project`) into the functions, classes and callable values other modules of the project
    define. Pure; each `reach`/`reach_body` is one walk (`follow.REACH`), which enters each function, value
    and shard_map site once."""

    def __init__(self, model: ModuleModel) -> None:
        self.ix = model.ix
        self.members = model.members
        self.project = model.project
        self.lost = LostPlaces(model)
        self.instances = Instances(model, self.lost)
        self.model = model
        self.ev = model.ev
        self._vmap: ast.AST | None = None  # the spmd vmap of the current `reach` walk, when it is a decorator
        self._untraced = False  # a walk of the untraced ways only (`_untraced_ways`)
        self._reaching_methods: dict[str, list[tuple[ast.ClassDef, ast.AST]]] = {}  # `_methods_reaching`
        # (the call applying the vmap, the bound scope of the walk's entry): `reach`, for `_untraced_ways` too
        self._entry: tuple[ast.Call | None, BoundScope | None] = (None, None)
        # the scopes bound by the calls of this module's functions in the current walk (`_local_bound`), by
        # (call, scope the call is written in); and how many bound calls lead to each, by its id
        self._bound_scopes: dict[tuple[int, int], BoundScope | None] = {}
        self._bound_depth: dict[int, int] = {}
        self._views: dict[tuple[int, int], Scope] = {}  # `_scope_in`, per walk
        # the first parameter of a decorator of the project followed by `_project_decorators`, by its id: the
        # decorated `def` it receives
        self._decorated: dict[int, ast.AST] = {}
        self._others: dict[int, Reacher] = {}  # `_other`
        self._call_reaching: dict[int, str | None] = {}  # `_inherited_call_reaching`, by the class's id

    def qualname(self, expr: ast.AST, scope: Scope) -> str | None:
        return self.ix.qualname(expr, scope)

    def reach(
        self, callable_expr: ast.AST, scope: Scope, vmap: ast.AST | None = None, bound: BoundScope | None = None
    ) -> ReachResult:
        """Every shard_map site and function that calling `callable_expr` traces. `vmap`: the spmd vmap whose
        callable this is (its call or decorator): a jit decorator written above that decorator wraps the vmap
        from outside, so it is not among `ReachResult.jits`. `bound`: the function `callable_expr`'s scope with
        its parameters bound to the arguments of the call of another module that reaches it (`External.bound`):
        the calls written directly in its body (a shard_map applied there among them) are evaluated in it."""
        result = ReachResult()
        self._vmap = vmap
        self._entry = (self._applied(vmap), bound)
        self._bound_scopes, self._bound_depth, self._views = {}, {}, {}
        within = None
        if bound is not None and not isinstance(callable_expr, FUNCTION_NODES):
            # what a factory of this module returns, read for the call of another module that made it
            # (`@parallel.sharded(parallel.DATA)`: `_project_decorators`): its parameters are that call's
            scope, within, bound = self._scope_in(scope, bound), bound, None
            self._entry = (self._entry[0], None)
        try:
            self._reach_callable(
                callable_expr, scope, _Path(), result, Follow(REACH), call=self._entry[0], bound=bound, within=within
            )
            if any(s.jitted or s.staged or s.cond_staged for s in result.sites):
                self._untraced_ways(callable_expr, scope, result, within)
        finally:
            self._vmap = None
            self._entry = (None, None)
            self._bound_scopes, self._bound_depth, self._views = {}, {}, {}
        return result

    def _applied(self, vmap: ast.AST | None) -> ast.Call | None:
        """The call applying the vmap call `vmap` where it is written (`jax.vmap(layers.block, ...)(xs)`), or
        None. The vmap calls its function with that call's arguments (batched arrays: no value the analysis
        reads) and the defaults of the parameters it leaves out (`def block(x, axis='data')`), which the
        function is read with (`External.bound`, `_local_bound`). The same for a wrapper that passes its
        arguments through (`jaxapi.ARGUMENT_PASSING_NAMES`: `jax.jit(block)(x, 'data')`)."""
        if not isinstance(vmap, ast.Call):
            return None
        up = self.ix.parent.get(id(vmap))
        return up if isinstance(up, ast.Call) and up.func is vmap else None

    def _untraced_ways(
        self, callable_expr: ast.AST, scope: Scope, result: ReachResult, within: BoundScope | None = None
    ) -> None:
        """Clear `jitted`/`staged`/`cond_staged` of each site of `result` that a way without a jit or staging loop reaches too.

        The walk visits each function and site once, by the first way it meets; a site first met under
        `jax.lax.map(block, x)` and then by a direct `block(x)` would keep the staged way, and SPMD008's eager
        case, which fails on the direct call, would be silent. A second walk that stops wherever a way becomes
        jitted or staged finds the sites some untraced way reaches (only its sites are kept)."""
        direct = ReachResult()
        self._untraced = True
        try:
            self._reach_callable(
                callable_expr, scope, _Path(), direct, Follow(REACH), call=self._entry[0], bound=self._entry[1],
                within=within,
            )
        finally:
            self._untraced = False
        untraced = {id(s.site.node) for s in direct.sites}
        result.sites[:] = [
            replace(s, jitted=False, staged=False, cond_staged=False)
            if id(s.site.node) in untraced and (s.jitted or s.staged or s.cond_staged) else s
            for s in result.sites
        ]

    def reach_body(self, func: ast.AST) -> ReachResult:
        """What a shard_map body traces: like `reach`, but the body's own decorators are not followed."""
        result = ReachResult()
        self._reach_function(func, _Path(), result, Follow(REACH), as_body=True)
        return result

    def _named_jit_factory(self, deco: ast.expr, scope: Scope) -> tuple[Evaluator, ast.Call] | None:
        """The `functools.partial(jax.jit, ...)` a decorator name is bound to (`@JIT_Y` with `JIT_Y =
        partial(jax.jit, out_shardings=NamedSharding(mesh, P('y')))`), with the evaluator of its module: its
        shardings apply to the decorated function on the way; None otherwise. Its shardings were not read:
        rename to 'y' was SAFE and raised `DuplicateSpecError` (breaker14 r16; imported from pkg/config.py
        likewise). A name the module assigns, or imports from the project (`LostPlaces.follows`); a library
        name is not followed (it would ask the project index for library modules)."""
        named = self._named_partial(deco, scope)
        if named is None:
            return None
        ev, value, at = named
        return (ev, value) if ev.ix.qualname(value.args[0], at) in jaxapi.JIT_NAMES else None

    def _held_factory_site(self, call: ast.Call, scope: Scope) -> ShardMapSite | None:
        """`self.smap(block)` where the class gives `smap` a shard_map factory (`smap = partial(jax.shard_map,
        mesh=MESH, in_specs=..., out_specs=...)` in its body, or `self.smap = ...` in a method): the shard_map
        site, its factory's arguments read where they are written (`shard_maps.reading_scope`). Where the class
        gives `smap` several values, one of them a factory, or the value is not read (`Members.self_value`: a
        subclass or another object sets it again), a site whose arguments are not read (`ShardMapSite.unreadable`:
        an SPMD910 record at the call).
        Silent before: "All checks passed!" while JAX raised SPMD001's error (lead's probe q13, stop 43)."""
        if not call.args:
            return None
        return self._held_factory(call.func, scope, call, call.args[0], scope, shard_map_keywords(call))

    def _held_factory_decorator(self, func: ast.AST) -> ShardMapSite | None:
        """`@Layer.smap` (or `@self.smap` in a method) over a `def`, the class giving `smap` a shard_map factory:
        the shard_map of the `def`, as `Layer.smap(block)` is read (`_held_factory`). Silent before: "All checks
        passed!" while JAX raised SPMD001's error (breaker17 a07)."""
        scope = self.ix.scope_at(func)
        for deco in getattr(func, "decorator_list", ()):
            site = self._held_factory(deco, scope, deco, func, scope, {})
            if site is not None:
                return site
        return None

    def _held_factory(
        self, func: ast.AST, scope: Scope, node: ast.AST, body: ast.AST, body_scope: Scope, own: dict[str, ast.AST]
    ) -> ShardMapSite | None:
        """The shard_map site when `func` (`self.smap`, `Layer.smap`, read in `scope`) is an attribute the class
        gives a shard_map factory, applied to `body` at `node` with the arguments `own`; None when it is not.
        A factory held through `staticmethod(...)` is the factory (breaker17 a12: silent before)."""
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
            return None
        cls = self.members.enclosing_class(func, scope)
        named = self.ix.single_binding(func.value.id, scope) if cls is None else None
        if named is not None and named.kind is BindingKind.CLASS:
            cls = named.node  # `Layer.smap(block)`: the class body's value, read by the evaluator
        if cls is None:
            return None
        methods, values = self.members.members_of(cls)
        if func.attr in methods:
            return None
        assigned = values.get(func.attr, ())
        made = [(f, v) for v, inner in assigned if (f := factory(self.ix, self._static(v, inner), inner)) is not None]
        made += [(f, v) for v, inner in self._passed_values(assigned) if (f := factory(self.ix, v, inner)) is not None]
        if not made:
            return None
        if named is not None:
            followed = self.ev.follow(func, scope)
            held = (followed[1], followed[2]) if followed is not None and followed[0] is self.ev else None
        else:
            held = self.members.self_value(func, scope)
        found = None
        if held is not None and len(assigned) == 1:
            found = factory(self.ix, self._static(held[0], held[1]), held[1])
        if found is None:
            what = f"`{short(func)}` holds a shard_map factory, and which one it holds here is not known"
            return ShardMapSite(node, scope, made[0][0][0], body, body_scope, {}, what)
        api, kwargs, made_in, unreadable = found
        where, why = reading_scope(self.ix, kwargs, made_in, own, scope)
        return ShardMapSite(node, where, api, body, body_scope, {**kwargs, **own}, unreadable or why)

    def _passed_values(self, assigned) -> list[tuple[ast.AST, Scope]]:
        """What the calls of this module pass for the parameters among the values `assigned` (`self.smap = smap`
        in `__init__(self, smap)`: `Layer(partial(jax.shard_map, ...))`, `calls.passed_for`). Silent before: a
        factory given to the constructor was "All checks passed!" while JAX raised SPMD001's error (breaker17
        b01)."""
        found = []
        for value, inner in assigned:
            binding = self.ix.single_binding(value.id, inner) if isinstance(value, ast.Name) else None
            if binding is not None and binding.kind is BindingKind.PARAM:
                found += passed_for(self.ix, binding)
        return found

    def _static(self, value: ast.AST, scope: Scope) -> ast.AST:
        """The value `staticmethod(value)` wraps (the builtin, unshadowed), else `value` itself."""
        if (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "staticmethod"
            and not self.ix.lookup("staticmethod", scope) and len(value.args) == 1 and not value.keywords
        ):
            return value.args[0]
        return value

    def _applied_factory_site(self, call: ast.Call, scope: Scope) -> ShardMapSite | None:
        """`make(P('x'))(block)`, `make` a function of this module whose one `return` is a shard_map factory
        (`def make(spec): return partial(jax.shard_map, mesh=MESH, in_specs=spec, out_specs=spec)`, or a lambda
        bound once to the name): the shard_map of `block` with the factory's arguments, read in `make`'s scope
        with its parameters bound to the call's arguments (`_bound_by`), as the decorator `@make(P('x'))` is
        (`_factory_shard_map`). The site is the returned factory. A factory of another module gives a site whose
        arguments are not read (`ShardMapSite.unreadable`: an SPMD910 record at the call). Silent before, called or in a body: "All checks passed!" while JAX
        raised SPMD001's error (lead's probes s15-s17, stop 43)."""
        maker = call.func
        if not call.args or not isinstance(maker, ast.Call):
            return None
        target = maker.func
        function = self.ix.function_of(target)
        if function is None and isinstance(target, ast.Name):
            binding = self.ix.single_binding(target.id, scope)
            if binding is not None and binding.kind is BindingKind.ASSIGN and isinstance(binding.node, ast.Lambda):
                function = binding.node
        if function is None and isinstance(target, ast.Attribute):
            method = self._method_returning_factory(target, scope)
            if method is not None:
                return ShardMapSite(call, scope, method[0], call.args[0], scope, {}, method[1])
        if function is None:
            far = self._far_factory(target, scope)
            return ShardMapSite(call, scope, far[0], call.args[0], scope, {}, far[1]) if far is not None else None
        made = function.body if isinstance(function, ast.Lambda) else single_return(function)
        inner = self.ix.own_scope(function)
        found = factory(self.ix, made, inner) if made is not None and inner is not None else None
        if found is None:
            return self._returned_among_several(call, function, inner, scope)
        api, kwargs, where, unreadable = found
        bound = self._bound_by((maker, scope), self.model, function)
        made_in = self._scope_in(where, bound)
        own = shard_map_keywords(call)
        read_in, why = reading_scope(self.ix, kwargs, made_in, own, scope) if own else (made_in, None)
        return ShardMapSite(made, read_in, api, call.args[0], scope, {**kwargs, **own}, unreadable or why)

    def _method_returning_factory(self, target: ast.Attribute, scope: Scope) -> tuple[ShardMapApi, str] | None:
        """(the API, words of a record) when `target` (`self.make`, `layer.make`, `Layer.make`) is a method of a
        class of the project one of whose `return`s is a shard_map factory, else None. The method's parameters
        (`self` first) are not bound to the call's arguments here, so the shard_map it makes is a place not
        followed. Silent before: `self.make(P('x'))(block)` was "All checks passed!" while JAX raised SPMD001's
        error (breaker17 a17)."""
        member = self.members.self_member(target, scope)
        if member is not None and isinstance(member[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
            owner, method = self.model, member[0]
        else:
            found = self.instances.method_of(target, scope) if member is None else None
            if found is None:
                return None
            owner, method = found
        inner = owner.ix.own_scope(method)
        for value in (returns(method) or ()) if inner is not None else ():
            made = factory(owner.ix, value, inner)
            if made is not None:
                return made[0], (
                    f"`{short(target)}(...)` is a method returning a shard_map factory (line {value.lineno}), applied "
                    "here: the shard_map it makes is not followed"
                )
        return None

    def _returned_among_several(
        self, call: ast.Call, function: ast.AST, inner: Scope | None, scope: Scope
    ) -> ShardMapSite | None:
        """`make('y')(block)` where `make` has several `return`s, one of them a shard_map factory (`if ax == 'x':
        return partial(jax.shard_map, ..., in_specs=P('x'), ...)` / `return partial(..., P('y'), ...)`): which one
        the call gets is not read, so a site whose arguments are not read (an SPMD910 record at the call); None
        when no `return` is a factory. Silent before: "All checks passed!" while JAX raised SPMD001's error
        (breaker17 a15)."""
        if isinstance(function, ast.Lambda) or inner is None:
            return None
        for value in returns(function) or ():
            found = factory(self.ix, value, inner)
            if found is not None:
                what = (
                    f"`{short(call.func)}` returns one of several values, one a shard_map factory (line "
                    f"{value.lineno}): which one is applied here is not followed"
                )
                return ShardMapSite(call, scope, found[0], call.args[0], scope, {}, what)
        return None

    def _far_factory(self, target: ast.AST, scope: Scope) -> tuple[ShardMapApi, str] | None:
        """(the API, words of a record) when `target` names a function of another module of the project whose one
        `return` is a shard_map factory (its site would lie in that module, its body here), else None."""
        if self.project is None:
            return None
        qname = self.qualname(target, scope)
        found = self.project.binding(qname) if qname and self.lost.follows(qname) else None
        if found is None or found[1].kind is not BindingKind.DEF:
            return None
        owner = found[0]
        returned = self._returned_factory(owner, found[1].node)
        if returned is None:
            return None
        where = relpath(owner.project.path if owner.project is not None else owner.ix.path)
        return returned[0], (
            f"`{short(target)}(...)` returns a shard_map factory of {where}, applied here: the shard_map it makes is "
            "followed only when the factory is a function of this module"
        )

    def _named_partial(self, expr: ast.expr, scope: Scope) -> tuple[Evaluator, ast.Call, Scope] | None:
        """The `functools.partial(target, ...)` call a name is bound to, with the evaluator of its module and
        the scope it is written in: a name the module assigns, or imports from the project (`LostPlaces.follows`;
        a library name is not followed: it would ask the project index for library modules). None otherwise."""
        if isinstance(expr, ast.Attribute):
            return self._held_partial(expr, scope)
        binding = self.ix.single_binding(expr.id, scope) if isinstance(expr, ast.Name) else None
        if binding is None or not (
            binding.kind is BindingKind.ASSIGN
            or (binding.kind is BindingKind.IMPORT and self.lost.follows(self.qualname(expr, scope)))
        ):
            return None
        followed = self.ev.follow(expr, scope)
        if followed is None:
            return None
        ev, value, at = followed
        if not (isinstance(value, ast.Call) and value.args and ev.ix.qualname(value.func, at) in jaxapi.PARTIAL_NAMES):
            return None
        return ev, value, at

    def _held_partial(self, expr: ast.Attribute, scope: Scope) -> tuple[Evaluator, ast.Call, Scope] | None:
        """The `functools.partial(target, ...)` call a class of this module gives the attribute `expr` (`Cfg.JIT`
        with `class Cfg: JIT = partial(jax.jit, ...)`, or `self.JIT` in a method: `Members.self_value`), with this
        module's evaluator and the scope it is written in; None otherwise (breaker17 j08: `Cfg.JIT(block)` was
        "All checks passed!" while JAX raised SPMD001's error)."""
        if not isinstance(expr.value, ast.Name):
            return None
        if self.members.enclosing_class(expr, scope) is not None:
            held = self.members.self_value(expr, scope)
        else:
            named = self.ix.single_binding(expr.value.id, scope)
            if named is None or named.kind is not BindingKind.CLASS:
                return None
            followed = self.ev.follow(expr, scope)
            held = (followed[1], followed[2]) if followed is not None and followed[0] is self.ev else None
        if held is None:
            return None
        value, at = held
        if not (isinstance(value, ast.Call) and value.args and self.ix.qualname(value.func, at) in jaxapi.PARTIAL_NAMES):
            return None
        return self.ev, value, at

    def _partial_not_followed(self, call: ast.Call, scope: Scope, result) -> bool:
        """`JIT(f)` whose callee holds a `functools.partial(...)` that `_named_partial` could not follow
        (`_unfollowed_partial`): an SPMD910 record at the call; says whether it is one. Silent before: "All checks
        passed!" while JAX raised SPMD001's error (breaker17 j07)."""
        what = self._unfollowed_partial(call.func, scope)
        if what is None:
            return False
        result.unresolved.append((call, what))
        return True

    def _unfollowed_partial(self, func: ast.AST, scope: Scope) -> str | None:
        """Words of a record when `func` (a callee or decorator, read in `scope`) holds a `functools.partial(...)`
        that `_named_partial` does not follow, else None: a name bound in several places, one of them to a
        partial (`if ...: JIT = partial(jax.jit) else: JIT = partial(jax.jit, out_shardings=...)`), a name or class
        attribute bound once to one whose value the evaluator does not trust (another module's text may write it:
        `importers.name_writer`, `Members.written_in_other_spelling`), or `Cfg.JIT` / `self.JIT` the class gives a
        partial. Which callable it is, and a jit's shardings, are not read."""
        if isinstance(func, ast.Name):
            bindings = self.ix.lookup(func.id, scope)
            values = [(b.node, b.scope) for b in bindings if b.kind is BindingKind.ASSIGN]
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            cls = self.members.enclosing_class(func, scope)
            named = self.ix.single_binding(func.value.id, scope) if cls is None else None
            cls = named.node if named is not None and named.kind is BindingKind.CLASS else cls
            bindings = values = list(self.members.members_of(cls)[1].get(func.attr, ())) if cls is not None else []
        else:
            return None
        partials = [
            v for v, at in values
            if isinstance(v, ast.Call) and v.args and self.ix.qualname(v.func, at) in jaxapi.PARTIAL_NAMES
        ]
        if not partials:
            return None
        how = f"is bound in {len(bindings)} places, one" if len(bindings) > 1 else "holds"
        return (
            f"`{short(func)}` {how} a `functools.partial` (line {partials[0].lineno}), whose value here is not "
            "followed: which callable it applies, and a jit's shardings, are not read"
        )

    def _applied_named_partial(self, call: ast.Call, scope: Scope, path: _Path, result, follow: Follow, within) -> bool:
        """`JIT(f)` with `JIT = functools.partial(jax.jit, ...)` (here or in a module of the project), used as a
        callable: the partial applied to `f`. A partial of a jit (its shardings apply on the way), of a vmap, of
        a wrapper or of another partial reaches `f`, as the written-out `partial(jax.jit, ...)(f)` does; a partial
        of anything else (a function of the project: what it returns) is a place not followed (SPMD910). Says
        whether `call` is such an application. Silent before: `jax.vmap(JIT(f), spmd_axis_name='x')` with `f`
        reaching a colliding shard_map was "All checks passed!" while JAX raised."""
        named = self._named_partial(call.func, scope)
        if named is None:
            return False
        ev, made, at = named
        applied = ev.ix.qualname(made.args[0], at)
        if applied in jaxapi.JIT_NAMES and ev is self.ev:
            self._add_jit(made, result)
            if call.keywords:
                # `JIT(f, out_shardings=...)`: keywords of the application override the partial's (breaker17 j06:
                # not read, rename onto their 'y' was SAFE and raised `DuplicateSpecError`, P('y', 'y'))
                self._add_jit(call, result)
        elif applied in jaxapi.JIT_NAMES:  # another module's: its shardings are read with that module's names
            what = (
                f"`{short(call.func)}` is a `functools.partial` of `jax.jit` in another module: its `in_shardings` / "
                "`out_shardings` are not read"
            )
            result.unresolved.append((call, what))
        known = (jaxapi.JIT_NAMES, jaxapi.PARTIAL_NAMES, jaxapi.WRAPPER_NAMES, jaxapi.VMAP_NAMES)
        if not any(applied in names for names in known):
            if applied is None or self.lost.follows(applied):
                what = (
                    f"`{short(call.func)}` is `{short(made)}`: what applying a partial of "
                    f"`{short(made.args[0])}` gives is not followed"
                )
                result.unresolved.append((call, what))
            return True
        if call.args:
            step = path.through_vmap(call) if applied in jaxapi.VMAP_NAMES else path
            step = step.through_jit() if applied in jaxapi.JIT_NAMES else step
            step = step.through_grad() if applied in jaxapi.DIFFERENTIATING_NAMES else step
            self._reach_callable(call.args[0], scope, step, result, follow, within=within)
        return True

    def _calls_its_callables(self, call: ast.Call, qname: str | None, scope: Scope) -> bool:
        """`call` is of a builtin or standard-library function that calls the callables it is given
        (`jaxapi.CALLING_BUILTINS`, `CALLING_STDLIB`): `map(block, rows)`, `functools.reduce(step, xs)`."""
        if qname in jaxapi.CALLING_STDLIB:
            return True
        func = call.func
        return isinstance(func, ast.Name) and func.id in jaxapi.CALLING_BUILTINS and not self.ix.lookup(func.id, scope)

    def _reach_callable(
        self, expr, scope, path: _Path, result, follow: Follow, lost: bool = True, call: ast.Call | None = None,
        bound: BoundScope | None = None, within: BoundScope | None = None,
    ) -> None:
        """Follow the callable `expr`. `lost`: `expr` stands where a callable goes (a callee, a vmap's or a
        wrapper's function), so a callable that cannot be known there is a place the walk lost
        (`ReachResult.unresolved`); False for the other operands of a higher-order function (`init` of
        `lax.scan`), which are data. `call`: the call whose callee `expr` is, evaluated in `scope` (a function
        it reaches reads its parameters from that call: `External.bound`, `_local_bound`). `bound`: `expr` is
        a function whose parameters are bound so already (the walk's entry: `reach`). `within`: the bound
        scope of the function read for one call whose body `expr` is written in (a local `def`, a name
        assigned there: `smap = jax.shard_map(...)`), which they are read in too (`_scope_in`)."""
        if expr is None or self._untraced and path.traced:
            return
        lookup = self.lost.namespace_lookup(expr, scope) if lost and self.qualname(expr, scope) is None else ""
        if lookup:  # `jax.vmap(getattr(sys.modules[__name__], 'block'), ...)`: the callable itself (w14)
            result.unresolved.append((expr, lookup))
            return
        if isinstance(expr, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if bound is None and within is not None and self._nested_in(self.ix.scope_at(expr), within):
                bound = within  # a lambda or `def` of the function read for one call: read in that call too
            self._reach_function(expr, path, result, follow, bound=bound)
        elif isinstance(expr, ast.Name):
            binding = self.ix.single_binding(expr.id, scope)
            if binding is None:
                if lost:
                    self.lost.lost_bindings(expr, scope, result)
                return
            if binding.kind is BindingKind.DEF:
                inner = self._local_bound(call, scope, binding.node)
                if inner is None and within is not None and self._nested_in(binding.scope, within):
                    inner = within  # a `def` of the function read for one call: read in that call too
                self._reach_function(binding.node, path, result, follow, bound=inner)
            elif binding.kind is BindingKind.CLASS:
                # A flax Module class given to nn.vmap, or the class of `Layer()(x)`: calling it runs its
                # `__call__` (its own, a base's, or the callable assigned to it: `type_member`)
                self._run_type_member(self.model, binding.node, "__call__", expr, path, result, follow)
            elif binding.kind is BindingKind.ASSIGN:
                if within is not None and self._nested_in(binding.scope, within):
                    # assigned in the function read for one call (`smap = jax.shard_map(..., in_specs=P(ax))`)
                    if follow.first_visit(binding.node, ASSIGNED, within):
                        where = self._scope_in(binding.scope, within)
                        self._reach_callable(binding.node, where, path, result, follow, lost, within=within)
                elif follow.first_visit(binding.node, ASSIGNED):
                    self._reach_callable(binding.node, binding.scope, path, result, follow, lost)
            elif binding.kind is BindingKind.IMPORT:
                self._reach_import(binding.qname, expr, path, result, call=(call, scope) if call else None, follow=follow)
            elif binding.kind is BindingKind.PARAM:
                decorated = self._decorated.get(id(binding.node))
                if decorated is not None:  # a decorator's parameter: the decorated `def`, walked already
                    self._reach_function(decorated, path, result, follow, as_body=True)
                    return
                passed = self.model.argument_for(binding)  # the one callable every call site passes
                if passed is None and self._call_of_annotated(expr, scope, path, result, follow):
                    return
                if passed is None and self._passed_elsewhere(binding, path, result, follow):
                    return
                if lost and passed is None and is_self_param(binding) and self._self_called(binding, expr, path, result, follow):
                    return
                if lost and passed is None and not is_self_param(binding):
                    what = f"`{expr.id}` is a parameter: which callable it receives is not known"
                    result.unresolved.append((expr, what))
                if passed is not None and follow.first_visit(binding.node, PASSED):
                    self._reach_callable(passed[0], passed[1], path, result, follow, lost)
            elif binding.kind is BindingKind.OTHER and lost:
                what = f"`{expr.id}` is bound by a loop, `with` or unpacking: which callable it holds is not known"
                result.unresolved.append((expr, what))
        elif isinstance(expr, ast.Attribute):
            member = self.members.self_member(expr, scope)
            bound = self.instances.method_of(expr, scope) if member is None else None
            found = (self.model, member[0]) if member is not None else bound
            why = custom_getattribute(self.model, self.instances, expr, scope, *found) if found is not None else ""
            if why:
                # a `__getattribute__` decides what the read gives, whatever the class body binds (breaker16 g01)
                if lost:
                    result.unresolved.append((expr, f"`{short(expr)}`: {why}"))
                return
            shadow = self._shadowed_method(member[0]) if member is not None else ""
            if shadow:
                if lost:
                    result.unresolved.append((expr, f"`{short(expr)}`: {shadow}"))
                return
            if found is not None and _is_property(found[0], found[1]):
                # `self.fn(b)` with `fn` a property calls what its getter returns, not the getter: the getter runs
                # on the read (walked), the callable it gives is not followed (breaker16 p01: `return jnp.interp`
                # kept rename SAFE, the renamed program raised `pvary is a invariant->variant collective`)
                if not isinstance(found[1], FUNCTION_NODES):
                    pass  # (`fn = property(getter)`: the getter is not read)
                elif found[0] is self.model:
                    self._reach_function(found[1], path, result, follow)
                else:
                    result.external.append(External(path, found[0], found[1], found[0].ix.scope_at(found[1])))
                if lost:
                    what = f"`{short(expr)}` is a property: calling it calls what its getter returns, which is not followed"
                    result.unresolved.append((expr, what))
                return
            if bound is not None:
                owner, func = bound
                if owner is self.model:
                    self._reach_function(func, path, result, follow)
                else:
                    result.external.append(External(path, owner, func, owner.ix.scope_at(func)))
            elif member is None:
                if lost and self.instances.annotated_overridden(expr, scope):
                    what = f"`{ast.unparse(expr)}`: a subclass redefines `{expr.attr}`; which one runs is not known"
                    result.unresolved.append((expr, what))
                library = self._library_member(expr, scope) if lost and isinstance(expr.value, ast.Name) else None
                if library:  # `jax.vmap(module.apply, ...)` on a flax linen module (breaker5 q53)
                    result.unresolved.append((expr, library))
                if lost and isinstance(expr.value, ast.Name) and self._class_attribute_read(expr, expr, scope, path, result, follow):
                    return  # `jax.vmap(Layer.fn, ...)` with `fn = jax.shard_map(...)` in `Layer`'s body
                self._reach_import(
                    self.qualname(expr, scope), expr, path, result, call=(call, scope) if call else None, follow=follow
                )
            elif isinstance(member[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._reach_function(member[0], path, result, follow)
            elif follow.first_visit(member[0], SELF_MEMBER):
                self._reach_callable(member[0], member[1], path, result, follow, lost)
        elif isinstance(expr, (ast.Tuple, ast.List)):
            for elt in expr.elts:
                self._reach_callable(elt, scope, path, result, follow, lost, within=within)
        elif isinstance(expr, (ast.IfExp, ast.BoolOp)):
            # `fn = a if flag else b`, `fn = custom or default`: either may be the callable (a condition spmdfix
            # decides picks one), as both branches of an `if` statement are walked (silent before)
            for branch in self._branches(expr, scope):
                self._reach_callable(branch, scope, path, result, follow, lost, within=within)
        elif isinstance(expr, ast.Subscript) and lost and not self.lost.library_value(expr.value, scope):
            result.unresolved.append((expr, f"`{short(expr)}` is looked up at run time"))
        elif isinstance(expr, ast.Call):
            self._reach_call_value(expr, scope, path, result, follow, within)

    def _shadowed_method(self, node: ast.AST) -> str:
        """Why the method `node` (a `def` in a class body of this module, as `members.ClassMembers.self_member`
        found it) may not be what `self.name` gives, in words ("" when it is): the class also assigns `name` a
        value (`self.norm = jnp.vectorize(g)` in `__init__`: the instance's own attribute shadows the method;
        `norm = ...` in the body: the later binding wins). The lookup took the method first (breaker16 s01:
        rename SAFE, the renamed program raised `pvary is a invariant->variant collective`)."""
        cls = self.ix.parent.get(id(node))
        if not isinstance(cls, ast.ClassDef) or not isinstance(node, FUNCTION_NODES):
            return ""
        values = self.members.members_of(cls)[1].get(node.name, [])  # type: ignore[attr-defined]
        if not values:
            return ""
        line = getattr(values[0][0], "lineno", cls.lineno)
        return f"`{cls.name}` defines `{node.name}` as a method and also assigns it a value (line {line}), which the read may give"  # type: ignore[attr-defined]

    def _self_called(self, binding: Binding, expr: ast.Name, path: _Path, result: ReachResult, follow: Follow) -> bool:
        """`self(v)` in a method (not a `classmethod`: `cls(v)` builds an instance): the instance's `__call__` runs,
        its class's (`instances.type_member`), as for `Layer()(v)`; a subclass of this module redefining it
        makes the call opaque, as `self.name(v)` is (silent before: `def run(self, v): return self(v)`). Says
        whether `expr` is such a read."""
        func = self.ix.parent.get(id(binding.node))
        func = self.ix.parent.get(id(func)) if isinstance(func, ast.arguments) else func
        cls = self.ix.parent.get(id(func))
        if not isinstance(func, FUNCTION_NODES) or not isinstance(cls, ast.ClassDef) or binding.node.arg != "self":
            return False
        if not func.args.args or func.args.args[0] is not binding.node:
            return False
        if any(isinstance(d, ast.Name) and d.id in ("classmethod", "staticmethod") for d in func.decorator_list):
            return False
        if self.members.overridden(cls, "__call__"):
            up = self.ix.parent.get(id(expr))
            result.opaque.append(up if isinstance(up, ast.Call) else expr)  # type: ignore[arg-type]
        self._run_type_member(self.model, cls, "__call__", expr, path, result, follow)
        return True

    def _branches(self, expr: ast.IfExp | ast.BoolOp, scope: Scope) -> list[ast.AST]:
        """The values a conditional expression may give: both branches of `a if c else b` (the one a condition
        the evaluator decides, `values.Evaluator.truth`, picks), every operand of `a or b` / `a and b`."""
        if isinstance(expr, ast.BoolOp):
            return list(expr.values)
        truth = self.ev.truth(expr.test, scope)
        return [expr.body, expr.orelse] if truth is None else [expr.body if truth else expr.orelse]

    def _passed_elsewhere(self, binding: Binding, path: _Path, result, follow: Follow) -> bool:
        """A parameter no call of its module gives a callable, given one `def` by every call of the project
        (`ProjectLink.callable_passed_elsewhere`: `accumulate(apply, xs)` in train.py for model.py's `def
        accumulate(fn, xs): return jax.vmap(fn, ...)(xs)`): follow that `def`, and say whether it was."""
        project = self.model.project
        found = project.callable_passed_elsewhere(binding) if project is not None else None
        if found is None or not follow.first_visit(binding.node, PASSED):
            return found is not None
        owner, func = found
        if owner is self.model:
            self._reach_function(func, path, result, follow)
        else:
            result.external.append(External(path, owner, func, owner.ix.scope_at(func)))
        return True

    def _built_here(self, call: ast.Call, scope: Scope, path: _Path, span, result, follow: Follow) -> bool:
        """`Cls(...)` with `Cls` a class of this module, called in a traced body: it builds an instance, which
        runs the class's `__init__` (its own, or a base's of this module), not its `__call__` (newuser9: an NNX
        model built under `nnx.vmap` keeps its `__init__`'s shard_map and parameters; `Scale(x).s` was read as
        calling `Scale.__call__`, a finding on a program JAX runs). Says whether the call was such a
        construction (a class binding); a class without an `__init__` of its module runs none of its code. A class
        of another module of the project (`from pkg.model import Built`, `model.Built(x)`) alike, its `__init__`
        read there (`External`)."""
        built = self._class_built(call, scope)
        if built is None:
            return False
        owner, cls = built
        step = path.step(f"`{short(call.func)}` is built here (its `__init__` runs)", span, call)
        self._run_type_member(owner, cls, "__init__", call, step, result, follow)
        return True

    def _run_type_member(
        self, owner: ModuleModel, cls: ast.ClassDef, name: str, node: ast.AST, path: _Path, result, follow: Follow
    ) -> bool:
        """Follow the special method `name` (`__call__`, `__init__`) that an implicit call on class `cls` of module
        `owner` runs (`instances.type_member`: its own, a base's in this module or another of the project, or the
        callable its body assigns to it), and say whether one was found. Where the lookup cannot tell which runs,
        the place `node` is an SPMD910 record (silence before: `Layer()(x)` with `__call__` inherited from
        pkg/base.py or `__call__ = _apply`, breaker10 t23-t27, t33); a library base's `__init__` is a library
        call, as any other (no record)."""
        found = type_member(owner, cls, name)
        return self._run_found(found, f"which `{name}` `{cls.name}` runs", name, node, path, result, follow)

    def _run_found(self, found, what: str, name: str, node: ast.AST, path: _Path, result, follow: Follow) -> bool:
        """Follow what a lookup of the special method `name` found (`instances.type_member`, `super_member`), and
        say whether one was found; a `NotFollowed` is an SPMD910 record at `node` ("<what> is not known: why")
        but for a library base's `__init__` (a library call)."""
        if found is None:
            return False
        if isinstance(found, NotFollowed):
            if not (found.library and name == "__init__"):
                result.unresolved.append((node, f"{what} is not known: {found.why}"))
            return False
        home, target, where = found
        if home is not self.model:
            result.external.append(External(path, home, target, where))
        elif isinstance(target, FUNCTION_NODES):
            self._reach_function(target, path, result, follow)
        elif follow.first_visit(target, ASSIGNED):
            self._reach_callable(target, where, path, result, follow)  # `__call__ = _apply`
        return True

    def _class_built(self, call: ast.Call, scope: Scope) -> tuple[ModuleModel, ast.ClassDef] | None:
        """(the model of its module, the class) when `call` builds an instance of a class of the project
        (`Cls(...)`, `model.Cls(...)`); None otherwise."""
        if isinstance(call.func, ast.Name):
            binding = self.ix.single_binding(call.func.id, scope)
            if binding is not None and binding.kind is BindingKind.CLASS:
                return self.model, binding.node  # type: ignore[return-value]
        qname = self.qualname(call.func, scope)
        # (`whole`: `ops.Ops.f(b)` names a member of the class, not the class: it was read as building an `Ops`,
        # and the staticmethod `f` applying `lax.cond` was never read, breaker16 x10)
        found = self.project.binding(qname, whole=True) if self.lost.follows(qname) else None  # type: ignore[union-attr]
        if found is None or found[1].kind is not BindingKind.CLASS:
            return self._class_given(call.func, scope)
        return found[0], found[1].node  # type: ignore[return-value]

    def _class_given(self, expr: ast.AST, scope: Scope, depth: int = 0) -> tuple[ModuleModel, ast.ClassDef] | None:
        """The class of the project `expr` (read in `scope`) evaluates to, beyond a name of it (`_class_built`):
        a class bound once in the body of such a class (`Outer.Layer`, breaker11 a29), or what a function of the
        project returns by its one `return` (`make()` with `def make(): class Layer(Base): ...; return Layer`,
        a30), a few steps deep. None otherwise (the calls of such a value were silent before: JAX raised
        SPMD001's error, "All checks passed!")."""
        if depth > 4:
            return None
        found = self.instances.class_named(expr, scope)
        if found is not None:
            return found
        if isinstance(expr, ast.Attribute):
            outer = self._class_given(expr.value, scope, depth + 1)
            if outer is None:
                return None
            owner, cls = outer
            inner = owner.ix.own_scope(cls)
            bound = inner.bindings.get(expr.attr, []) if inner is not None else []
            if len(bound) != 1 or bound[0].kind is not BindingKind.CLASS:
                return None
            if attribute_assigned(owner.ix.source, expr.attr) or attribute_assigned(self.ix.source, expr.attr):
                return None  # `Outer.Layer = Other` may rebind it
            return owner, bound[0].node  # type: ignore[return-value]
        if isinstance(expr, ast.Call) and isinstance(expr.func, (ast.Name, ast.Attribute)):
            func = self._project_def(expr.func, scope)
            if func is None:
                return None
            home, fdef = func
            value, inner = single_return(fdef), home.ix.own_scope(fdef)
            if getattr(fdef, "decorator_list", None):
                return None  # a decorator may return another function
            if value is None or inner is None or not isinstance(value, (ast.Name, ast.Attribute)):
                return None
            return home._class_given(value, inner, depth + 1)
        return None

    def _call_of_annotated(self, name: ast.Name, scope: Scope, path: _Path, result, follow: Follow) -> bool:
        """Calling a parameter annotated with a class of the project (`block: Block`; `block(v)`) runs the
        class's `__call__`: follow it, and say whether it was followed. Not followed (False) when the class
        has no `__call__` of its own or its bases' in its module, or a subclass there defines it again."""
        binding = self.ix.single_binding(name.id, scope)
        if binding is None or binding.kind is not BindingKind.PARAM or is_self_param(binding):
            return False
        found = self.instances.class_of(name, scope)
        if found is None:
            return False
        owner, cls = found
        member = type_member(owner, cls, "__call__")
        if owner.members.overridden(cls, "__call__"):
            return False
        if isinstance(member, NotFollowed) and not member.library:
            # (a decorator, metaclass or outside store may set it: a record, never a silence; a library base is
            # left to the parameter's other readings, as before)
            what = f"which `__call__` `{cls.name}` runs"
            return self._run_found(member, what, "__call__", name, path, result, follow)
        if not isinstance(member, TypeMember):
            return False
        return self._run_type_member(owner, cls, "__call__", name, path, result, follow)

    def _reach_call_value(self, call, scope, path: _Path, result, follow: Follow, within=None) -> None:
        """A call used as a callable: a shard_map construction, a wrapper such as jit(f) / partial(f), or an
        instance of a class of this module (calling it runs its __call__)."""
        if self._untraced and path.traced:
            return
        site = construction(self.ix, call, scope) or self._held_factory_site(call, scope)
        site = site or self._applied_factory_site(call, scope)
        if site is not None:
            self._add_site(site, path, result, follow)
            return
        if isinstance(call.func, ast.Name):
            binding = self.ix.single_binding(call.func.id, scope)
            if binding is not None and binding.kind is BindingKind.CLASS:
                self._run_type_member(self.model, binding.node, "__call__", call, path, result, follow)
                return
            if binding is not None and binding.kind is BindingKind.DEF:
                # A factory: `make()` returns the callable (`return jax.shard_map(f, ...)`).
                returned = single_return(binding.node)
                if returned is not None and follow.first_visit(returned, FACTORY_RETURN):
                    self._reach_callable(returned, self.ix.own_scope(binding.node), path, result, follow)
                elif returned is None:
                    self._returns_reaching(call, self._reaching_classes(call, scope), result)
                return
            made = self._made_by_type(binding)
            if made is not None:
                self._made_class_called(call, made, binding, result)
                return
        qname = self.qualname(call.func, scope)
        if self.lost.follows(qname):
            kind = self.project.kind_of(qname)  # type: ignore[union-attr]
            if kind is BindingKind.CLASS:
                self._reach_import(qname, call.func, path, result, follow=follow)  # an instance of a class of another module
                return
            if kind is BindingKind.DEF:
                self._reach_import(qname, call.func, path, result, returned=True)  # a factory of another module
                return
            far = self._shard_map_factory_elsewhere(call, scope)
            if far is not None:
                result.unresolved.append((call, far))
                return
            if kind is BindingKind.ASSIGN:
                found = self.project.binding(qname)  # type: ignore[union-attr]
                home = self._other(found[0]) if found is not None and found[0] is not self.model else None
                made = home._made_by_type(found[1]) if home is not None else None
                if made is not None:  # `from pkg.layers import Layer`, `Layer = type(...)` there
                    home._made_class_called(call, made, found[1], result, elsewhere=True)  # type: ignore[index]
                    return
        if qname in jaxapi.INSTANCE_REPLACE or self._class_of_value(call, scope):
            # (its `__call__` may reach a shard_map whose specs read the fields it gives: never silent)
            how = "copies an instance" if qname in jaxapi.INSTANCE_REPLACE else "builds an instance of the class of a value"
            what = f"`{short(call.func)}(...)` {how} with fields of its own: which callable it gives is not followed"
            result.unresolved.append((call, what))
            return
        if isinstance(call.func, ast.Attribute) and qname is None and self._method_result(call, scope, path, result, follow):
            return  # `self.make()`, `model.make()`: what the method of a class of the project returns
        if isinstance(call.func, ast.Attribute) and qname is None:
            # `Layer().clone(AXIS='data')`, `base.clone(...)`: what a method gives, made from a class of the
            # project whose method reaches a shard_map (breaker9 t40's copy, vmapped itself)
            reaching = self._reaching_classes(call, scope)
            if reaching:
                cls, name, place = reaching[0]
                what = (
                    f"`{short(call.func)}(...)` gives a callable whose class the analysis does not know; it is built "
                    f"from `{cls.name}`, whose `{name}` ({place}) reaches a shard_map"
                )
                result.unresolved.append((call, what))
                return
        reexported = self._reexported_shard_map(call, scope)
        if reexported is not None:
            result.unresolved.append((call, reexported))
            return
        if self._same_callable(call, scope):  # functools.wraps(fn)(g), functools.update_wrapper(g, fn): g
            self._reach_callable(call.args[0], scope, path, result, follow, within=within)
            return
        if isinstance(call.func, (ast.Name, ast.Attribute)) and self._applied_named_partial(
            call, scope, path, result, follow, within
        ):
            return
        if self._partial_not_followed(call, scope, result):
            return
        target = call.func
        if isinstance(call.func, ast.Call):
            # partial(jax.jit, static_argnums=...)(f) and friends: a wrapper factory applied to f.
            inner = call.func
            if self.qualname(inner.func, scope) in jaxapi.PARTIAL_NAMES and inner.args:
                target = inner.args[0]
                qname = self.qualname(target, scope)
                if qname in jaxapi.PARTIAL_NAMES:
                    return
                known = (jaxapi.JIT_NAMES, jaxapi.WRAPPER_NAMES, jaxapi.VMAP_NAMES)
                if not any(qname in names for names in known) and (qname is None or self.lost.follows(qname)):
                    # `partial(wrap, k=1)(f)`: what a function of the project returns for these arguments
                    # (silent before; `wrap(f, k=1)` itself was already such a record)
                    result.unresolved.append((call, _partial_applied(inner, target)))
                    return
                if qname in jaxapi.JIT_NAMES:
                    self._add_jit(inner, result)
                    if call.keywords:
                        self._add_jit(call, result)  # `partial(jax.jit)(f, out_shardings=...)`: as `JIT(f, ...)`
            elif self.qualname(inner.func, scope) in jaxapi.JIT_NAMES:
                self._add_jit(inner, result)  # jax.jit(out_shardings=...)(f): jit without its function
        if qname in jaxapi.JIT_NAMES and target is call.func:
            self._add_jit(call, result)
        if qname in jaxapi.PARTIAL_NAMES and call.args and self.qualname(call.args[0], scope) in jaxapi.JIT_NAMES:
            # `JIT_Y = partial(jax.jit, out_shardings=...)` reached as the callee of `JIT_Y(f)(v)` or as the
            # decorator `@JIT_Y`: its shardings apply on the way (breaker14 r15, r16: rename to their 'y' was
            # SAFE and raised `DuplicateSpecError`, P('y', 'y'))
            self._add_jit(call, result)
        if qname in jaxapi.PARTIAL_NAMES or qname in jaxapi.WRAPPER_NAMES or qname in jaxapi.VMAP_NAMES:
            if call.args:
                step = path.through_vmap(call) if qname in jaxapi.VMAP_NAMES else path
                step = step.through_jit() if qname in jaxapi.JIT_NAMES else step
                step = step.through_grad() if qname in jaxapi.DIFFERENTIATING_NAMES else step
                self._reach_callable(call.args[0], scope, step, result, follow, within=within)
        elif qname is None and isinstance(call.func, ast.Attribute) and self._container(call.func.value, scope):
            # `fns.get("a")` with `fns = {"a": layer}`: a callable read out of a container the module fills (silent
            # before: "All checks passed!" while JAX raised SPMD001's error, lead's probe v23). A method of any
            # other object is left as before (`_reaching_classes` above records the project's classes).
            what = f"`{short(call)}` reads the callable out of a container, which is not followed"
            result.unresolved.append((call, what))

    def _returns_reaching(self, call: ast.Call, reaching: list, result: ReachResult) -> None:
        """The result of `call` of a function (or method) of the project without one `return` (several, or none of a
        value) is called: an SPMD910 record when its `return`s name a class whose method reaches a shard_map
        (`reaching`, `_reaching_classes`: `if flag: return Wide() / return Narrow()`): which one it gives is not
        followed (silent before)."""
        if reaching:
            cls, name, place = reaching[0]
            what = (
                f"`{short(call)}` returns one of several values, which is not followed; one is built from "
                f"`{cls.name}`, whose `{name}` ({place}) reaches a shard_map"
            )
            result.unresolved.append((call, what))

    def _made_by_type(self, binding: Binding | None) -> ast.Call | None:
        """The `type(name, bases, namespace)` call a name is bound to once (`Layer = type('Layer', (Base,), {})`,
        the builtin `type`), or None."""
        if binding is None or binding.kind is not BindingKind.ASSIGN or not isinstance(binding.node, ast.Call):
            return None
        made = binding.node
        is_type = isinstance(made.func, ast.Name) and made.func.id == "type" and not self.ix.lookup("type", binding.scope)
        return made if is_type and len(made.args) == 3 and not made.keywords else None

    def _made_class_called(
        self, call: ast.Call, made: ast.Call, binding: Binding, result: ReachResult, elsewhere: bool = False
    ) -> None:
        """An instance of a class made by `type(...)` (`made`, bound to `binding` in this walker's module) is called
        (`Layer()(v)`, breaker11 a08: silent): its `__call__` is not looked up, so an SPMD910 record at `call` when
        the bases or namespace `made` names hold a class whose method reaches a shard_map. `elsewhere`: `call` is
        in another module (which imports the class), so the record names this module."""
        reaching = self._reaching_classes(made, binding.scope)
        if not reaching:
            return
        cls, name, place = reaching[0]
        where = f"line {made.lineno} of {relpath(self.ix.path)}" if elsewhere else f"line {made.lineno}"
        what = (
            f"`{binding.name}` is a class made by `type(...)` ({where}), whose `__call__` spmdfix does not "
            f"look up; it is built from `{cls.name}`, whose `{name}` ({place}) reaches a shard_map"
        )
        result.unresolved.append((call, what))

    def _class_of_value(self, call: ast.Call, scope: Scope) -> bool:
        """Whether `call` builds an instance of the class of a value, `type(layer)(AXIS='data')` (the builtin
        `type`, one argument): which class, and what its fields hold, is not followed (breaker9 t41: dropped
        without a record while JAX raised)."""
        inner = call.func
        return (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Name)
            and inner.func.id == "type"
            and len(inner.args) == 1
            and not inner.keywords
            and self.ix.single_binding("type", scope) is None
        )

    def _reexported_shard_map(self, expr: ast.AST, scope: Scope) -> str | None:
        """Why a call (or decorator) spelling JAX's shard_map through a module of the project is not read, or
        None: `shard_map(body, mesh=..., in_specs=...)` (or `partial(shard_map, ...)`) where `shard_map` is
        `from pkg.compat import shard_map` and pkg/compat.py holds `from jax import shard_map` or `shard_map =
        jax.shard_map` (`ProjectLink.library_name`). Silence before (breaker8: JAX raised SPMD001's error,
        spmdfix printed "All checks passed!")."""
        if self.project is None:
            return None
        callee = expr.func if isinstance(expr, ast.Call) else expr
        if isinstance(expr, ast.Call) and self.qualname(callee, scope) in jaxapi.PARTIAL_NAMES and expr.args:
            callee = expr.args[0]
        if not isinstance(callee, (ast.Name, ast.Attribute)):
            return None
        qname = self.qualname(callee, scope)
        if not self.lost.follows(qname):
            return None
        target = self.project.library_name(qname)
        if target not in jaxapi.SHARD_MAP_APIS:
            return None
        return (
            f"`{short(callee)}` is `{target}` re-exported by a module of the project (`{qname}`): a shard_map "
            "spelled through a module of the project is not read"
        )

    def _shard_map_factory_elsewhere(self, call: ast.Call, scope: Scope) -> str | None:
        """Why `smap(body, in_specs=..., out_specs=...)` is not followed, when `smap` is a value of another module
        of the project that is a shard_map waiting for its function (`smap = functools.partial(jax.shard_map,
        mesh=MESH)` in pkg/utils.py): its keywords there and this call's together make the shard_map, read in two
        modules, which `construction` does not do. None otherwise. Silence before (breaker8 t28: JAX raised
        SPMD001's error, spmdfix printed "All checks passed!")."""
        far = self.model.ev.follow(call.func, scope)
        if far is None or far[0] is self.model.ev:
            return None
        home, value, where = far
        if factory(home.ix, value, where) is None:
            return None
        return (
            f"`{short(call.func)}` is a shard_map waiting for its function in another module (`{short(value)}`, "
            f"{relpath(home.ix.path)} line {value.lineno}): the shard_map this call makes with it is not read"
        )

    def _same_callable(self, call: ast.Call, scope: Scope) -> bool:
        """Whether `call` returns its first argument, the callable it is given (`jaxapi.SAME_CALLABLE_WRAPS`,
        `SAME_CALLABLE_UPDATE`): `functools.wraps(fn)(g)` and `functools.update_wrapper(g, fn)` copy `fn`'s name
        and docstring onto `g` and return `g` (breaker6 r02: `return functools.wraps(fn)(jax.shard_map(fn, ...))`
        in a project decorator was dropped without a record)."""
        if not call.args or isinstance(call.args[0], ast.Starred):
            return False
        if isinstance(call.func, ast.Call):
            return self.qualname(call.func.func, scope) in jaxapi.SAME_CALLABLE_WRAPS
        return self.qualname(call.func, scope) in jaxapi.SAME_CALLABLE_UPDATE

    def _unknown_receiver(self, func: ast.Attribute, scope: Scope) -> str | None:
        """Why `blk.apply(...)` may reach a shard_map the walk cannot see, or None: `blk` is a parameter whose
        object is not known (no class annotation: `Instances.method_of` gave none) and a class of this module
        defines a method `apply` that reaches a shard_map (issue 22). A method no class of the module defines
        that way (`x.mean()`, flax's `model.apply`) cannot lead to a finding here: no record (docs/rules.md,
        "methods of a parameter")."""
        binding = self.ix.single_binding(func.value.id, scope)
        if binding is None or binding.kind is not BindingKind.PARAM:
            return None
        methods = self._methods_reaching(func.attr)
        if not methods:
            return None
        owner = self.ix.enclosing_function(binding.node)
        of = f" of `{owner.name}`" if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) else ""
        named = ", ".join(f"`{cls.name}.{func.attr}` (line {m.lineno})" for cls, m in methods[:2])
        return (
            f"`{func.value.id}` is a parameter{of}: which object it receives, and so what `{short(func)}` calls, "
            f"is not known; {named} reach{'es' if len(methods) == 1 else ''} a shard_map"
        )

    def _library_member(self, func: ast.Attribute, scope: Scope) -> str | None:
        """Why `module.apply(...)` may reach a shard_map the walk cannot see, or None: `module` is an instance of
        a class of the project (`Block(8)`; of this module or another, read there by `_other`) that does not
        define `apply`, a library base class does
        (`flax.linen.Module.apply` calls the instance's `__call__`), and a method of the class reaches a
        shard_map. Found by breaker5 (safety/trials/breaker5/progs/q25_linen_apply_shardmap_collide): JAX
        raised SPMD001's error and spmdfix printed nothing."""
        found = self.instances.class_of(func.value, scope)
        if found is None:
            return None
        owner, cls = found
        # a class of another module of the project (`from pkg.layers import Block`) is read in its module, by a
        # walker of that module (silent before: only this module's classes were read)
        home = self if owner is self.model else self._other(owner)
        if home.members.member(cls, func.attr) is not None:
            return None
        library = [b for b in cls.bases if not home._project_class(b)]
        if not library:
            return None
        methods = [m for m in home.members.members_of(cls)[0] if any(c is cls for c, _ in home._methods_reaching(m))]
        if not methods:
            return None
        node = home.members.member(cls, methods[0])[0]
        where = f"line {node.lineno}" if owner is self.model else f"line {node.lineno} of {relpath(owner.ix.path)}"
        return (
            f"`{short(func)}` is not defined by `{cls.name}` but by its library base `{short(library[0])}`, which may "
            f"call `{cls.name}.{methods[0]}` ({where}), a method reaching a shard_map: the analysis does "
            "not follow library code calling back into the class"
        )

    def _untyped_receiver(self, func: ast.Attribute, scope: Scope) -> str | None:
        """Why `layer.apply(...)` (or `Layer().clone(...).apply(...)`) may reach a shard_map the walk cannot see,
        or None: the object `layer` holds is made by a call whose class the analysis does not know (`layer =
        Layer().clone(AXIS='data')`: flax's `clone`, a method of the library base) and that names a class of the
        project with a method reaching a shard_map (`_reaching_classes`). Found by breaker9 t40: JAX raised
        SPMD001's error and spmdfix printed "All checks passed!". A parameter's object is `_unknown_receiver`'s;
        an object naming no such class (`x = jnp.ones(3)`; `x.mean()`) cannot lead to a finding: no record."""
        receiver = func.value
        if isinstance(receiver, ast.Call):
            if self.instances.class_named(receiver.func, scope) is not None:
                return None  # `Layer().apply`: the construction is walked, which runs `__call__` (as on main)
            made, where = receiver, scope
        elif isinstance(receiver, ast.Name):
            binding = self.ix.single_binding(receiver.id, scope)
            if binding is None or binding.kind is not BindingKind.ASSIGN or not isinstance(binding.node, ast.Call):
                return None
            if self.instances.class_of(receiver, scope) is not None:
                return None  # a construction of a class of the project: `method_of` / `_library_member` judge it
            made, where = binding.node, binding.scope
        else:
            return None
        reaching = self._reaching_classes(made, where)
        if not reaching:
            return None
        cls, name, where_text = reaching[0]
        holds = f"`{receiver.id}` holds `{short(made)}`" if isinstance(receiver, ast.Name) else f"`{short(made)}` is called"
        return (
            f"`{short(func)}` is called on an object whose class the analysis does not know ({holds}); it is built "
            f"from `{cls.name}`, whose `{name}` ({where_text}) reaches a shard_map"
        )

    def _reaching_classes(self, made: ast.AST, where: Scope) -> list[tuple[ast.ClassDef, str, str]]:
        """(class, method name, where the method is, in words) for each class of the project that `made` names
        (`Layer` in `Layer().clone(AXIS='data')`, the class of `base` in `base.clone(...)` with `base = Layer()`,
        a class a function of the project named there returns: `make_layer('data')` with `def make_layer(axis):
        return Layer(AXIS=axis)`) whose method reaches a shard_map (`_methods_reaching`, read in the class's
        module)."""
        out = []
        seen: set[int] = set()
        for owner, cls in self._classes_named(made, where, set()):
            if id(cls) in seen:
                continue
            seen.add(id(cls))
            home = self if owner is self.model else self._other(owner)
            names = sorted(home.members.members_of(cls)[0], key=lambda n: n != "__call__")  # (what calling it runs first)
            for name in names:
                if any(c is cls for c, _ in home._methods_reaching(name)):
                    node_at = home.members.member(cls, name)[0]
                    place = f"line {node_at.lineno}" if owner is self.model else f"line {node_at.lineno} of {relpath(owner.ix.path)}"
                    out.append((cls, name, place))
                    break
            else:
                place = self._inherited_call_reaching(owner, cls)
                if place is not None:
                    out.append((cls, "__call__", place))
        return out

    def _inherited_call_reaching(self, owner: ModuleModel, cls: ast.ClassDef) -> str | None:
        """Where the `__call__` the instances of `cls` (a class of module `owner`) run is, in words, when its body
        does not define it and the one a base defines (`type_member`: `class Wide(Base)`, `Base` of another module
        of the project) reaches a shard_map, here or in another module; None otherwise."""
        if id(cls) in self._call_reaching:
            return self._call_reaching[id(cls)]
        self._call_reaching[id(cls)] = None  # (a `__call__` reaching its own class again: no cycle)
        found = type_member(owner, cls, "__call__")
        if not isinstance(found, TypeMember) or not isinstance(found.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        home = self if found.home is self.model else self._other(found.home)
        walk = ReachResult()
        home._reach_function(found.node, _Path(), walk, Follow(REACH))
        if not (walk.sites or walk.external):
            return None
        line = found.node.lineno
        place = f"line {line}" if found.home is self.model else f"line {line} of {relpath(found.home.ix.path)}"
        self._call_reaching[id(cls)] = place
        return place

    def _classes_named(
        self, made: ast.AST, where: Scope, entered: set[int]
    ) -> list[tuple[ModuleModel, ast.ClassDef]]:
        """The classes of the project `made` names (`_reaching_classes`), with their modules' models: a class, an
        instance of one (`class_of`), and what a function of the project named there returns (each function once:
        `entered`, at most 8)."""
        out = []
        for node in ast.walk(made):
            if not isinstance(node, (ast.Name, ast.Attribute)):
                continue
            found = self.instances.class_named(node, where)
            if found is None and isinstance(node, ast.Name):
                found = self.instances.class_of(node, where)
            if found is not None:
                out.append(found)
                continue
            func = self._project_def(node, where)
            if func is None or id(func[1]) in entered or len(entered) >= 8:
                continue
            home, fdef = func
            entered.add(id(fdef))
            inner = home.ix.own_scope(fdef)
            for value in (returns(fdef) or []) if inner is not None else []:
                out += home._classes_named(value, inner, entered)
        return out

    def _project_def(self, node: ast.AST, where: Scope) -> tuple[Reacher, ast.AST] | None:
        """The `def` of the project the name or attribute `node` (read in `where`) is, with a walker of its module."""
        if isinstance(node, ast.Name):
            binding = self.ix.single_binding(node.id, where)
            if binding is not None and binding.kind is BindingKind.DEF:
                return self, binding.node
        qname = self.qualname(node, where)
        if not self.lost.follows(qname):
            return None
        found = self.project.binding(qname)  # type: ignore[union-attr]
        if found is None or found[1].kind is not BindingKind.DEF:
            return None
        return (self if found[0] is self.model else self._other(found[0])), found[1].node

    def _other(self, owner: ModuleModel) -> Reacher:
        """A walker of another module of the project (`_library_member`), one a module per walker."""
        found = self._others.get(id(owner))
        if found is None:
            found = self._others[id(owner)] = Reacher(owner)
        return found

    def _project_class(self, base: ast.AST) -> bool:
        """Whether a base class expression names a class of the project (this module's, or one the project
        index follows)."""
        if self.instances.names_class(base, self.ix.module_scope):
            return True
        qname = self.ix.qualname(base, self.ix.module_scope) if isinstance(base, (ast.Name, ast.Attribute)) else None
        return self.lost.follows(qname)

    def _methods_reaching(self, name: str) -> list[tuple[ast.ClassDef, ast.AST]]:
        """(class, method) for each class of this module whose method `name` (its own or a base's of this
        module) reaches a shard_map, here or in another module of the project; computed once a name a module."""
        if name not in self._reaching_methods:
            self._reaching_methods[name] = []  # (a method calling `x.name()` itself: no cycle)
            found = []
            classes = [s.node for s in self.ix.scope_by_node.values() if isinstance(s.node, ast.ClassDef)]
            for cls in classes:
                member = self.members.member(cls, name)
                method = member[0] if member is not None else None
                if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and all(m is not method for _, m in found):
                    walk = ReachResult()
                    self._reach_function(method, _Path(), walk, Follow(REACH))
                    if walk.sites or walk.external:
                        found.append((cls, method))
            self._reaching_methods[name] = found
        return self._reaching_methods[name]

    def _chunked(self, call: ast.Call, scope: Scope, result: ReachResult) -> bool:
        """A `jax.lax.map(f, xs, batch_size=k)` with `k` an int: a vmap over chunks (`jaxapi.BATCHED_MAP_NAMES`).
        No `batch_size`, or `None`: a scan. A value the evaluator cannot read is a lost place (SPMD910), not a
        guess either way."""
        size = next((k.value for k in call.keywords if k.arg == "batch_size"), None)
        if size is None or self.ev.is_none(size, scope):
            return False
        if self.ev.int_value(size, scope) is not None:
            return True
        result.unresolved.append((call, f"the `batch_size` of `jax.lax.map` (`{short(size)}`) is not known"))
        return False

    def _static_predicate(self, call: ast.Call, scope: Scope) -> bool:
        """The predicate (index) of a `lax.cond`/`lax.switch` call is a constant the evaluator reads: a bool or
        int literal, a name bound to one, a static shape read (`v.shape[0]`, `v.ndim`, `len(v)`), or `not`, a
        comparison, int arithmetic or `and`/`or` of those (`K > 0` with `K = 3` at module level, `v.shape[0] > 1`). No vmap batches such a value. Anything else (a value computed in the traced function) may
        be batched: not told apart."""
        pred = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg in ("pred", "index")), None)
        return pred is not None and self._constant(pred, scope)

    def _constant(self, expr: ast.AST, scope: Scope, depth: int = 8) -> bool:
        """A bool/int constant as `_static_predicate` reads it. A name counts when its one binding is an
        assignment of such a constant (not a parameter: a value passed in may be batched)."""
        if depth == 0:
            return False
        if isinstance(expr, ast.Constant):
            return type(expr.value) in (bool, int)
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.Not, ast.USub)):
            return self._constant(expr.operand, scope, depth - 1)
        if isinstance(expr, ast.BoolOp):
            return all(self._constant(v, scope, depth - 1) for v in expr.values)
        if isinstance(expr, ast.Compare):
            return all(self._constant(v, scope, depth - 1) for v in (expr.left, *expr.comparators))
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, _INT_ARITHMETIC):
            return self._constant(expr.left, scope, depth - 1) and self._constant(expr.right, scope, depth - 1)
        if self._static_shape_read(expr, scope):
            return True
        if isinstance(expr, ast.Name):
            binding = self.ix.single_binding(expr.id, scope)
            return (
                binding is not None and binding.kind is BindingKind.ASSIGN
                and self._constant(binding.node, binding.scope, depth - 1)
            )
        return False

    def _static_shape_read(self, expr: ast.AST, scope: Scope) -> bool:
        """`v.shape[0]`, `v.shape[-1]`, `v.ndim`, `len(v)` of a name `v`: a Python int even when `v` is a traced
        value a vmap batches (its shape is static; the batch dimension is not in it). Measured as cond/switch
        predicates (`v.shape[0] > 1`, `v.ndim == 1`, `len(v) > 1`, `v.shape[-1] >= 8`, `v.shape[0] > K`,
        `lax.switch(len(v) - 8, ...)`): safety/measurements/spmd008_cond_unbatched_predicate.py."""
        if isinstance(expr, ast.Attribute) and expr.attr == "ndim":
            return isinstance(expr.value, ast.Name)
        if isinstance(expr, ast.Subscript):
            shape, index = expr.value, expr.slice
            if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
                index = index.operand
            return (
                isinstance(shape, ast.Attribute) and shape.attr == "shape" and isinstance(shape.value, ast.Name)
                and isinstance(index, ast.Constant) and type(index.value) is int
            )
        return (
            isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len"
            and not self.ix.lookup("len", scope) and len(expr.args) == 1 and not expr.keywords
            and isinstance(expr.args[0], ast.Name)
        )

    def _add_jit(self, call: ast.Call, result: ReachResult) -> None:
        """Record a jit application on the way (`ReachResult.jits`), unless it is a decorator written above
        the spmd vmap's decorator on the same function (`@partial(jax.jit, ...)` over `@partial(jax.vmap,
        spmd_axis_name=...)`: it jits the vmap from outside)."""
        fn = self.ix.parent.get(id(call))
        decorators = getattr(fn, "decorator_list", None)
        if decorators and self._vmap is not None and call in decorators and self._vmap in decorators:
            if decorators.index(call) < decorators.index(self._vmap):
                return
        if call not in result.jits:
            result.jits.append(call)

    def _add_site(self, site: ShardMapSite, path: _Path, result, follow: Follow) -> None:
        """Record a shard_map reached: once per walk, and once more for each bound scope it is read in
        (`analyzer._unique` keeps one per way its specs read)."""
        key = site.node if bound_for(site.scope) is None else site.scope
        if self._untraced and path.traced or not follow.first_visit(key, SHARD_MAP_SITE, site.node):
            return
        if site.unreadable is not None:
            result.unresolved.append((site.node, site.unreadable))
            return
        result.sites.append(
            ReachedSite(site, path.chain, path.vmaps, path.nodes, path.jitted, path.staged, path.cond_staged)
        )

    def _reach_function(self, func, path: _Path, result, follow: Follow, as_body=False, bound=None) -> None:
        """Walk the function `func` (each once, and once more for each call binding its parameters: `bound`,
        `_local_bound`, `External.bound`): its calls, and the shard_map it is when decorated as one. What the
        walk adds to `result.unresolved` and `result.external` meanwhile is marked as met inside a function
        (`ReachResult.bodies`)."""
        if self._untraced and path.traced or not follow.first_visit(func, FUNCTION, bound):
            return
        u0, e0 = len(result.unresolved), len(result.external)
        try:
            self._walk_function(func, path, result, follow, as_body, bound)
        finally:
            if len(result.unresolved) > u0 or len(result.external) > e0:
                result.bodies.append((u0, len(result.unresolved), e0, len(result.external)))

    def _walk_function(self, func, path: _Path, result, follow: Follow, as_body: bool, bound) -> None:
        """`_reach_function`'s walk of `func`, entered once."""
        site = None if as_body else decorated_site(self.ix, func) or self._held_factory_decorator(func)
        if site is not None and bound is not None:
            site = replace(site, scope=self._scope_in(site.scope, bound))  # a `def` of a function read so
        if site is not None:
            self._add_site(site, path, result, follow)
            return
        if not as_body:
            self._project_decorators(func, path, result, follow)
            self._custom_rules(func, path, result, follow)
            self._dispatching(func, result)
        # A vmap decorating a function reached through a call is a vmap on the way (hazard H2); the
        # spmd vmap's own target (empty chain) and a shard_map body are not.
        if path.chain and isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            deco = self.ix.decorator_in(func, jaxapi.VMAP_NAMES)
            if deco is not None:
                path = path.through_vmap(deco)
        # A jit decorator of the spmd vmap's own target written above the vmap's decorator wraps the vmap from
        # outside: it stages nothing between the vmap and the shard_map (measured: safety/measurements/
        # nested_shard_map_placed_batch.py, "a jit only around the vmap"; fuzz seed 290565, a nested shard_map
        # naming the spmd axis raises SPMD001's `vmapped away explicit mesh axis ...`, not SPMD008's error).
        own = not path.chain and self._vmap is not None and self._vmap in getattr(func, "decorator_list", ())
        if self.ix.decorator_in(func, jaxapi.JIT_NAMES, self._vmap if own else None) is not None:
            path = path.through_jit()
        if follow.first_visit(func, TRACED):
            result.functions.append(func)
        # A body's own shard_map decorator (`@partial(jax.shard_map, mesh=config.MESH, ...)`) is evaluated when
        # the `def` runs, not traced in the body: its arguments are no callees of the body (newuser13 p1: an
        # imported mesh was read as "a function of another module the shard_map body calls", an SPMD910 record
        # that left every fix unsafe).
        outside = _decorator_calls(self.ix, func) if as_body else frozenset()
        for call in self.ix.calls_in(func):
            if self._untraced and self._in_staged_lambda(call, func) or id(call) in outside:
                continue
            self._reach_from_call(call, path, result, follow, bound)

    def _dispatching(self, func: ast.AST, result: ReachResult) -> None:
        """A `def` decorated with `functools.singledispatch` (or `singledispatchmethod`) runs the implementation
        registered for its first argument's type (`@op.register(jax.core.Tracer)`), not its own body: an SPMD910
        record at the decorator (breaker16 r05: the registered function's `psum` over 'y' was not read, the
        rename to 'y' was SAFE and the renamed program's values changed). Its own body is walked as before."""
        for deco in getattr(func, "decorator_list", ()):
            if isinstance(deco, (ast.Name, ast.Attribute)) and self.qualname(deco, self.ix.scope_at(func)) in _DISPATCH_NAMES:
                what = f"`{func.name}` is a `{short(deco)}` function: which registered implementation runs is not followed"  # type: ignore[attr-defined]
                result.unresolved.append((deco, what))

    def _project_decorators(self, func: ast.AST, path: _Path, result: ReachResult, follow: Follow) -> None:
        """A `def` on the way decorated by a function of the project (`@data_parallel` with `def
        data_parallel(fn): return jax.shard_map(fn, ...)`): what runs is what the decorator returns, so the walk
        follows that return as it follows the call form `data_parallel(softplus)` (`_reach_call_value`'s
        factory), the decorator's own parameter read as the decorated function (`_decorated`, in this module). A
        decorator factory (`@data_parallel(axis="data")`) is followed to the decorator it returns first. A
        decorator the walk cannot read so (no one `return`, a factory returning something else than a `def`) is
        an SPMD910 record at the decorator: silent before (breaker4's p30b: JAX raised SPMD001's error, "All
        checks passed!"). Library decorators (`functools.wraps`, `jax.jit`, ...) are not the project's and are
        known or followed as before."""
        scope = self.ix.scope_at(func)
        for deco in getattr(func, "decorator_list", ()):
            reexported = self._reexported_shard_map(deco, scope)
            if reexported is not None:  # `@partial(shard_map, ...)`, `shard_map` from a compat module
                result.unresolved.append((deco, reexported))
                continue
            jit = self._named_jit_factory(deco, scope)
            if jit is not None and jit[0] is self.ev:
                self._add_jit(jit[1], result)  # `@JIT_Y` with `JIT_Y = partial(jax.jit, out_shardings=...)`
                continue
            if jit is not None:  # another module's: its shardings are read with that module's names, not here
                what = (
                    f"`{func.name}` is decorated by `{short(deco)}`, a `functools.partial` of `jax.jit` in another "
                    "module: its `in_shardings` / `out_shardings` are not read"
                )
                result.unresolved.append((deco, what))
                continue
            unfollowed = self._unfollowed_partial(deco, scope) if isinstance(deco, (ast.Name, ast.Attribute)) else None
            if unfollowed is not None:
                # `@JIT_Y` whose partial the evaluator does not trust (a module's text writes `m.JIT_Y = ...`): its
                # out_shardings were not read, rename onto their 'y' was SAFE and raised `DuplicateSpecError`
                # (breaker17, on main too)
                result.unresolved.append((deco, unfollowed))
                continue
            target = deco.func if isinstance(deco, ast.Call) else deco
            owner, named = self.model, self.ix.function_of(target)
            found = None
            if named is None and self.project is not None:
                qname = self.qualname(target, scope)
                found = self.project.binding(qname) if qname and self.lost.follows(qname) else None
                if found is not None and found[1].kind is BindingKind.DEF:
                    owner, named = found[0], found[1].node
            if named is None and self._class_decorator(target, scope, found):
                step = path.step(
                    f"`{func.name}` is an instance of `{short(target)}` here", self.ix.lines.span_of_ast(deco), deco
                )
                why = self._follow_class_decorator(deco, target, scope, found, func, step, result, follow)
                if why is not None:
                    what = (
                        f"`{func.name}` is decorated by `{short(target)}`, a class of the project: `{func.name}` names "
                        f"an instance of it, and calling it runs the class's `__call__`, which spmdfix does not follow "
                        f"here: {why}"
                    )
                    result.unresolved.append((deco, what))
                continue
            if named is None:
                continue
            name = short(target)
            step = path.step(f"`{func.name}` is decorated by `{name}` here", self.ix.lines.span_of_ast(deco), deco)
            if self._factory_shard_map(deco, owner, named, func, scope, step, result, follow):
                continue
            decorator, made_by = named, None
            if isinstance(deco, ast.Call):  # `@data_parallel(axis="data")`: the factory returns the decorator
                made = single_return(named)
                decorator = owner.ix.function_of(made) if made is not None else None
                if owner is not self.model:
                    # the factory's parameters are this call's arguments (`@parallel.sharded(parallel.DATA)`: an
                    # SPMD910 record at `P(axis)` before, breaker6 r02); in its own module its calls are read
                    made_by = self._bound_by((deco, scope), owner, named)
            if not self._follow_decorator(owner, decorator, func, step, result, follow, made_by):
                what = (
                    f"`{func.name}` is decorated by `{name}`, a function of the project: spmdfix reads a decorator "
                    "(or a decorator factory's decorator) that is a `def` with one `return` of a callable, not this one"
                )
                if isinstance(deco, ast.Call) and self._returns_shard_map_factory(owner, named):
                    # (it is one: what stops the walk is where the factory lives, newuser11 finding 3)
                    what = (
                        f"`{func.name}` is decorated by `{name}(...)`, a decorator factory of "
                        f"{relpath(owner.project.path if owner.project is not None else owner.ix.path)} returning a "
                        "shard_map factory: the shard_map it makes of "
                        f"`{func.name}` is followed only when the factory is a function of the module of `{func.name}`"
                    )
                result.unresolved.append((deco, what))

    def _factory_shard_map(
        self, deco: ast.AST, owner: ModuleModel, factory_def: ast.AST, func: ast.AST, scope: Scope, path: _Path,
        result: ReachResult, follow: Follow,
    ) -> bool:
        """`@sharded(P('data'))` over `func`, `sharded` a `def` of this module whose one `return` is a shard_map
        factory (`return partial(jax.shard_map, mesh=MESH, in_specs=spec, out_specs=spec)`): `func` is then a
        shard_map of `func` with those arguments, read in the factory's scope with its parameters bound to the
        decorator call's arguments (`_bound_by`; as every call reads them when they cannot be bound). The site is
        the returned factory (`check_vma=False` and the like go there). Says whether `deco` is such a decorator
        (newuser11 p3: an SPMD910 record saying the factory was not "a `def` with one `return` of a callable").
        A factory of another module is left to the record (its site would lie in that module, its body here)."""
        if not isinstance(deco, ast.Call) or owner is not self.model:
            return False
        made, inner = single_return(factory_def), self.ix.own_scope(factory_def)
        found = factory(self.ix, made, inner) if made is not None and inner is not None else None
        if found is None:
            return False
        api, kwargs, where, unreadable = found
        bound = self._bound_by((deco, scope), self.model, factory_def)
        node = made if isinstance(made, ast.Call) else deco
        site = ShardMapSite(
            node, self._scope_in(where, bound), api, func, self.ix.scope_at(func), dict(kwargs), unreadable
        )
        self._add_site(site, path.step("shard_map applied here", self.ix.lines.span_of_ast(node), node), result, follow)
        return True

    @staticmethod
    def _returned_factory(owner: ModuleModel, factory_def: ast.AST):
        """The shard_map factory (`shard_maps.factory`) the `def` `factory_def` of module `owner` returns by its
        one `return`, or None."""
        made, inner = single_return(factory_def), owner.ix.own_scope(factory_def)
        return factory(owner.ix, made, inner) if made is not None and inner is not None else None

    @classmethod
    def _returns_shard_map_factory(cls, owner: ModuleModel, factory_def: ast.AST) -> bool:
        """Whether the `def` `factory_def` of module `owner` returns a shard_map factory by its one `return`."""
        return cls._returned_factory(owner, factory_def) is not None

    def _class_decorator(self, target: ast.AST, scope: Scope, found) -> bool:
        """Whether the decorator `target` (written `@target` or `@target(...)`) is a class of the project: a class
        of this module bound once to the name, or `found`, the project's binding of its qualified name, a class
        (breaker6 r04: `@DataParallel` whose `__init__` keeps `jax.shard_map(fn, ...)` and whose `__call__` applies
        it; JAX raised SPMD001's error, spmdfix was silent)."""
        if isinstance(target, ast.Name):
            binding = self.ix.single_binding(target.id, scope)
            if binding is not None and binding.kind is BindingKind.CLASS:
                return True
        return found is not None and found[1].kind is BindingKind.CLASS

    def _follow_class_decorator(
        self, deco: ast.AST, target: ast.AST, scope: Scope, found, func: ast.AST, path: _Path, result: ReachResult,
        follow: Follow,
    ) -> str | None:
        """Follow `@Cls` over `func`: `func` names `Cls(func)`, and calling it runs `Cls.__call__` on that
        instance (breaker6 r04: `__init__` keeps `jax.shard_map(fn, ...)`, `__call__` applies it). Followed when
        what runs is the class's own code (`callable_class`) and `func` closes over nothing of a function around
        it (a module-level `def`: the body the class's shard_map maps then captures nothing batched, which the
        analysis would not read through `__init__`'s parameter). Returns None when followed, else why not."""
        if isinstance(deco, ast.Call):
            return "the class is called with arguments (`@Cls(...)`), so its instance is the decorator"
        local = self.ix.single_binding(target.id, scope) if isinstance(target, ast.Name) else None
        if local is not None and local.kind is BindingKind.CLASS:
            owner, cls = self.model, local.node
        elif found is not None:
            owner, cls = found[0], found[1].node
        else:
            return "the class is not found"
        if not isinstance(cls, ast.ClassDef):
            return "the class is not found"
        methods = callable_class(owner, cls)
        if isinstance(methods, str):
            return methods
        init, call = methods
        if self.ix.enclosing_function(func) is not None and closes_over_locals(self.ix, func):
            return (
                f"`{func.name}` closes over names of the function around it, which the class's shard_map body "
                "(its `__init__`'s parameter) would close over, and which are not read"
            )
        if owner is not self.model:
            result.external.append(External(path, owner, call, owner.ix.scope_at(call)))
            return None
        self._decorated[id(init.args.args[1])] = func
        self._reach_function(call, path, result, follow)
        return None

    def _follow_decorator(
        self, owner: ModuleModel, decorator: ast.AST | None, func: ast.AST, path: _Path, result: ReachResult,
        follow: Follow, made_by: BoundScope | None = None,
    ) -> bool:
        """Follow what `decorator`, a `def` of the module of `owner`, returns when it decorates `func`
        (`_project_decorators`). False when the walk cannot read it: not a `def`, no parameter, no one `return`.
        `made_by`: for a decorator another module's factory returns, the factory's scope with its parameters
        bound to the decorator call's arguments (`_bound_by`), which the return is read in (`External.bound`)."""
        if not isinstance(decorator, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        returned, inner = single_return(decorator), owner.ix.own_scope(decorator)
        params = [*decorator.args.posonlyargs, *decorator.args.args]
        if returned is None or inner is None or not params:
            return False
        if owner is not self.model:
            # the decorator's parameter is `func` (read per decoration: a `def` nested in a function and closing over
            # its names is a body whose captures are not read, an SPMD910 record there; leftovers7). A decorator
            # another module's factory returns is read in the factory's scope bound to the decorator call
            # (`made_by`): its own scope then sits under that one (a view, `_scope_in`), so that both its parameter
            # and the factory's are bound (the factory form was silent: leftovers8)
            home = inner if made_by is None else Scope(inner.node, made_by, inner.bindings)
            made_by = BoundScope(inner.node, home, {}, {params[0].arg: (self.ev, func, self.ix.scope_at(func))})
            result.external.append(External(path, owner, returned, inner, made_by))
            return True
        self._decorated[id(params[0])] = func
        if follow.first_visit(returned, FACTORY_RETURN):
            self._reach_callable(returned, inner, path, result, follow)
        return True

    def _custom_rules(self, func: ast.AST, path: _Path, result: ReachResult, follow: Follow) -> None:
        """The custom derivative rules of `func` when it is decorated `@jax.custom_vjp` / `@jax.custom_jvp`: the
        rules its module registers (`func.defvjp(fwd, bwd)`, `func.defjvp(jvp)`, `@func.defjvp`) run in its place
        when it is differentiated (breaker4's p25: a shard_map in `fwd` under `vmap(grad(loss))` raised SPMD001's
        error, and spmdfix was silent). With a differentiating transform on the way (`_Path.differentiated`)
        the rules are walked as traced code. Without one, the vmap may still be differentiated from outside
        (`jax.grad` of a function that calls it): a rule that reaches a shard_map or code the walk cannot see
        is an SPMD910 record at the decorator, never a finding (undifferentiated, the rules do not run)."""
        batching = self.ix.decorator_in(func, jaxapi.CUSTOM_VMAP_NAMES)
        if batching is not None:
            # a custom batching rule runs in place of `func` under any vmap, the spmd one included: walked as
            # traced code (breaker16 s03)
            for rule, scope in self._rules_of(func, jaxapi.CUSTOM_VMAP_RULE_METHODS):
                step = path.step(f"`{short(rule)}` is the batching rule of `{func.name}`", self.ix.lines.span_of_ast(rule), rule)
                if isinstance(rule, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._reach_function(rule, step, result, follow, as_body=True)
                else:
                    self._reach_callable(rule, scope, step, result, follow)
        deco = self.ix.decorator_in(func, jaxapi.CUSTOM_DERIVATIVE_NAMES)
        if deco is None:
            return
        rules = self._rules_of(func)
        if not rules:
            return
        scratch = result if path.differentiated else ReachResult()
        for rule, scope in rules:
            step = path.step(f"`{short(rule)}` is a derivative rule of `{func.name}`", self.ix.lines.span_of_ast(rule), rule)
            if isinstance(rule, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._reach_function(rule, step, scratch, follow, as_body=True)
            else:
                self._reach_callable(rule, scope, step, scratch, follow)
        if scratch is not result and (scratch.sites or scratch.external or scratch.unresolved):
            names = ", ".join(f"`{short(r)}`" for r, _ in rules)
            what = (
                f"`{func.name}` has custom derivative rules ({names}) that reach a shard_map or code spmdfix cannot "
                "follow; they run when it is differentiated, and no differentiating transform is on the vmap's way "
                "(one outside the vmap is not looked for)"
            )
            result.unresolved.append((deco, what))

    def _rules_of(self, func: ast.AST, methods: frozenset[str] = jaxapi.CUSTOM_RULE_METHODS) -> list[tuple[ast.AST, Scope]]:
        """The derivative rules the module registers for `func` (`_custom_rules`): the callables passed to
        `func.defvjp(...)` / `func.defjvp(...)` / `func.defjvps(...)`, and the defs decorated `@func.defjvp`,
        each with the scope it is read in (`methods`: other registering methods, `def_vmap`)."""
        found: list[tuple[ast.AST, Scope]] = []
        for method_name in methods:
            for attr in self.ix.attributes_named(method_name):
                if not isinstance(attr.value, ast.Name) or self.ix.function_of(attr.value) is not func:
                    continue
                up = self.ix.parent.get(id(attr))
                if isinstance(up, ast.Call) and up.func is attr:
                    scope = self.ix.scope_at(up)
                    found += [(a, scope) for a in [*up.args, *(k.value for k in up.keywords)] if not isinstance(a, ast.Starred)]
                elif isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)) and attr in up.decorator_list:
                    found.append((up, self.ix.scope_at(up)))
        return found

    def _in_staged_lambda(self, call: ast.Call, func: ast.AST) -> bool:
        """`call` sits in a lambda of `func` written as an argument of a jit or staging-loop call
        (`jax.lax.scan(lambda c, r: (c, block(r)), ...)`): that lambda runs only through that call, so the walk
        of untraced ways (`_untraced_ways`), which does not enter such calls, does not meet `call` either
        (`ModuleIndex.calls_in` lists the calls of a function's lambdas with its own)."""
        node: ast.AST = call
        while node is not func:
            up = self.ix.parent.get(id(node))
            if up is None:
                return False
            if isinstance(node, ast.Lambda) and isinstance(up, ast.Call) and node is not up.func:
                qname = self.qualname(up.func, self.ix.scope_at(up))
                if qname in jaxapi.JIT_NAMES or qname in jaxapi.EAGER_STAGING_NAMES:
                    return True
                if qname in jaxapi.STATIC_PREDICATE_STAGING_NAMES and self._static_predicate(up, self.ix.scope_at(up)):
                    return True
            node = up
        return False

    def _reach_from_call(self, call, path: _Path, result, follow: Follow, bound: BoundScope | None = None) -> None:
        """One call inside a traced body: it may apply a shard_map, call a function, or pass one to a HOF.
        `bound`: the walked function's scope with its parameters bound by the call that entered it."""
        scope = self._scope_in(self.ix.scope_at(call), bound)  # (in a function read for one call: bound)
        span = self.ix.lines.span_of_ast(call)
        site = construction(self.ix, call, scope) or self._held_factory_site(call, scope)
        site = site or self._applied_factory_site(call, scope)
        if site is not None:
            self._add_site(site, path.step("shard_map applied here", span, call), result, follow)
            return
        qname = self.qualname(call.func, scope)
        if qname in jaxapi.PARTIAL_NAMES and len(call.args) == 1 and factory(self.ix, call, scope) is not None:
            return  # `partial(jax.shard_map, mesh=MESH, ...)`: a shard_map waiting for its function; its mesh and
            # specs are data, no callable (a decorator factory's return, walked with the `def` it decorates)
        lookup = self.lost.namespace_lookup(call.func, scope) if qname is None else ""
        if lookup:
            result.unresolved.append((call, lookup))
            return
        reexported = self._reexported_shard_map(call, scope)
        if reexported is not None:
            result.unresolved.append((call, reexported))
            return
        if self.lost.follows(qname) and self.project.kind_of(qname) is BindingKind.ASSIGN:  # type: ignore[union-attr]
            far = self._shard_map_factory_elsewhere(call, scope)
            if far is not None:
                result.unresolved.append((call, far))
                return
        if qname in jaxapi.JIT_NAMES or (
            qname in jaxapi.PARTIAL_NAMES and call.args and self.qualname(call.args[0], scope) in jaxapi.JIT_NAMES
        ):
            self._add_jit(call, result)
        if qname in jaxapi.HIGHER_ORDER_NAMES or qname in jaxapi.PARTIAL_NAMES:
            name = qname.rsplit(".", 1)[-1]
            step = path.step(f"passed to `{name}` here", span, call)
            if qname in jaxapi.VMAP_NAMES or (qname in jaxapi.BATCHED_MAP_NAMES and self._chunked(call, scope, result)):
                step = step.through_vmap(call)
            elif qname in jaxapi.JIT_NAMES:
                step = step.through_jit()
            if qname in jaxapi.DIFFERENTIATING_NAMES:
                step = step.through_grad()
            if qname in jaxapi.EAGER_STAGING_NAMES:
                step = step.through_staging()
            elif qname in jaxapi.STATIC_PREDICATE_STAGING_NAMES and self._static_predicate(call, scope):
                step = step.through_static_cond()
            first = call.args[0] if call.args and name not in _DATA_FIRST else None
            # `jax.jit(block)(x, 'data')`: the call applying the wrapper at once is the call of its function
            applied = self._applied(call) if qname in jaxapi.ARGUMENT_PASSING_NAMES else None
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                if not isinstance(arg, ast.Starred):
                    passed = applied if arg is first else None
                    self._reach_callable(arg, scope, step, result, follow, lost=arg is first, within=bound, call=passed)
            return
        if self._calls_its_callables(call, qname, scope):
            step = path.step(f"passed to `{short(call.func)}` here", span, call)
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                if not isinstance(arg, ast.Starred):
                    self._reach_callable(arg, scope, step, result, follow, lost=False, within=bound)
            return
        if qname == "operator.call" and call.args and not isinstance(call.args[0], ast.Starred):
            # `operator.call(layer, v)` calls `layer` with the rest (breaker11 a27: silent)
            step = path.step(f"`{short(call.args[0])}` is called by `{short(call.func)}` here", span, call)
            self._reach_callable(call.args[0], scope, step, result, follow, within=bound)
            return
        if isinstance(call.func, (ast.Name, ast.Attribute, ast.Call)) and self._built_here(
            call, scope, path, span, result, follow
        ):
            return
        made = self._class_built(call.func, scope) if isinstance(call.func, ast.Call) else None
        if made is not None:
            # `Layer()(x)`: the instance built at once is called, which runs its class's `__call__` (its
            # construction, the inner call, is walked on its own: `_built_here`, which left this outer call unread:
            # `Layer()(x)` with `P(self.AXIS)` in `__call__` was silent); `Outer.Layer()(x)`, `make()()(x)` too
            step = path.step(f"`{short(call.func)}` is called here (its `__call__` runs)", span, call)
            self._run_type_member(made[0], made[1], "__call__", call.func.func, step, result, follow)
            return
        if isinstance(call.func, ast.Name):
            step = path.step(f"`{call.func.id}` is called here", span, call)
            self._reach_callable(call.func, scope, step, result, follow, call=call, within=bound)
            if self.lost.opaque_name(call.func, scope):
                result.opaque.append(call)
        elif self.lost.follows(qname):
            step = path.step(f"`{ast.unparse(call.func)}` is called here", span, call)
            self._reach_import(qname, call, step, result, call=(call, scope), follow=follow)
        elif isinstance(call.func, ast.Subscript):
            self._reach_callable(call.func, scope, path, result, follow)  # `LAYERS[name](x)`: a lost place
        elif isinstance(call.func, ast.Call) and self.lost.is_getattr(call.func, scope):
            if not self.lost.library_value(call.func.args[0], scope):
                what = f"`{short(call.func)}` picks the callable by name at run time"
                result.unresolved.append((call, what))
        elif isinstance(call.func, ast.Call):
            self._call_of_result(call, scope, path, span, result, follow, bound)
        elif isinstance(call.func, ast.Attribute) and call.func.attr == "__call__" and (
            is_super(call.func.value, self.ix, scope)
        ):
            # `super().__call__(v)` in a subclass's `__call__` (breaker11 a25, a07: silent): the base's, looked up
            step = path.step(f"`{short(call.func)}` is called here", span, call)
            found = super_member(self.model, scope, "__call__")
            what = f"which `__call__` `{short(call.func)}` runs"
            self._run_found(found, what, "__call__", call, step, result, follow)
        elif isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Call) and qname is None:
            # `Layer().clone(AXIS='data').apply({}, x)`: a method of a call's result
            if self.instances.method_of(call.func, scope) is not None:
                step = path.step(f"`{ast.unparse(call.func)}` is called here", span, call)
                self._reach_callable(call.func, scope, step, result, follow)
            else:
                what = self._untyped_receiver(call.func, scope)
                if what:
                    result.unresolved.append((call, what))
        elif (
            isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Attribute) and qname is None
            and self.instances.method_of(call.func, scope) is not None
        ):
            # `self.block.apply(v)`, `self.block.__call__(v)`: a method of the instance a member holds
            step = path.step(f"`{ast.unparse(call.func)}` is called here", span, call)
            self._reach_callable(call.func, scope, step, result, follow)
        elif isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name):
            if call.func.value.id not in ("self", "cls") and qname is None:
                bound = self.instances.method_of(call.func, scope)  # `blk.apply(v)`, `block.apply(v)`
                if bound is not None or self.instances.annotated_overridden(call.func, scope):
                    step = path.step(f"`{ast.unparse(call.func)}` is called here", span, call)
                    self._reach_callable(call.func, scope, step, result, follow)
                elif self._class_attribute_called(call, scope, path, span, result, follow):
                    pass
                else:
                    what = (
                        self._unknown_receiver(call.func, scope)
                        or self._library_member(call.func, scope)
                        or self._untyped_receiver(call.func, scope)
                    )
                    if what:
                        result.unresolved.append((call, what))
            if call.func.value.id in ("self", "cls") and qname is None:
                member = self.members.self_member(call.func, scope)
                if member is None or member[2]:
                    result.opaque.append(call)  # not found, or a subclass may override it
                if member is None:
                    what = self.lost.missing_member(call.func, scope)
                    if what:
                        result.unresolved.append((call, what))
                if member is not None:
                    step = path.step(f"`{ast.unparse(call.func)}` is called here", span, call)
                    self._reach_callable(call.func, scope, step, result, follow)

    def _class_attribute_called(
        self, call: ast.Call, scope: Scope, path: _Path, span, result: ReachResult, follow: Follow
    ) -> bool:
        """`Model.layer(v)` with `layer = Layer()` in the body of `Model` (a class of the project), or of a base
        (`type_member`): the call calls the value the class attribute holds, followed as a callable where it is
        written (breaker11 a31: silent). Where the lookup cannot tell which value it is (a store `Model.layer =
        ...` anywhere, a decorator, a descriptor), an SPMD910 record, when the class's own body assigns a value
        built from a class whose method reaches a shard_map. Says whether the call was such a read (a method,
        `method_of`'s, is not)."""
        return self._class_attribute_read(call.func, call, scope, path.step(
            f"`{short(call.func)}` is called here", span, call
        ), result, follow)

    def _class_attribute_read(
        self, func: ast.Attribute, node: ast.AST, scope: Scope, step: _Path, result: ReachResult, follow: Follow
    ) -> bool:
        """`_class_attribute_called`'s reading of `Model.layer`, read at `node` with the path `step`: called
        there, or given as the callable itself (`jax.vmap(Layer.fn, spmd_axis_name=...)` with `fn =
        jax.shard_map(...)` in `Layer`'s body: silent before, safety/trials/newuser13, probe ef3, while the
        call `Layer.fn(x)` was followed). Says whether `func` was such a read."""
        found = self.instances.class_named(func.value, scope)
        if found is None:
            return False
        owner, cls = found
        member = type_member(owner, cls, func.attr)
        if isinstance(member, NotFollowed):
            member = static_value(owner, cls, func.attr) or member  # (`fn = staticmethod(v)`: `Layer.fn` is `v`)
        if member is None or isinstance(member, TypeMember) and isinstance(member.node, FUNCTION_NODES):
            return False
        if isinstance(member, NotFollowed):
            inner = owner.ix.own_scope(cls)
            bound = inner.bindings.get(func.attr, []) if inner is not None else []
            held = [b for b in bound if b.kind is BindingKind.ASSIGN]
            home = self if owner is self.model else self._other(owner)
            if not held or not home._reaching_classes(held[0].node, held[0].scope):
                return False
        return self._run_found(member, f"what `{short(func)}` holds", func.attr, node, step, result, follow)

    def _call_of_result(
        self, call: ast.Call, scope: Scope, path: _Path, span, result: ReachResult, follow: Follow,
        bound: BoundScope | None,
    ) -> None:
        """`E(...)(v)`, the result of a call called at once, when it builds no instance of a known class
        (`_class_built`): `getattr(x, '__call__')(v)` calls `x` (breaker11 a05); the result of a function of the
        project (`make()(v)` with `def make(): return Wide()`, a40; `layer()(v)` returning a cached instance,
        a38) is followed as the callable a name assigned that result holds is (`_reach_call_value`: the one
        `return`, or an SPMD910 record where it is lost). Silent before: JAX raised SPMD001's error, "All checks
        passed!". A library's callable (`jax.jit(f)(x)`, `nn.Dense(4)(x)`, `partial(f, w)(x)`) is left to the
        walk of its inner call, as before."""
        inner = call.func
        if (
            isinstance(inner.func, ast.Name) and inner.func.id == "getattr" and not self.ix.lookup("getattr", scope)
            and len(inner.args) == 2 and not inner.keywords and isinstance(inner.args[1], ast.Constant)
            and inner.args[1].value == "__call__" and not isinstance(inner.args[0], ast.Starred)
        ):
            step = path.step(f"`{short(inner)}` is called here", span, call)
            self._reach_callable(inner.args[0], scope, step, result, follow, within=bound)
            return
        attribute = self.ix.attribute_call(call)
        if attribute is not None:
            # `getattr(model, 'forward')(v)` is `model.forward(v)`: read as that call (silent before)
            self._reach_from_call(attribute, path, result, follow, bound)
            return
        partial_of = self._partial_target(inner, scope)
        if partial_of is not None:
            known = (jaxapi.JIT_NAMES, jaxapi.WRAPPER_NAMES, jaxapi.VMAP_NAMES)
            if any(partial_of[1] in names for names in known):
                # `partial(jax.jit, donate_argnums=0)(f)(v)`: the jitted `f` is called here (silent before: the
                # inner call's walk reached `jax.jit`, not `f`)
                step = path.step(f"the result of `{short(inner)}` is called here", span, call)
                self._reach_call_value(inner, scope, step, result, follow, within=bound)
            elif partial_of[1] is None or self.lost.follows(partial_of[1]):
                result.unresolved.append((inner, _partial_applied(inner.func, partial_of[0])))
            return
        if not self._project_callee(inner.func, scope):
            return
        step = path.step(f"the result of `{short(inner)}` is called here", span, call)
        if self._method_result(inner, scope, step, result, follow):
            return
        self._reach_callable(inner, scope, step, result, follow, within=bound)

    def _container(self, expr: ast.AST, scope: Scope) -> bool:
        """Whether `expr` is a name bound once to a list, tuple, set or dict display or comprehension, or to a
        call of the builtin `dict`/`list`/`tuple`/`set` (a container whose items the walk does not track)."""
        if not isinstance(expr, ast.Name):
            return False
        binding = self.ix.single_binding(expr.id, scope)
        if binding is None or binding.kind is not BindingKind.ASSIGN:
            return False
        value = binding.node
        if isinstance(value, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.DictComp, ast.SetComp)):
            return True
        return (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id in ("dict", "list", "tuple", "set") and not self.ix.lookup(value.func.id, binding.scope)
        )

    def _partial_target(self, call: ast.Call, scope: Scope) -> tuple[ast.AST, str | None] | None:
        """(the callable, its qualified name or None) of `partial(target, ...)` when `call` applies such a
        partial written out (`partial(jax.jit, ...)(f)`); None for any other call."""
        made = call.func
        if isinstance(made, ast.Call) and made.args and self.qualname(made.func, scope) in jaxapi.PARTIAL_NAMES:
            return made.args[0], self.qualname(made.args[0], scope)
        return None

    def _method_result(self, inner: ast.Call, scope: Scope, step: _Path, result: ReachResult, follow: Follow) -> bool:
        """What the call `inner` of a method of a class of the project gives, used as a callable
        (`Model().make()(v)`, `model.make()(v)`, `self.make()(v)`, `self.layer = self.make()` then
        `self.layer(v)`): followed from the method's one `return`, read in the method; several `return`s (or
        none) are a record when one names a class whose method reaches a shard_map. Says whether `inner` calls
        such a method (`_method_called`)."""
        method = self._method_called(inner.func, scope, inner, result)
        if method is None:
            return False
        home, func = method
        returned = single_return(func)
        if returned is not None:
            where = home.ix.own_scope(func)
            if home is not self.model:
                result.external.append(External(step, home, returned, where))
            elif follow.first_visit(returned, FACTORY_RETURN):
                self._reach_callable(returned, where, step, result, follow)
            return True
        reacher = self if home is self.model else self._other(home)
        where = reacher.ix.own_scope(func)
        values = (returns(func) or []) if where is not None else []
        self._returns_reaching(inner, [r for value in values for r in reacher._reaching_classes(value, where)], result)
        return True

    def _method_called(
        self, func: ast.AST, scope: Scope, call: ast.Call, result: ReachResult
    ) -> tuple[ModuleModel, ast.AST] | None:
        """The method `func` names, for `_call_of_result`: `model.make`, `Model().make` (`method_of`), and
        `self.make` inside a method of its class (`self_member`, a `def` of this module: `self.make()(v)` was
        silent); a subclass redefining it makes `call` opaque, as `self.make(v)` is (`_reach_from_call`)."""
        if not isinstance(func, ast.Attribute):
            return None
        member = self.members.self_member(func, scope)
        if member is None:
            return self.instances.method_of(func, scope)
        if not isinstance(member[0], FUNCTION_NODES):
            return None
        if member[2]:
            result.opaque.append(call)
        return self.model, member[0]

    def _project_callee(self, func: ast.AST, scope: Scope) -> bool:
        """Whether `func` (the callee of a call whose result is called) may be the project's: a name bound in this
        module by a statement other than an import, a name of another module of the project, or a method of an
        object (`model.make`, `Model().make`: no library's qualified name)."""
        if isinstance(func, ast.Name):
            bindings = self.ix.lookup(func.id, scope)
            if bindings and all(b.kind is not BindingKind.IMPORT for b in bindings):
                return True
        if isinstance(func, ast.Attribute) and self.qualname(func, scope) is None:
            return True
        return isinstance(func, (ast.Name, ast.Attribute)) and self.lost.follows(self.qualname(func, scope))

    def _reach_import(
        self, qname: str | None, node: ast.AST, path: _Path, result: ReachResult, returned: bool = False,
        call: tuple[ast.Call, Scope] | None = None, follow: Follow | None = None,
    ) -> None:
        """A callable another module of the project defines (recorded in `external`), or an unresolved
        name when the index cannot find its definition. `returned`: the callable a function of another
        module returns (a factory), rather than the function. `call`: the call of it that the walk follows,
        with the scope it is written in (`_bound_by`). `follow`: the walk's, for a class whose `__call__` a base
        of this module defines (`_run_type_member`)."""
        if not self.lost.follows(qname):
            return
        found = self.project.binding(qname)  # type: ignore[union-attr]
        if found is None or found[1].kind not in (BindingKind.DEF, BindingKind.CLASS, BindingKind.ASSIGN):
            what = self.project.lost(qname)  # type: ignore[union-attr]
            if what:  # None: a library's name (not a module of the project)
                result.unresolved.append((node, what))
            return
        owner, binding = found
        if not returned and binding.kind is not BindingKind.ASSIGN and self.project.binding(qname, whole=True) is None:  # type: ignore[union-attr]
            # an attribute of a class or function of another module (`ops.Ops.f(b)`), not the class or function
            # itself (`Ops.f(b)` was read as a call of `Ops`, whose `__call__` it is not: a staticmethod applying
            # `lax.cond` kept rename SAFE, the renamed program raised `pvary`: breaker16 x10)
            self._class_member_elsewhere(qname, owner, binding, node, path, result, follow or Follow(REACH))
            return
        if not returned and binding.kind is BindingKind.CLASS:
            # an instance of a class of another module: its `__call__`, read there (`type_member`)
            self._run_type_member(owner, binding.node, "__call__", node, path, result, follow or Follow(REACH))
            return
        if not returned:
            target = callable_target(binding)
            if target is not None:
                bound = self._bound_by(call, owner, binding.node) if binding.kind is BindingKind.DEF else None
                result.external.append(External(path, owner, *target, bound))
            return
        value = single_return(binding.node) if binding.kind is BindingKind.DEF else None
        inner = owner.ix.own_scope(binding.node)
        if value is None or inner is None:
            what = f"`{qname}` does not return one callable the analysis can follow"
            result.unresolved.append((node, what))
        else:
            result.external.append(External(path, owner, value, inner))

    def _class_member_elsewhere(
        self, qname: str, owner: ModuleModel, binding: Binding, node: ast.AST, path: _Path, result, follow: Follow
    ) -> None:
        """Follow `qname`, an attribute of the top-level class or function `binding` of module `owner`: for
        `Cls.name` (one attribute of a class) the member the class lookup finds (`type_member`: a staticmethod,
        a classmethod, a function its body assigns), read there; anything else (a deeper attribute, an
        attribute of a function, a member the lookup does not find) is an SPMD910 record at `node`."""
        head, _, attr = qname.rpartition(".")
        outer = self.project.binding(head, whole=True)  # type: ignore[union-attr]
        if binding.kind is BindingKind.CLASS and outer is not None and outer[1] is binding:
            cls = binding.node
            found = type_member(owner, cls, attr)  # type: ignore[arg-type]
            if self._run_found(found, f"which `{attr}` `{cls.name}` gives", attr, node, path, result, follow):
                return
            if isinstance(found, NotFollowed):
                return  # (recorded by `_run_found`)
        what = f"`{qname}` is an attribute of `{binding.name}` of {relpath(owner.ix.path) if owner.ix.path else 'another module'} that the analysis does not follow"
        result.unresolved.append((node, what))

    def _scope_in(self, scope: Scope, bound: BoundScope | None) -> Scope:
        """`scope` as a walk reading the function of `bound` for one call sees it: `bound` for the function's own
        scope; for a scope nested in it (a lambda, a local `def`), a copy of each scope up to the function's
        whose last parent is `bound` (kept per walk), so that its parameters read from there are the call's
        (`values.bound_for`); `scope` itself otherwise."""
        if bound is None:
            return scope
        if same_scope(scope, bound.parent):
            return bound
        if not self._nested_in(scope, bound):
            return scope
        key = (id(scope), id(bound))
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = Scope(scope.node, self._scope_in(scope.parent, bound), scope.bindings)
        return view

    @staticmethod
    def _nested_in(scope: Scope | None, bound: BoundScope) -> bool:
        """Whether `scope` is the own scope of `bound`'s function or one nested in it."""
        while scope is not None:
            if same_scope(scope, bound.parent):
                return True
            scope = scope.parent
        return False

    def _local_bound(self, call: ast.Call | None, scope: Scope, func: ast.AST) -> BoundScope | None:
        """The scope of this module's function `func` with its parameters bound to the arguments of `call`
        (written in `scope`), for a walk of `func` read for that call; None when the walk reads it as every
        call does. Bound only when that changes a reading: a parameter its module's calls do not all pass one
        value for (`ModuleModel.argument_for`: `block(x, 'model')` in one function, `block(x, 'data')` on the
        vmap's path), or a call inside a function read so itself (its arguments may be its parameters). At
        most `_BOUND_DEPTH` such calls lead to one, and `_BOUND_WALKS` per walk: past them `func` is read as
        every call does (a parameter that then reads no one value is an SPMD910 record, never a guess)."""
        if call is None or not isinstance(func, ast.FunctionDef):
            return None
        key = (id(call), id(scope))
        if key in self._bound_scopes:
            return self._bound_scopes[key]
        around = bound_for(scope)
        depth = self._bound_depth.get(id(around), 0) if around is not None else 0
        found = None
        if depth < _BOUND_DEPTH and len(self._bound_depth) < _BOUND_WALKS and (
            around is not None or self._read_apart(func)
        ):
            found = self._bound_by((call, scope), self.model, func)
        self._bound_scopes[key] = found
        if found is not None:
            self._bound_depth[id(found)] = depth + 1
        return found

    def _read_apart(self, func: ast.FunctionDef) -> bool:
        """Whether a parameter of `func` reads no one value from its module's calls (`_local_bound`)."""
        own = self.ix.own_scope(func)
        if own is None:
            return False
        params = [*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs]
        for param in params:
            binding = self.ix.single_binding(param.arg, own)
            if binding is not None and binding.kind is BindingKind.PARAM and self.model.argument_for(binding) is None:
                return True
        return False

    def _bound_by(self, call: tuple[ast.Call, Scope] | None, owner: ModuleModel, func: ast.AST) -> BoundScope | None:
        """`func`'s own scope with its parameters bound to the arguments of `call` (`External.bound`), or
        None: no call, a parameter the call cannot bind (`calls.bind_arguments`: `*args`, `**kwargs`, ...),
        or a decorator that may pass other arguments than the call's (only `jax.jit` and
        `partial(jax.jit, ...)`, which pass them through, are read past)."""
        if call is None or not isinstance(func, ast.FunctionDef) or not passes_arguments(owner, func):
            return None
        inner = owner.ix.own_scope(func)
        arguments = bind_arguments(self.ev, call[0], call[1], owner.ev, func) if inner is not None else None
        return None if arguments is None else BoundScope(inner.node, inner, {}, arguments)


def passes_arguments(owner: ModuleModel, func: ast.FunctionDef) -> bool:
    """Whether calling the `def` `func` of the module `owner` runs it with the call's own arguments: no decorator
    but `jax.jit` and `partial(jax.jit, ...)`, which pass them through (any other may pass others)."""
    for deco in func.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        qname = owner.ix.qualname(target, owner.ix.scope_at(func))
        if qname in jaxapi.PARTIAL_NAMES and isinstance(deco, ast.Call) and deco.args:
            qname = owner.ix.qualname(deco.args[0], owner.ix.scope_at(func))
        if qname not in jaxapi.JIT_NAMES:
            return False
    return True


def callable_class(owner: ModuleModel, cls: ast.ClassDef) -> tuple[ast.FunctionDef, ast.FunctionDef] | str:
    """(`__init__`, `__call__`) of a class of the module `owner` whose instance, made as `Cls(fn)`, runs only the
    class's own code when called: the class and every base are classes of that module (no library base, whose
    `__call__` or metaclass may run instead: flax's `nn.Module`), one base each at most, none decorated or given
    keywords (`metaclass=`), none defining `__new__`; `__init__` and `__call__` are `def`s of them, and `__init__` takes `fn` as its first
    parameter after `self`, the others having defaults. Else why not, in words."""
    chain, todo = [], [cls]
    while todo:
        node = todo.pop()
        if node in chain:
            continue
        if len(chain) > 8:
            return "its bases are too many to read"
        chain.append(node)
        if node.decorator_list or node.keywords:
            return f"`{node.name}` is decorated or given keywords (a metaclass may change what runs)"
        if method(node, "__new__") is not None:
            return f"`{node.name}` defines `__new__`"
        if len(node.bases) > 1:  # (the method found is the first base's: Python's MRO may pick another)
            return f"`{node.name}` has several bases"
        for base in node.bases:
            bound = owner.ix.single_binding(base.id, owner.ix.scope_at(node)) if isinstance(base, ast.Name) else None
            if bound is None or bound.kind is not BindingKind.CLASS:
                return f"`{node.name}` has a base (`{short(base)}`) that is not a class of its module"
            todo.append(bound.node)
    found = [owner.members.member(cls, name) for name in ("__init__", "__call__")]
    if any(f is None or not isinstance(f[0], ast.FunctionDef) for f in found):
        return "its `__init__` or `__call__` is not a `def` of the class or of a base of its module"
    init, call = found[0][0], found[1][0]
    params = init.args
    if len(params.args) < 2 or params.posonlyargs or len(params.args) - 2 > len(params.defaults):
        return "its `__init__` does not take the decorated function as its one parameter after `self`"
    if any(d is None for d in params.kw_defaults):
        return "its `__init__` has a keyword-only parameter without a default"
    return init, call


# How many calls binding parameters may lead to a function read for its call, and how many such readings one
# walk makes (`Reacher._local_bound`): past them a function is read as every call of its module does.
_BOUND_DEPTH = 4
_BOUND_WALKS = 64

# Python int arithmetic a constant predicate may use (`lax.switch(len(v) - 8, ...)`, measured)
_INT_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


# Not frozen: built and read in this module only (a frozen `__init__` sets each field through
# `object.__setattr__`); eq=False, repr=False as above.
@dataclass(eq=False, repr=False)
class _Path:
    """The way from the vmapped callable to where the walk is: described steps, their calls, vmaps passed,
    whether a jax.jit was passed, whether a loop that stages its function was (`ReachedSite.staged`), whether
    a cond/switch on a constant predicate was (`ReachedSite.cond_staged`), and whether a transform that
    differentiates was (`jaxapi.DIFFERENTIATING_NAMES`: custom derivative rules run, `Reacher._custom_rules`)."""

    chain: tuple[Related, ...] = ()
    nodes: tuple[ast.AST, ...] = ()
    vmaps: tuple[ast.AST, ...] = ()
    jitted: bool = False
    staged: bool = False
    cond_staged: bool = False
    differentiated: bool = False

    def step(self, message: str, span, node: ast.AST) -> _Path:
        chain, nodes = self.chain + (Related(message, span),), self.nodes + (node,)
        return _Path(chain, nodes, self.vmaps, self.jitted, self.staged, self.cond_staged, self.differentiated)

    def through_vmap(self, node: ast.AST) -> _Path:
        vmaps = self.vmaps + (node,)
        return _Path(self.chain, self.nodes, vmaps, self.jitted, self.staged, self.cond_staged, self.differentiated)

    def through_jit(self) -> _Path:
        return _Path(self.chain, self.nodes, self.vmaps, True, self.staged, self.cond_staged, self.differentiated)

    def through_staging(self) -> _Path:
        return _Path(self.chain, self.nodes, self.vmaps, self.jitted, True, self.cond_staged, self.differentiated)

    def through_static_cond(self) -> _Path:
        return _Path(self.chain, self.nodes, self.vmaps, self.jitted, self.staged, True, self.differentiated)

    def through_grad(self) -> _Path:
        return _Path(self.chain, self.nodes, self.vmaps, self.jitted, self.staged, self.cond_staged, True)

    @property
    def traced(self) -> bool:
        """A jit, a staging loop or a cond on a constant predicate lies on the way (`ReachedSite.jitted`,
        `ReachedSite.staged`, `ReachedSite.cond_staged`)."""
        return self.jitted or self.staged or self.cond_staged


def _partial_applied(made: ast.AST, target: ast.AST) -> str:
    """The words of a record: a partial of a function the walk does not follow through its arguments is applied."""
    return f"`{short(made)}` is applied here: what applying a partial of `{short(target)}` gives is not followed"


def _decorator_calls(ix, func: ast.AST) -> frozenset[int]:
    """The ids of the calls written in the shard_map decorator of the `def` `func` (its `partial(jax.shard_map,
    ...)` or `jax.shard_map(...)` and the arguments given there); empty when no shard_map decorates it."""
    site = decorated_site(ix, func)
    if site is None:
        return frozenset()
    return frozenset(id(node) for node in ast.walk(site.node) if isinstance(node, ast.Call))
