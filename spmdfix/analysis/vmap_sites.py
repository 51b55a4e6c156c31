"""The vmap sites of a module that pass an spmd_axis_name, in every spelling the analysis follows.

A site is a `jax.vmap(f, spmd_axis_name=...)` call (the name also positional, 6th; or from a `**kwargs` dict
display or `dict(...)` call), a `partial(jax.vmap, spmd_axis_name=...)` applied to a function or used as a
decorator, a name or parameter bound to such a partial, and `self.vec(f)` where a method of the class assigns
`self.vec` such a partial (`__init__`, its axis a parameter every construction passes). `vmap_sites` finds them; the driver
(`analysis.analyzer`) evaluates each one's spmd_axis_name and follows its function.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from spmdfix import jaxapi
from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.calls import argument
from spmdfix.analysis.follow import VMAP_FACTORY, Follow
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.model import Span

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

    @property
    def spmd_where(self) -> Scope:
        """The scope the spmd_axis_name expression is evaluated in."""
        return self.spmd_scope if self.spmd_scope is not None else self.scope


def vmap_sites(model: ModuleModel) -> list[VmapSite]:
    """Every vmap application or decoration that passes an spmd_axis_name, in source order."""
    sites: list[VmapSite] = []
    ix = model.ix
    held = _self_attributes_holding_calls(model)
    for call in ix.calls:
        func = call.func
        kind = func.__class__
        if kind is ast.Attribute and func.attr not in _VMAP_LAST_NAMES:  # type: ignore[attr-defined]
            # `x.attr(...)` resolves to a name ending in `.attr`, no vmap's. Most calls of a module are such
            # method calls: no name resolution for them, unless a method assigns `self.attr` a value that may
            # be a `partial(jax.vmap, spmd_axis_name=...)` (`self.vec(step)` in another method, issue 22).
            if func.attr in held and call.args:  # type: ignore[attr-defined]
                factory = _vmap_factory(model, func, ix.scope_at(call), Follow(VMAP_FACTORY))
                if factory is not None:
                    sites.append(VmapSite(call, ix.scope_at(call), call.args[0], *factory))
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
                    continue
        signature = jaxapi.VMAP_SIGNATURES.get(ix.qualname(func, scope) or "")
        if signature is not None:
            fun_name, fun_position, spmd_position = signature
            spmd = argument(call, spmd_position, jaxapi.VMAP_SPMD_KEYWORD)
            if spmd is None:
                spmd = _from_kwargs(model, call, scope, jaxapi.VMAP_SPMD_KEYWORD)
            if spmd is not None:
                fun = argument(call, fun_position, fun_name)
                in_axes = argument(call, 1, "in_axes")
                if in_axes is None:
                    # from the same `**kw` the spmd axis is read from (a kwarg forwarded by a helper: fuzz
                    # seed 60128); the `**kw` name itself when its value is not one known expression
                    in_axes = _from_kwargs(model, call, scope, "in_axes")
                sites.append(VmapSite(call, scope, fun, spmd, in_axes))
            continue
        factory = _vmap_factory(model, call.func, scope, Follow(VMAP_FACTORY))
        if factory is not None and call.args:
            sites.append(VmapSite(call, scope, call.args[0], *factory))
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
            for key, item in zip(value.keys, value.values):
                if isinstance(key, ast.Constant) and key.value == keyword:
                    return item
            if None not in value.keys and isinstance(kw.value, ast.Name):
                stored = _stored_item(model, kw.value, scope, keyword, call)
                if stored is not None:
                    return stored
                if _may_insert(model, kw.value.id, scope.node, keyword):
                    return kw.value  # (put in by a method call or a computed key: not read, SPMD910)
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
            for item in value.keywords:
                if item.arg == keyword:
                    return item.value
    return None


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
    passing = [c for c in calls if any(k.arg == keyword for k in c.keywords)]
    if not passing:
        # A call passing a `**dict` on, or the function putting the keyword in itself (`kw.setdefault(...)`,
        # `kw.update(...)`, `kw[key] = ...`), may give the vmap an spmd axis whose value is not read here: the
        # parameter stands for it (SPMD910), never silence (issue 22; found by a new user's trial).
        forwarded = any(k.arg is None for c in calls for k in c.keywords)
        return expr if forwarded or _may_insert(model, expr.id, func, keyword) else None
    if len(calls) != 1 or ix.word_count(func.name) != 2 or any(k.arg is None for k in calls[0].keywords):
        # Called with `keyword=` but also elsewhere (or passed on): which value the vmap gets is not known. The
        # parameter stands for it, which the evaluator cannot read: reported as not followed (SPMD910).
        return expr
    value = next(k.value for k in calls[0].keywords if k.arg == keyword)
    # Evaluated at the vmap site's scope: only what reads alike from both (`_reads_alike`).
    return value if _reads_alike(model, value, ix.scope_at(calls[0]), scope) else expr  # else SPMD910


_INSERTING_METHODS = frozenset({"setdefault", "update", "__setitem__", "__ior__"})


def _may_insert(model: ModuleModel, name: str, owner: ast.AST, keyword: str) -> bool:
    """Whether the body of `owner` may put `keyword` into the dict the plain name `name` holds: a method call
    that inserts (`name.setdefault(...)`, `name.update(...)`) whose key is `keyword` or not a literal, a
    store `name[key] = ...` whose key is `keyword` or not a literal, or `name |= ...`."""
    ix = model.ix
    for node in ast.walk(owner):
        if not (isinstance(node, ast.Name) and node.id == name):
            continue
        up = ix.parent.get(id(node))
        if isinstance(up, ast.AugAssign) and up.target is node:
            return True
        if isinstance(up, ast.Attribute) and up.value is node and up.attr in _INSERTING_METHODS:
            call = ix.parent.get(id(up))
            if isinstance(call, ast.Call) and call.func is up:
                key = call.args[0] if call.args and up.attr != "update" else None
                if not (isinstance(key, ast.Constant) and key.value != keyword):
                    return True
        if isinstance(up, ast.Subscript) and up.value is node and isinstance(up.ctx, ast.Store):
            key = up.slice
            if not (isinstance(key, ast.Constant) and key.value != keyword):
                return True
    return False


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


def _stored_item(model: ModuleModel, name: ast.Name, scope: Scope, keyword: str, call: ast.Call) -> ast.AST | None:
    """`kw['key'] = value` stored once, before `call` in the same scope, into the dict display `kw` names
    (unconditionally, or under `if value is not None`; under another condition, the store's target `kw['key']`,
    whose value the evaluator does not know); None when `kw` is changed any other way (another store, `del`, a method call such as `update`), passed
    on, or read in any way but the `**kw` of `call` and that store."""
    ix = model.ix
    binding = ix.single_binding(name.id, scope)
    stores = []
    for node in ast.walk(scope.node):
        if not (isinstance(node, ast.Name) and node.id == name.id) or node is name:
            continue
        if ix.scope_at(node) is not scope or ix.single_binding(node.id, scope) is not binding:
            return None
        up = ix.parent.get(id(node))
        if isinstance(up, ast.Subscript) and up.value is node and isinstance(up.ctx, ast.Store):
            store = ix.parent.get(id(up))
            key = up.slice
            if not (isinstance(store, ast.Assign) and len(store.targets) == 1 and isinstance(key, ast.Constant)):
                return None
            if key.value == keyword:
                stores.append(store)
            continue
        if isinstance(node.ctx, ast.Store) and isinstance(up, ast.Assign):
            continue  # the binding itself (`kw = {}`)
        return None
    if len(stores) != 1 or (stores[0].lineno, stores[0].col_offset) >= (call.lineno, call.col_offset):
        return None
    store = stores[0]
    block = _block_of(ix, store)
    up = ix.parent.get(id(block[0])) if block else None
    if isinstance(up, ast.If) and block is up.body and _is_not_none_test(up.test, store.value):
        # `if V is not None: kw['spmd_axis_name'] = V`: a None value means no spmd axis, stored or not.
        block = _block_of(ix, up)
    if block is None or block is not _block_of(ix, _statement_of(ix, call)):
        # Stored under a condition: whether the vmap gets the value is not known. The store's target stands
        # for it, which the evaluator cannot read: the site is reported as not followed (SPMD910).
        return store.targets[0]
    return store.value


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


def _vmap_factory(model: ModuleModel, expr: ast.AST, scope: Scope, follow: Follow) -> Factory | None:
    """The spmd_axis_name expression, the `in_axes` expression (None when not given) and the scope both are
    written in, of `partial(jax.vmap, spmd_axis_name=...)` (or a name bound to it, a parameter every call passes
    one to, or `self.vec` assigned one: `_self_factory`); None otherwise, or past `follow.VMAP_FACTORY` names. The partial's positional arguments after the vmap bind the vmap's own
    (`fun`, then `in_axes`), so `in_axes` is its third positional argument or the keyword."""
    if follow.spent:
        return None
    ix = model.ix
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


def _self_attributes_holding_calls(model: ModuleModel) -> frozenset[str]:
    """The names `NAME` of the `self.NAME = value` assignments of the module whose value may be a vmap factory
    (a call passing `spmd_axis_name=`, or a name): the only attribute callees `vmap_sites` asks about."""
    names = set()
    for node in model.ix.attribute_assigns:
        value = node.value
        if isinstance(value, ast.Name) or (
            isinstance(value, ast.Call) and any(k.arg == jaxapi.VMAP_SPMD_KEYWORD for k in value.keywords)
        ):
            names.update(
                t.attr for t in node.targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
            )
    return frozenset(names)


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
