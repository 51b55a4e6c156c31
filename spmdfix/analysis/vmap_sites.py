"""The vmap sites of a module that pass an spmd_axis_name, in every spelling the analysis follows.

A site is a `jax.vmap(f, spmd_axis_name=...)` call (the name also positional, 6th; or from a `**kwargs` dict
display or `dict(...)` call), a `partial(jax.vmap, spmd_axis_name=...)` applied to a function or used as a
decorator, a name or parameter bound to such a partial, `self.vec(f)` where a method of the class assigns
`self.vec` such a partial (`__init__`, its axis a parameter every construction passes), and a call of a wrapper
forwarding its `**kwargs` to the vmap of its parameter (`batched(f, spmd_axis_name='x')`, the wrapper here or in
another module of the project). `vmap_sites` finds them; the driver (`analysis.analyzer`) evaluates each one's
spmd_axis_name and follows its function.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from spmdfix import jaxapi
from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.calls import argument, returns
from spmdfix.analysis.follow import VMAP_FACTORY, Follow
from spmdfix.analysis.lost_places import LostPlaces
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.uses import short
from spmdfix.model import Span
from spmdfix.paths import relpath

# The last component of each qualified vmap name: an attribute callee with another name is no vmap.
_VMAP_LAST_NAMES = frozenset(name.rsplit(".", 1)[-1] for name in jaxapi.VMAP_SIGNATURES)


Factory = tuple[ast.AST, ast.AST | None, Scope]  # spmd_axis_name, in_axes, the scope they are written in


# Not frozen: a plain record of the driver's (a frozen `__init__` sets each field through
# `object.__setattr__`); eq=False, repr=False: nothing compares, hashes or prints it.
@dataclass(slots=True, eq=False, repr=False)
class VmapSite:
    """One vmap site: the call or decorator (`node`) in the scope it is evaluated in, the vmapped function (an
    expression, or the decorated `def`; None when not given), the spmd_axis_name expression, and `in_axes`."""

    node: ast.AST
    scope: Scope
    fun: ast.AST | None
    spmd_expr: ast.AST
    in_axes: ast.AST | None = None
    # The scope `spmd_expr` is written in, when not `scope`: a factory's keyword (`partial(jax.vmap,
    # spmd_axis_name=axis)` in an `__init__`, its parameter `axis` read there).
    spmd_scope: Scope | None = None
    # `in_axes` is None and that means jax.vmap's default, 0, though `node` is no vmap call: a call of a
    # wrapper whose vmap takes `in_axes` from the call's `**kwargs` only (`_wrapper_site`).
    in_axes_default: bool = False
    # Why the site is not followed, when `vmap_sites` knows it cannot be: an SPMD910 record at `spmd_expr` with
    # these words (a wrapper whose `return`s do not all vmap the same way: `_wrapper_site`), never silence.
    stop: str | None = None
    # The `spmd_axis_name=` keyword passing `spmd_expr` may be removed (drop-spmd-axis); False for a call of a
    # wrapper whose own parameter is named `spmd_axis_name` (`_named_wrapper`): its default is the wrapper's,
    # so the value is replaced by `None` instead.
    droppable: bool = True

    @property
    def spmd_where(self) -> Scope:
        """The scope the spmd_axis_name expression is evaluated in."""
        return self.spmd_scope if self.spmd_scope is not None else self.scope


def vmap_sites(model: ModuleModel) -> list[VmapSite]:
    """Every vmap application or decoration that passes an spmd_axis_name, in source order."""
    sites: list[VmapSite] = []
    ix = model.ix
    held = _attributes_holding_vmaps(model)
    for call in ix.calls:
        func = call.func
        kind = func.__class__
        if kind is ast.Attribute and func.attr not in _VMAP_LAST_NAMES:  # type: ignore[attr-defined]
            # `x.attr(...)` resolves to a name ending in `.attr`, no vmap's. Most calls of a module are such
            # method calls: no name resolution for them, unless a method assigns `self.attr` a value that may
            # be a `partial(jax.vmap, spmd_axis_name=...)` (`self.vec(step)` in another method, issue 22).
            held_site = _held_site(model, call, ix.scope_at(call)) if func.attr in held else None  # type: ignore[attr-defined]
            if held_site is not None:
                sites.append(held_site)
            elif call.keywords and _may_pass_spmd(call):  # `helpers.batched(step, spmd_axis_name='x')`
                wrapped = _wrapper_site(model, call, ix.scope_at(call)) or _alias_site(model, call, ix.scope_at(call))
                if wrapped is not None:
                    sites.append(wrapped)
            continue
        scope = ix.scope_at(call)
        if kind is ast.Name:
            # A callee bound once to anything but a value or a parameter (a def, a class, a loop target,
            # no binding: most plain-name calls) has no factory to follow: its qualified name, when it
            # has one, is its import's (what `qualname` and `_vmap_factory` would find, one look-up).
            binding = ix.single_binding(func.id, scope)  # type: ignore[attr-defined]
            if binding is None:
                continue
            if binding.kind is not BindingKind.ASSIGN and binding.kind is not BindingKind.PARAM:
                if binding.kind is not BindingKind.IMPORT or binding.qname not in jaxapi.VMAP_SIGNATURES:
                    passes = call.keywords and _may_pass_spmd(call)
                    wrapped = (_wrapper_site(model, call, scope) or _alias_site(model, call, scope)) if passes else None
                    if wrapped is not None:
                        sites.append(wrapped)
                    continue
        qname = ix.qualname(func, scope)
        signature = jaxapi.VMAP_SIGNATURES.get(qname or "")
        if signature is not None:
            direct = _direct_site(model, call, scope, signature)
            if direct is not None:
                sites.append(direct)
            continue
        starred = _star_vmap_site(model, call, scope) if qname is None and kind is ast.Attribute else None
        if starred is not None:
            sites.append(starred)
            continue
        factory = _vmap_factory(model, call.func, scope, Follow(VMAP_FACTORY))
        if factory is not None and call.args:
            sites.append(VmapSite(call, scope, call.args[0], *factory))
        elif kind is ast.Name and call.keywords and _may_pass_spmd(call):
            # an alias of a wrapper (`batched = helpers.batched`, `batched = _batched`): `Evaluator.function`
            # follows it to the `def`
            wrapped = _wrapper_site(model, call, scope) or _alias_site(model, call, scope)
            if wrapped is not None:
                sites.append(wrapped)
        elif kind is ast.Attribute and call.keywords and _may_pass_spmd(call) and _alias_site(model, call, scope):
            sites.append(_alias_site(model, call, scope))  # type: ignore[arg-type]  # `utils.vmap(f, spmd_axis_name=...)`
        elif kind is ast.Attribute and func.attr in held:  # type: ignore[attr-defined]
            held_site = _held_site(model, call, scope)  # `self.vmap = jax.vmap`, then `self.vmap(f, ...)`
            if held_site is not None:
                sites.append(held_site)
    for node, scope in ix.scope_by_node.items():
        func = scope.node
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        outer = ix.scope_at(func)
        for deco in func.decorator_list:
            factory = _vmap_factory(model, deco, outer, Follow(VMAP_FACTORY))
            if factory is not None:
                sites.append(VmapSite(deco, outer, func, *factory))
    sites.sort(key=lambda s: (s.node.lineno, s.node.col_offset))
    return sites


def _star_vmap_site(model: ModuleModel, call: ast.Call, scope: Scope) -> VmapSite | None:
    """`jax.vmap(f, spmd_axis_name=...)` whose root name (`jax`) no statement of the module binds while a star
    import of a module of the project may give it (`from common import *` with `import jax` in common.py): a
    site that is not followed (`VmapSite.stop`, an SPMD910 record naming the star import). Silent before:
    "All checks passed!" while JAX raised SPMD001's error (safety/trials/newuser13, probe f1-f5). None for any
    other call."""
    root = call.func
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or model.ix.lookup(root.id, scope):
        return None
    spmd = argument(call, 5, jaxapi.VMAP_SPMD_KEYWORD)
    if spmd is None:
        return None
    star = LostPlaces(model).star_source(root.id)
    if not star:
        return None
    what = f"{star}; the `{short(call.func)}` called here with `spmd_axis_name` is not followed"
    return VmapSite(call, scope, call.args[0] if call.args else None, spmd, stop=what)


def _direct_site(model: ModuleModel, call: ast.Call, scope: Scope, signature: tuple[str, int, int]) -> VmapSite | None:
    """The site of `call`, a call of a vmap whose (function keyword, function position, spmd position) is
    `signature`, when it passes an spmd_axis_name (by keyword, position or a `**kw` dict: `_from_kwargs`)."""
    fun_name, fun_position, spmd_position = signature
    spmd = argument(call, spmd_position, jaxapi.VMAP_SPMD_KEYWORD)
    if spmd is None:
        spmd = _from_kwargs(model, call, scope, jaxapi.VMAP_SPMD_KEYWORD)
    if spmd is None:
        return None
    fun = argument(call, fun_position, fun_name)
    in_axes = argument(call, 1, "in_axes")
    if in_axes is None:
        # from the same `**kw` the spmd axis is read from (a kwarg forwarded by a helper: fuzz seed 60128); the
        # `**kw` name itself when its value is not one known expression
        in_axes = _from_kwargs(model, call, scope, "in_axes")
    return VmapSite(call, scope, fun, spmd, in_axes)


def _held_site(model: ModuleModel, call: ast.Call, scope: Scope) -> VmapSite | None:
    """`self.vec(...)` (or `obj.vec(...)`) where a class of the module gives `vec` a vmap or a vmap factory (its
    `_attributes_holding_vmaps`): through `self`, the one value the class gives it (`self.vec = jax.vmap`: a vmap
    call, `_direct_site`; `partial(jax.vmap, spmd_axis_name=...)`: `_self_factory`); read off another object,
    whose class spmdfix does not tell, `obj.vec` stands for the axis (SPMD910), never silence (issue 22)."""
    func = call.func
    ix = model.ix
    members = model.ev.members
    if members.enclosing_class(func, scope) is not None:  # type: ignore[arg-type]
        found = members.self_member(func, scope)  # type: ignore[arg-type]
        if found is not None and isinstance(found[0], (ast.Name, ast.Attribute)):
            signature = jaxapi.VMAP_SIGNATURES.get(ix.qualname(found[0], found[1]) or "")
            # (`self_value`, which reads the whole text, only for a value that is a vmap)
            if signature is not None and members.self_value(func, scope) is not None:  # type: ignore[arg-type]
                return _direct_site(model, call, scope, signature)
        factory = _vmap_factory(model, func, scope, Follow(VMAP_FACTORY)) if call.args else None
        return None if factory is None else VmapSite(call, scope, call.args[0], *factory)
    if not call.args or not isinstance(func.value, ast.Name):  # type: ignore[attr-defined]
        return None
    for node in ix.scope_by_node.values():
        if node.is_class:
            assigned = members.members_of(node.node)[1].get(func.attr, ())  # type: ignore[attr-defined, arg-type]
            follow = Follow(VMAP_FACTORY)
            # (the factory written there: a partial passed in or bound to a name is not looked for)
            if any(isinstance(v, ast.Call) and _vmap_factory(model, v, inner, follow) for v, inner in assigned):
                return VmapSite(call, scope, call.args[0], func, None)
    return None


def _from_kwargs(model: ModuleModel, call: ast.Call, scope: Scope, keyword: str) -> ast.AST | None:
    """The value of `keyword` in a `**kw` argument bound to a dict display (or filled by one `kw['key'] =
    value` before the call), a `dict(...)` call, or the `**kwargs` parameter of a function called once, by
    name, with that keyword."""
    for kw in call.keywords:
        if kw.arg is not None:
            continue
        passed = _kwargs_parameter(model, kw.value, scope, keyword)
        if passed is not None:
            return passed
        resolved = model.ev.resolve_name(kw.value, scope)
        if resolved is None:
            continue
        value = resolved[0]
        if isinstance(value, ast.Dict):
            initial = next(
                (v for k, v in zip(value.keys, value.values) if isinstance(k, ast.Constant) and k.value == keyword),
                None,
            )
            exact = None not in value.keys
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
            initial = next((k.value for k in value.keywords if k.arg == keyword), None)
            exact = not value.args and all(k.arg is not None for k in value.keywords)
        else:
            continue
        if not isinstance(kw.value, ast.Name):
            if initial is not None:
                return initial
            continue
        # (walked in the scope the dict is bound in: a module-level `OPTS` stored into anywhere is not read)
        found = _item_at_call(model, kw.value, resolved[1], keyword, call, initial, exact)
        if found is not None:
            return found
    return None


def _passes_spmd(call: ast.Call) -> bool:
    """Whether `call` passes the `spmd_axis_name=` keyword."""
    return any(k.arg == jaxapi.VMAP_SPMD_KEYWORD for k in call.keywords)


def _may_pass_spmd(call: ast.Call) -> bool:
    """Whether `call` passes the `spmd_axis_name=` keyword or a `**kwargs` that may hold it. (A loop, no
    generator: asked of every method call of a module.)"""
    for k in call.keywords:
        if k.arg is None or k.arg == jaxapi.VMAP_SPMD_KEYWORD:
            return True
    return False


def _wrapper_site(model: ModuleModel, call: ast.Call, scope: Scope) -> VmapSite | None:
    """`batched(step, spmd_axis_name='x')` where `batched` is a function of the project (here, or imported from
    another module of it) whose one `return` vmaps one of its parameters and forwards its `**kwargs` to the
    vmap, maybe through such wrappers in turn (`vmap_wrapper_parameter`): a site at this call, the vmapped
    function this call's argument for that parameter, the spmd axis and `in_axes` this call's keywords (or the
    `**dict` it passes: `_from_kwargs`). Issue 22: the helper may live in another module, whose own analysis
    sees no caller. The keywords are looked at first: most calls pass no spmd axis, and the callee of those
    is not looked up (another module is not loaded for them)."""
    spmd = argument(call, None, jaxapi.VMAP_SPMD_KEYWORD)
    in_axes = argument(call, None, "in_axes")
    if spmd is None:
        if any(_forwards_own_kwargs(model, k.value, scope) for k in call.keywords if k.arg is None):
            return None  # `return inner(fn, **kw)` inside a wrapper: its callers are the sites
        spmd = _from_kwargs(model, call, scope, jaxapi.VMAP_SPMD_KEYWORD)
        if spmd is None:
            return None
        in_axes = in_axes or _from_kwargs(model, call, scope, "in_axes")
    if model.ix.qualname(call.func, scope) in jaxapi.PARTIAL_NAMES:
        return None  # `partial(jax.vmap, spmd_axis_name=...)`: a factory (`_vmap_factory`), no wrapper
    found = model.ev.function(call.func, scope)
    if found is None:
        return None
    home, func = found
    wrapped = vmap_wrapper_parameter(home, func, Follow(VMAP_FACTORY))
    if wrapped is None and home is not model.ev:
        # `def batched(fn, spmd_axis_name=None): return jax.vmap(fn, spmd_axis_name=spmd_axis_name)` of another
        # module (in its own module, `ModuleIndex.argument_for` reads the calls at the vmap itself)
        named = _named_wrapper(home, func)
        if named is not None and argument(call, None, jaxapi.VMAP_SPMD_KEYWORD) is spmd:
            fun = _argument_for_parameter(call, func, named[0])
            if fun is None:
                return None
            return VmapSite(call, scope, fun, spmd, None, in_axes_default=not named[1], droppable=False)
    if wrapped is None:
        # (a wrapper of this module: `_kwargs_parameter` reads the calls at its vmaps)
        unread = _unread_return(home, func) if home is not model.ev else None
        if unread is None:
            return None
        where = f"{relpath(home.ix.path)} line {func.lineno}"
        stop = (
            f"the vmap a call of `{short(call.func)}` runs is not known: `{short(call.func)}` ({where}) forwards its "
            f"`**{func.args.kwarg.arg}` to a vmap in a `return`, but {unread[1]}"  # type: ignore[union-attr]
        )
        return VmapSite(call, scope, call.args[0] if call.args else call, spmd, in_axes, stop=stop)
    param, own_in_axes = wrapped
    fun = _argument_for_parameter(call, func, param)
    if fun is None:
        return None
    return VmapSite(call, scope, fun, spmd, in_axes, in_axes_default=in_axes is None and not own_in_axes)


def _alias_site(model: ModuleModel, call: ast.Call, scope: Scope) -> VmapSite | None:
    """`utils.vmap(block, spmd_axis_name='x')` (or `from pkg.utils import vmap`) where another module of the
    project binds the name to JAX's vmap (`vmap = jax.vmap`, `from jax import vmap`: `ProjectLink.library_name`):
    the site of that vmap call, read here as a call of it (`_direct_site`). Silence before (breaker8: the
    qualified name `pkg.utils.vmap` is no vmap's). None when the callee is no such name."""
    if model.project is None:
        return None
    target = model.project.library_name(model.ix.qualname(call.func, scope))
    signature = jaxapi.VMAP_SIGNATURES.get(target or "")
    return _direct_site(model, call, scope, signature) if signature is not None else None


def _forwards_own_kwargs(model: ModuleModel, expr: ast.AST, scope: Scope) -> bool:
    """Whether `expr` is the `**kwargs` parameter of the function it is read in."""
    if not isinstance(expr, ast.Name):
        return False
    binding = model.ix.single_binding(expr.id, scope)
    if binding is None or binding.kind is not BindingKind.PARAM:
        return False
    func = model.ix.parent.get(id(binding.node))
    return isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) and func.args.kwarg is binding.node


def vmap_wrapper_parameter(home, func: ast.FunctionDef, follow: Follow) -> tuple[str, bool] | None:
    """The name of the parameter of `func` (a `def` of the module `home`, an `Evaluator`, evaluates) that each
    of its `return`s passes as the function of a vmap call (`return jax.vmap(fn, **kw)`; `v = jax.vmap(fn,
    **kw); return v`; two branches each returning such a vmap, with `in_axes` of their own or not) or of another
    such wrapper (`return inner(fn, **kw)`), each call forwarding `func`'s `**kwargs` (so that a caller's
    `spmd_axis_name=` reaches the vmap) and passing no `spmd_axis_name` of its own; with whether a call on the
    way passes an `in_axes` of its own (else the vmap's come from the caller's keywords, or are the default).
    None otherwise (a `return` that is no such call: which one runs is not decided here), or past the budget."""
    if follow.spent or func.args.kwarg is None:
        return None
    named = {a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)}
    if jaxapi.VMAP_SPMD_KEYWORD in named or "in_axes" in named:
        return None  # a caller's keyword stops here, not in `**kwargs`
    kwargs = func.args.kwarg.arg
    returned = returns(func)
    inner = home.ix.own_scope(func)
    if returned is None or inner is None:
        return None
    calls: dict[int, ast.Call] = {}
    for value in returned:
        value = _returned_value(home, inner, value)
        if not isinstance(value, ast.Call) or _passes_spmd(value):
            return None
        calls[id(value)] = value
    # `**kw` read, or filled, in the body but by these calls: not only the caller's keywords reach the vmap
    if sum(isinstance(n, ast.Name) and n.id == kwargs for n in ast.walk(func)) != len(calls):
        return None
    found_param: str | None = None
    own_in_axes = False
    for call in calls.values():
        wrapped = _forwarded_parameter(home, func, inner, call, kwargs, follow)
        if wrapped is None or (found_param is not None and wrapped[0] != found_param):
            return None
        found_param, own_in_axes = wrapped[0], own_in_axes or wrapped[1]
    return None if found_param is None else (found_param, own_in_axes)


def _unread_return(home, func: ast.FunctionDef) -> tuple[ast.AST, str] | None:
    """For a wrapper `vmap_wrapper_parameter` does not read, whose `**kwargs` a `return`ed vmap (or wrapper)
    call forwards: where the reading stopped and why, in words (a caller's spmd_axis_name may reach that vmap:
    not silence). Another `return` that is no such call (`return jax.jit(jax.vmap(fn, **kw))`, `return fn`): which
    `return` runs is not decided; or the `**kwargs` also read or filled in the body (`kw.setdefault(...)`): what
    reaches the vmap is not only the caller's keywords. None when no `return` forwards them to a vmap."""
    if func.args.kwarg is None:
        return None
    returned = returns(func)
    inner = home.ix.own_scope(func)
    if returned is None or inner is None:
        return None
    kwargs = func.args.kwarg.arg
    read = []
    for value in returned:
        value = _returned_value(home, inner, value)
        forwarded = isinstance(value, ast.Call) and not _passes_spmd(value)
        read.append(_forwarded_parameter(home, func, inner, value, kwargs, Follow(VMAP_FACTORY)) if forwarded else None)
    if all(r is None for r in read):
        return None
    others = [v for v, r in zip(returned, read) if r is None]
    if others:
        other = min(others, key=lambda v: (v.lineno, v.col_offset))
        return other, f"its `return {short(other)}` is no such vmap, and which `return` runs is not decided"
    uses = [n for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == kwargs]
    forwarded_by = {id(k.value) for v in returned for c in [_returned_value(home, inner, v)] if isinstance(c, ast.Call) for k in c.keywords}
    other_use = next((n for n in uses if id(n) not in forwarded_by), None)
    if other_use is None:
        return None
    return other_use, f"`{kwargs}` is also read or filled in its body (line {other_use.lineno}), so what reaches the vmap is not only the caller's keywords"


def _named_wrapper(home, func: ast.FunctionDef) -> tuple[str, bool] | None:
    """`def batched(fn, spmd_axis_name=None): return jax.vmap(fn, spmd_axis_name=spmd_axis_name)` (through one
    name, or in several `return`s alike): the parameter of `func` each `return` vmaps, passing `func`'s own
    parameter `spmd_axis_name` as the vmap's, with whether a vmap passes `in_axes` (else jax.vmap's default,
    0). None otherwise: a `return` that is no such vmap (`return jax.vmap(fn)` on another branch) leaves the
    vmap's spmd_axis_name to the record its module gives (a parameter no call there passes)."""
    names = [a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)]
    if jaxapi.VMAP_SPMD_KEYWORD not in names:
        return None
    returned = returns(func)
    inner = home.ix.own_scope(func)
    if returned is None or inner is None:
        return None
    param: str | None = None
    own_in_axes = False
    for value in returned:
        value = _returned_value(home, inner, value)
        if not isinstance(value, ast.Call):
            return None
        signature = jaxapi.VMAP_SIGNATURES.get(home.ix.qualname(value.func, inner) or "")
        if signature is None or any(k.arg is None for k in value.keywords):
            return None
        fun_name, fun_position, spmd_position = signature
        fun = argument(value, fun_position, fun_name)
        spmd = argument(value, spmd_position, jaxapi.VMAP_SPMD_KEYWORD)
        if not (isinstance(fun, ast.Name) and isinstance(spmd, ast.Name) and spmd.id == jaxapi.VMAP_SPMD_KEYWORD):
            return None
        for name in (fun, spmd):
            binding = home.ix.single_binding(name.id, inner)
            if name.id not in names or binding is None or binding.kind is not BindingKind.PARAM:
                return None
        if param is not None and fun.id != param:
            return None
        param = fun.id
        own_in_axes = own_in_axes or argument(value, 1, "in_axes") is not None
    return None if param is None else (param, own_in_axes)


def _returned_value(home, inner: Scope, value: ast.AST) -> ast.AST:
    """A returned expression, or the one value a returned name is assigned in the function (`vec =
    jax.vmap(fn, **kw); return vec`)."""
    if isinstance(value, ast.Name):
        assigned = home.ix.single_binding(value.id, inner)
        if assigned is not None and assigned.kind is BindingKind.ASSIGN and assigned.scope is inner:
            return assigned.node
    return value


def _forwarded_parameter(
    home, func: ast.FunctionDef, inner: Scope, returned: ast.Call, kwargs: str, follow: Follow
) -> tuple[str, bool] | None:
    """For one call a wrapper `func` returns (`vmap_wrapper_parameter`): the parameter of `func` it vmaps,
    forwarding `**kwargs` once, and whether it (or a wrapper it calls) passes `in_axes` of its own."""
    if not any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwargs for k in returned.keywords):
        return None
    signature = jaxapi.VMAP_SIGNATURES.get(home.ix.qualname(returned.func, inner) or "")
    own_in_axes = argument(returned, 1 if signature is not None else None, "in_axes") is not None
    if signature is not None:
        fun = argument(returned, signature[1], signature[0])
    else:
        found = home.function(returned.func, inner)
        if found is None:
            return None
        wrapped = vmap_wrapper_parameter(found[0], found[1], follow.deeper())
        if wrapped is None:
            return None
        fun = _argument_for_parameter(returned, found[1], wrapped[0])
        own_in_axes = own_in_axes or wrapped[1]
    if not isinstance(fun, ast.Name):
        return None
    positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)]
    binding = home.ix.single_binding(fun.id, inner)
    if fun.id not in positional or binding is None or binding.kind is not BindingKind.PARAM:
        return None
    return fun.id, own_in_axes


def _argument_for_parameter(call: ast.Call, func: ast.FunctionDef, name: str) -> ast.AST | None:
    """The argument `call` passes for the parameter `name` of `func` (by position or keyword), or None."""
    positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
    return argument(call, positional.index(name) if name in positional else None, name)


def _kwargs_parameter(model: ModuleModel, expr: ast.AST, scope: Scope, keyword: str) -> ast.AST | None:
    """`**kw` where `kw` is the `**kwargs` parameter of a module-level function that a call of this module, by
    name, passes `keyword=value`: the value when that is the function's only call (its name written nowhere
    else) and the value reads alike from the vmap site (a literal, a module-level name); else `kw` itself, an
    expression the evaluator does not resolve, so that the site is reported as not followed. None when no
    call passes `keyword`."""
    if not isinstance(expr, ast.Name):
        return None
    ix = model.ix
    binding = ix.single_binding(expr.id, scope)
    if binding is None or binding.kind is not BindingKind.PARAM:
        return None
    func = ix.parent.get(id(binding.node))
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or func.args.kwarg is not binding.node:
        return None
    if ix.scope_at(func) is not ix.module_scope:
        return None
    calls = [c for c in ix.calls if isinstance(c.func, ast.Name) and c.func.id == func.name]
    if ix.word_count(func.name) == len(calls) + 1 and vmap_wrapper_parameter(model.ev, func, Follow(VMAP_FACTORY)):
        # A wrapper (`def batched(fn, **kw): return jax.vmap(fn, **kw)`) called by name only: each call that
        # may pass an spmd axis is a site of its own (`_wrapper_site`), with its own function and axis.
        return None
    passing = [c for c in calls if any(k.arg == keyword for k in c.keywords)]
    if not passing:
        # A call passing a `**dict` on, or the function putting the keyword in itself (`kw.setdefault(...)`,
        # `kw.update(...)`, `kw[key] = ...`), may give the vmap an spmd axis whose value is not read here: the
        # parameter stands for it (SPMD910), never silence (issue 22; found by a new user's trial).
        forwarded = any(k.arg is None for c in calls for k in c.keywords)
        if forwarded:
            return expr
        return _item_at_call(model, expr, scope, keyword, _enclosing_call(ix, expr), None, False, fallback=expr)
    if len(calls) != 1 or ix.word_count(func.name) != 2 or any(k.arg is None for k in calls[0].keywords):
        # Called with `keyword=` but also elsewhere (or passed on): which value the vmap gets is not known. The
        # parameter stands for it, which the evaluator cannot read: reported as not followed (SPMD910).
        return expr
    value = next(k.value for k in calls[0].keywords if k.arg == keyword)
    # Evaluated at the vmap site's scope: only what reads alike from both (`_reads_alike`).
    return value if _reads_alike(model, value, ix.scope_at(calls[0]), scope) else expr  # else SPMD910


def _reads_alike(model: ModuleModel, value: ast.AST, there: Scope, here: Scope) -> bool:
    """`value`, written in scope `there`, means the same in scope `here`: a literal, a module-level name bound
    once that both see, or a tuple or list of such (`(X,)` with `X = 'x'` a module constant: fuzz seeds 32000,
    50016)."""
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, (ast.Tuple, ast.List)):
        return all(_reads_alike(model, e, there, here) for e in value.elts)
    if isinstance(value, ast.Name):
        bound = model.ix.single_binding(value.id, there)
        return bound is not None and bound.scope is model.ix.module_scope and model.ix.single_binding(value.id, here) is bound
    return False


@dataclass(slots=True, eq=False, repr=False)
class _DictUses:
    """What the body holding a dict name does with it, as one walk (`_dict_uses`) sees it: the stores of the key
    (statement, the expression a record names, the value stored), whether something else may put the key in
    (`unread`: a computed key, `|=`, `update(more)`), and whether it is read any other way (`other`: passed
    on, another method, a store in another scope)."""

    stores: list[tuple[ast.stmt, ast.AST, ast.AST]]
    unread: bool = False
    other: bool = False


_MUTATING_METHODS = frozenset({"setdefault", "update", "__setitem__", "__ior__", "pop", "popitem", "clear"})


def _dict_uses(model: ModuleModel, name: ast.Name, scope: Scope, keyword: str) -> _DictUses:
    """Every use of the dict `name` holds in the body of `scope` but `name` itself (the `**name` of the call),
    one walk: `name[key] = v` and `name.update(key=v)` / `name.update({key: v})` / `name.setdefault(key, v)`
    with a literal key are stores (of `keyword`: kept; of another key: nothing); a computed key, `name |= ...`,
    `name.update(other)` and a store through the same name bound elsewhere may insert it (`unread`); any other
    read is `other`."""
    ix = model.ix
    binding = ix.single_binding(name.id, scope)
    uses = _DictUses([])
    for node in ast.walk(scope.node):
        if not (isinstance(node, ast.Name) and node.id == name.id) or node is name:
            continue
        up = ix.parent.get(id(node))
        if isinstance(node.ctx, ast.Store) and isinstance(up, ast.Assign):
            if ix.single_binding(node.id, scope) is binding:
                continue  # the binding itself (`kw = {}`)
        ours = ix.scope_at(node) is scope and ix.single_binding(node.id, scope) is binding
        if isinstance(up, ast.AugAssign) and up.target is node:
            uses.unread = True
            continue
        if isinstance(up, ast.Subscript) and up.value is node and isinstance(up.ctx, ast.Store):
            store = ix.parent.get(id(up))
            key = up.slice
            if not isinstance(key, ast.Constant):
                uses.unread = True
            elif key.value == keyword:
                if ours and isinstance(store, ast.Assign) and len(store.targets) == 1:
                    uses.stores.append((store, up, store.value))
                else:
                    uses.unread = True
            elif not ours:
                uses.other = True
            continue
        call = ix.parent.get(id(up)) if isinstance(up, ast.Attribute) and up.value is node else None
        if isinstance(call, ast.Call) and call.func is up and up.attr in _MUTATING_METHODS:
            stored = _method_store(call, up.attr, keyword)
            statement = ix.parent.get(id(call))
            if stored is False:
                uses.unread = True
            elif stored is not None:
                if ours and isinstance(statement, ast.Expr):
                    uses.stores.append((statement, call, stored))
                else:
                    uses.unread = True
            elif up.attr not in ("setdefault", "update") or not ours:
                uses.other = True  # `pop`, `clear`: the key may go
            continue
        uses.other = True
    return uses


def _method_store(call: ast.Call, method: str, keyword: str) -> ast.AST | bool | None:
    """What `d.update(...)` / `d.setdefault(...)` (`method`) stores for `keyword`: its value, None when it
    does not store that key, False when the key it stores is not read (`update(more)`, a computed key)."""
    if method == "update":
        if any(k.arg is None for k in call.keywords) or len(call.args) > 1:
            return False
        value = next((k.value for k in call.keywords if k.arg == keyword), None)
        if call.args:
            display = call.args[0]
            if not isinstance(display, ast.Dict) or any(not isinstance(k, ast.Constant) for k in display.keys):
                return False
            items = zip(display.keys, display.values)
            value = next((v for k, v in items if k.value == keyword), value)  # type: ignore[union-attr]
        return value
    if method == "setdefault" and call.args and isinstance(call.args[0], ast.Constant) and not call.keywords:
        if call.args[0].value != keyword:
            return None
        return call.args[1] if len(call.args) == 2 else False
    return False


def _item_at_call(
    model: ModuleModel,
    name: ast.Name,
    scope: Scope,
    keyword: str,
    call: ast.AST | None,
    initial: ast.AST | None,
    exact: bool,
    fallback: ast.AST | None = None,
) -> ast.AST | None:
    """The value of `keyword` in the dict `name` holds where `call` passes `**name`: `initial` (what the dict's
    construction gives it; `exact`, it gives no other key spmdfix cannot read) when nothing in the body puts the
    key in; the one store's value when it is stored once, unconditionally (or under `if value is not None`),
    before `call` in the same block, and the dict is read no other way; else an expression the evaluator does
    not read, so that the site is reported as not followed (SPMD910): the store's target under another
    condition, `name` (or `fallback`) otherwise. None when no value may be there: no key, no site."""
    uses = _dict_uses(model, name, scope, keyword)
    unread = fallback if fallback is not None else name
    if not uses.stores and not uses.unread:
        return initial if initial is not None or exact or fallback is not None else name
    if uses.unread or uses.other or len(uses.stores) != 1 or initial is not None or call is None:
        return unread  # (put in by a method call, a computed key, more than once: not read, SPMD910)
    statement, target, value = uses.stores[0]
    if (statement.lineno, statement.col_offset) >= (call.lineno, call.col_offset):  # type: ignore[attr-defined]
        return unread
    ix = model.ix
    block = _block_of(ix, statement)
    up = ix.parent.get(id(block[0])) if block else None
    if isinstance(up, ast.If) and block is up.body and _is_not_none_test(up.test, value):
        # `if V is not None: kw['spmd_axis_name'] = V`: a None value means no spmd axis, stored or not.
        block = _block_of(ix, up)
    if block is None or block is not _block_of(ix, _statement_of(ix, call)):
        # Stored under a condition: whether the vmap gets the value is not known. The store's target stands
        # for it, which the evaluator cannot read: the site is reported as not followed (SPMD910).
        return target
    return value


def _enclosing_call(ix, node: ast.AST) -> ast.Call | None:
    """The call whose `**` argument `node` is."""
    up = ix.parent.get(id(node))
    call = ix.parent.get(id(up)) if isinstance(up, ast.keyword) else None
    return call if isinstance(call, ast.Call) else None


def _statement_of(ix, node: ast.AST) -> ast.AST:
    """The statement `node` is written in."""
    while not isinstance(node, ast.stmt):
        node = ix.parent.get(id(node))
    return node


def _block_of(ix, stmt: ast.AST) -> list | None:
    """The statement list (a body, an else branch, ...) that holds `stmt`, or None."""
    up = ix.parent.get(id(stmt))
    for name in ("body", "orelse", "finalbody"):
        block = getattr(up, name, None)
        if isinstance(block, list) and any(s is stmt for s in block):
            return block
    return None


def _is_not_none_test(test: ast.AST, value: ast.AST) -> bool:
    """Whether `test` is `<value> is not None`, with the same expression as `value`."""
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
        and ast.dump(test.left) == ast.dump(value)
    )


def factory_of(model: ModuleModel, expr: ast.AST, scope: Scope, follow: Follow) -> Factory | None:
    """The vmap factory `expr` is (`partial(jax.vmap, spmd_axis_name=...)`, through names, parameters, `self`
    attributes and conditional expressions): its spmd_axis_name, `in_axes` and their scope, or None."""
    return _vmap_factory(model, expr, scope, follow)


def _vmap_factory(model: ModuleModel, expr: ast.AST, scope: Scope, follow: Follow) -> Factory | None:
    """The spmd_axis_name expression, the `in_axes` expression (None when not given) and the scope both are
    written in, of `partial(jax.vmap, spmd_axis_name=...)` (or a name bound to it, a parameter every call passes
    one to, or `self.vec` assigned one: `_self_factory`); None otherwise, or past `follow.VMAP_FACTORY` names.
    The partial's positional arguments after the vmap bind the vmap's own
    (`fun`, then `in_axes`), so `in_axes` is its third positional argument or the keyword."""
    if follow.spent:
        return None
    ix = model.ix
    if isinstance(expr, ast.IfExp):
        return _conditional_factory(model, expr, scope, follow)
    if isinstance(expr, ast.Attribute):
        return _self_factory(model, expr, scope, follow)
    if isinstance(expr, ast.Name):
        binding = ix.single_binding(expr.id, scope)
        if binding is not None and binding.kind is BindingKind.ASSIGN:
            return _vmap_factory(model, binding.node, binding.scope, follow.deeper())
        if binding is not None and binding.kind is BindingKind.PARAM:
            passed = ix.argument_for(binding)  # `def run(fn, vec)` called with a partial(jax.vmap)
            if passed is not None:
                return _vmap_factory(model, passed[0], passed[1], follow.deeper())
        return None
    if isinstance(expr, ast.Call) and not expr.args and ix.qualname(expr.func, scope) in jaxapi.VMAP_FACTORY_CALL_NAMES:
        # `nnx.vmap(in_axes=..., spmd_axis_name=...)` without its function is `partial(nnx.vmap, ...)` (flax
        # 0.12.8), written as a decorator `@nnx.vmap(...)`: silence before (breaker4 p10)
        spmd = next((kw.value for kw in expr.keywords if kw.arg == jaxapi.VMAP_SPMD_KEYWORD), None)
        in_axes = next((kw.value for kw in expr.keywords if kw.arg == "in_axes"), None)
        return (spmd, in_axes, scope) if spmd is not None else None
    if not (isinstance(expr, ast.Call) and expr.args):
        return None
    if ix.qualname(expr.func, scope) not in jaxapi.PARTIAL_NAMES:
        return None
    if ix.qualname(expr.args[0], scope) not in jaxapi.VMAP_NAMES:
        return None
    in_axes = expr.args[2] if len(expr.args) > 2 else None
    for kw in expr.keywords:
        if kw.arg == "in_axes":
            in_axes = kw.value
    for kw in expr.keywords:
        if kw.arg == jaxapi.VMAP_SPMD_KEYWORD:
            return kw.value, in_axes, scope
    return None


def _conditional_factory(model: ModuleModel, expr: ast.IfExp, scope: Scope, follow: Follow) -> Factory | None:
    """`partial(jax.vmap, spmd_axis_name='x') if flag else jax.vmap` (issue 22): the factory of the branch the
    condition takes, when the evaluator decides it (`Evaluator.truth`: a constant, a parameter every call passes
    one to); undecided, both branches are followed: the factory when both are factories with the same literal
    axis (the condition does not matter), None when neither is one, else the conditional expression itself
    stands for the axis, which the evaluator does not read: the site is reported as not followed (SPMD910,
    "a conditional expression, whose condition spmdfix does not decide"), never dropped."""
    decided = model.ev.truth(expr.test, scope)
    if decided is not None:
        return _vmap_factory(model, expr.body if decided else expr.orelse, scope, follow.deeper())
    body = _vmap_factory(model, expr.body, scope, follow.deeper())
    orelse = _vmap_factory(model, expr.orelse, scope, follow.deeper())
    if body is None and orelse is None:
        return None
    if body is not None and orelse is not None:
        same = isinstance(body[0], ast.Constant) and isinstance(orelse[0], ast.Constant) and body[0].value == orelse[0].value
        if same and body[1] is None and orelse[1] is None:
            return body
    return expr, None, scope


def _attributes_holding_vmaps(model: ModuleModel) -> frozenset[str]:
    """The names `NAME` of the `self.NAME = value` assignments of the module, and of the class-body `NAME =
    value` ones, whose value may be a vmap or a vmap factory (a name, an attribute such as `jax.vmap`, a call
    passing `spmd_axis_name=`): the only attribute callees of other names `vmap_sites` asks about."""
    names = set()
    for node in model.ix.attribute_assigns:
        if _may_hold_a_vmap(node.value):
            names.update(t.attr for t in node.targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name))
    for scope in model.ix.scope_by_node.values():
        if scope.is_class:
            for stmt in scope.node.body:  # type: ignore[attr-defined]
                if isinstance(stmt, ast.Assign) and _may_hold_a_vmap(stmt.value):
                    names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    return frozenset(names)


def _may_hold_a_vmap(value: ast.AST) -> bool:
    """Whether an assigned value may be a vmap or a vmap factory (`_attributes_holding_vmaps`)."""
    if isinstance(value, (ast.Name, ast.Attribute)):
        return True
    if isinstance(value, ast.IfExp):  # `partial(jax.vmap, spmd_axis_name='x') if flag else jax.vmap`
        return _may_hold_a_vmap(value.body) or _may_hold_a_vmap(value.orelse)
    return isinstance(value, ast.Call) and any(k.arg == jaxapi.VMAP_SPMD_KEYWORD for k in value.keywords)


def _self_factory(model: ModuleModel, expr: ast.Attribute, scope: Scope, follow: Follow) -> Factory | None:
    """`self.vec` inside a method, where a method of the class assigns `self.vec = partial(jax.vmap,
    spmd_axis_name=...)` (in `__init__`, from a parameter every construction of the class passes: the
    evaluator reads it through `ModuleIndex.argument_for`): that factory's spmd_axis_name and `in_axes`. When
    the class gives `vec` more than one value, one of them such a factory, or a subclass or another object
    sets it again, the attribute itself stands for the axis: the evaluator does not read it, and the site is
    reported as not followed (SPMD910), never dropped (issue 22). None when no value of `vec` is a factory."""
    members = model.ev.members
    cls = members.enclosing_class(expr, scope)
    if cls is None:
        return None
    methods, values = members.members_of(cls)
    if expr.attr in methods:
        return None
    assigned = values.get(expr.attr, ())
    factories = [f for v, inner in assigned if (f := _vmap_factory(model, v, inner, follow.deeper())) is not None]
    if not factories:
        return None
    if len(assigned) == 1 and members.self_value(expr, scope) is not None:
        return factories[0]
    return expr, None, scope


def keyword_call(model: ModuleModel, site: VmapSite) -> Span | None:
    """The call that passes the site's spmd_axis_name as the `spmd_axis_name=` keyword (the vmap call
    itself, or the `partial(jax.vmap, ...)` it comes from, maybe through a name), or None."""
    if not site.droppable:
        return None
    roots = [site.node]
    if isinstance(site.node, ast.Name):
        binding = model.ix.single_binding(site.node.id, site.scope)
        if binding is not None and binding.kind is BindingKind.ASSIGN:
            roots.append(binding.node)
    for root in roots:
        for node in ast.walk(root):
            if isinstance(node, ast.Call) and any(
                k.arg == jaxapi.VMAP_SPMD_KEYWORD and k.value is site.spmd_expr for k in node.keywords
            ):
                return model.span(node)
    return None


def shmap_error_disabled(model: ModuleModel) -> bool:
    """Whether `jax.config.update('jax_disable_vmap_shmap_error', True)` appears in the module: JAX then skips
    its spmd_axis_name-in-specs check and fails later with another error (measured; docs/rules.md, SPMD001)."""
    # (the count of arguments first: it rules out almost every call, without a function call for each)
    return any(len(c.args) == 2 and _disables_shmap_error(model, c) for c in model.ix.calls)


def _disables_shmap_error(model: ModuleModel, call: ast.Call) -> bool:
    """Whether `call` is `jax.config.update('jax_disable_vmap_shmap_error', True)` (the arguments are
    looked at before the callee's name is resolved: they rule out almost every call, and cheaply)."""
    if len(call.args) != 2:
        return False
    name, value = call.args
    if not (isinstance(name, ast.Constant) and name.value == jaxapi.DISABLE_VMAP_SHMAP_ERROR):
        return False
    if not (isinstance(value, ast.Constant) and value.value is True):
        return False
    return model.ix.qualname(call.func, model.ix.scope_at(call)) == "jax.config.update"
