"""shard_map in all its spellings: where a module builds one, with its arguments, and the function it maps.

`construction`, `decorated_site` and `factory` recognise `shard_map(f, ...)`, the factory form
`jax.shard_map(mesh=..., in_specs=..., out_specs=...)(f)`, `functools.partial(shard_map, ...)`, each as a call
or a decorator, and names bound to any of them; `jax.smap` (a shard_map over one axis) in the same spellings.
The call walk (`reach.Reacher`) asks them where a traced body builds a shard_map; `unwrap_body` finds the
function a shard_map maps. What is known of a construction is built by `analysis.shard_map_facts`.
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.jaxapi import ShardMapApi
from spmdfix.analysis.bindings import FUNCTION_NODES, BindingKind, Scope
from spmdfix.analysis.calls import argument, keywords, single_return
from spmdfix.analysis.follow import BODY, SHARD_MAP_FACTORY, Follow
from spmdfix.analysis.scopes import ModuleIndex
from spmdfix.analysis.values import bound_for
from spmdfix.paths import relpath
from spmdfix.perf import frozen


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@frozen(eq=False, repr=False)
class ShardMapSite:
    """One shard_map construction: where it is written and its arguments (expressions, None when absent).

    node: the construction call or decorator expression. body: the mapped function (an expression, or
    the decorated `def`). api: which shard_map API it calls (`jaxapi.ShardMapApi`; for `jax.smap`, args
    hold `in_axes`, `out_axes` and `axis_name` instead of specs and a mesh).
    """

    node: ast.AST
    scope: Scope
    api: ShardMapApi
    body: ast.AST | None
    body_scope: Scope
    args: dict[str, ast.AST]
    # Why the arguments cannot be read in one scope, when they cannot (`reading_scope`): the walk records the
    # construction as a place it does not follow (SPMD910) instead of reading it.
    unreadable: str | None = None


# --- recognition ----------------------------------------------------------------------------------------
def shard_map_api(ix: ModuleIndex, func: ast.AST, scope: Scope) -> ShardMapApi | None:
    """The shard_map API a callee spells (`ShardMapSite.api`), or None for any other callee."""
    return jaxapi.SHARD_MAP_APIS.get(ix.qualname(func, scope) or "")


def factory(
    ix: ModuleIndex, expr: ast.AST, scope: Scope, follow: Follow | None = None
) -> tuple[ShardMapApi, dict[str, ast.AST], Scope, str | None] | None:
    """A shard_map waiting for its function: `jax.shard_map(mesh=..., ...)`, `partial(shard_map, ...)`.

    Returns (api, keyword arguments, the scope they are evaluated in, why they cannot all be read in that one
    scope or None: `reading_scope`), or None (past `follow.SHARD_MAP_FACTORY` names and partials too).
    """
    follow = follow or Follow(SHARD_MAP_FACTORY)
    if follow.spent:
        return None
    if isinstance(expr, ast.Name):
        binding = ix.single_binding(expr.id, scope)
        if binding is not None and binding.kind is BindingKind.ASSIGN:
            return factory(ix, binding.node, binding.scope, follow.deeper())
        return None
    if not isinstance(expr, ast.Call):
        return None
    api = shard_map_api(ix, expr.func, scope)
    if api is not None and not expr.args:
        return api, shard_map_keywords(expr), scope, None
    if ix.qualname(expr.func, scope) in jaxapi.PARTIAL_NAMES and expr.args:
        api = shard_map_api(ix, expr.args[0], scope)
        if api is None:
            inner = factory(ix, expr.args[0], scope, follow.deeper())
            if inner is None:
                return None
            api, kwargs, inner_scope, unreadable = inner
            own = shard_map_keywords(expr)
            where, why = reading_scope(ix, kwargs, inner_scope, own, scope)
            return api, {**kwargs, **own}, where, unreadable or why
        kwargs = shard_map_keywords(expr)
        for name, value in zip(jaxapi.SHARD_MAP_POSITIONS[1:], expr.args[1:]):
            kwargs.setdefault(name, value)
        return api, kwargs, scope, None
    return None


def reading_scope(
    ix: ModuleIndex, made: dict[str, ast.AST], made_in: Scope, own: dict[str, ast.AST], scope: Scope
) -> tuple[Scope, str | None]:
    """The one scope in which a shard_map factory's arguments `made` (written in `made_in`) and the arguments
    `own` its application adds (written in `scope`) all read as Python reads them, and why there is none.

    A factory is often written in another scope than where it is applied (`smap = partial(jax.shard_map,
    mesh=MESH, in_specs=P(AX), ...)` at module level, `smap(block)` in a function). Read in the application's
    scope, a name of the factory's arguments that the function binds again (a local `AX = 'y'`) was read as
    that local: a collision JAX never sees, whose SAFE rename moved the vmap onto the axis the specs really
    name (JAX then raised `vmap spmd_axis_name cannot appear in shard_map in_specs`). Returns `scope` when
    every name of `made` means there what it means in `made_in` (as before: a scope bound for one call keeps
    its arguments), else `made_in` when every name of `own` means there what it means in `scope`, else
    `scope` with the words of an SPMD910 record (`ShardMapSite.unreadable`)."""
    if made_in is scope or _reads_alike(ix, made, made_in, scope):
        return scope, None
    if _reads_alike(ix, own, scope, made_in):
        return made_in, None
    shadowed = _shadowed(ix, made, made_in, scope)
    return scope, (
        f"the shard_map's arguments are written in two scopes that bind `{shadowed}` differently (its factory's "
        "and the call applying it): spmdfix does not read them"
    )


def _names(values) -> list[str]:
    return [n.id for v in values for n in ast.walk(v) if isinstance(n, ast.Name)]


def _reads_alike(ix: ModuleIndex, args: dict[str, ast.AST], written: Scope, read: Scope) -> bool:
    """Whether every name in `args` (written in scope `written`) has the same bindings seen from `read`."""
    return all(_same_bindings(ix.lookup(name, written), ix.lookup(name, read)) for name in _names(args.values()))


def _shadowed(ix: ModuleIndex, args: dict[str, ast.AST], written: Scope, read: Scope) -> str:
    """The first name in `args` whose bindings differ between the two scopes."""
    return next(
        (n for n in _names(args.values()) if not _same_bindings(ix.lookup(n, written), ix.lookup(n, read))), "?"
    )


def _same_bindings(a: list, b: list) -> bool:
    return a is b or (len(a) == len(b) and all(x is y for x, y in zip(a, b)))


def shard_map_keywords(call: ast.Call) -> dict[str, ast.AST]:
    """The keyword arguments of a shard_map (or of a partial of one) by name; the specs and the mesh a `**mapping`
    may give, when not written by name, are that mapping's expression, which no reading resolves to specs: an
    unread value (an SPMD910 record), not an absent one (safety/trials/breaker12 s29:
    `@functools.partial(jax.shard_map, **specs())` was 'All checks passed!' while JAX raised SPMD001's error)."""
    found = keywords(call)
    for kw in call.keywords:
        if kw.arg is None:
            for name in ("mesh", "in_specs", "out_specs"):
                found.setdefault(name, kw.value)
    return found


def construction(ix: ModuleIndex, call: ast.Call, scope: Scope) -> ShardMapSite | None:
    """The ShardMapSite when `call` builds a shard-mapped function, else None."""
    api = shard_map_api(ix, call.func, scope)
    if api is not None and call.args:
        kwargs = shard_map_keywords(call)
        for name, value in zip(jaxapi.SHARD_MAP_POSITIONS, call.args):
            kwargs.setdefault(name, value)
        body = kwargs.pop("f")
        return ShardMapSite(call, scope, api, body, scope, kwargs)
    made = factory(ix, call.func, scope)
    if made is not None and call.args:
        api, kwargs, made_in, unreadable = made
        own = shard_map_keywords(call)
        where, why = reading_scope(ix, kwargs, made_in, own, scope)
        return ShardMapSite(call, where, api, call.args[0], scope, {**kwargs, **own}, unreadable or why)
    return None


def decorated_site(ix: ModuleIndex, func: ast.AST) -> ShardMapSite | None:
    """The ShardMapSite when a `def` is decorated by a shard_map factory."""
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    scope = ix.scope_at(func)
    for deco in func.decorator_list:
        made = factory(ix, deco, scope)
        if made is not None:
            api, kwargs, made_in, unreadable = made
            where, why = reading_scope(ix, kwargs, made_in, {}, scope)
            return ShardMapSite(deco, where, api, func, scope, dict(kwargs), unreadable or why)
    return None




def local_body_holder(ix: ModuleIndex, expr: ast.AST | None, scope: Scope) -> tuple[ast.AST, str] | None:
    """Where `unwrap_body` stops without a function, when what it stops at is a value of a function: a name a
    function binds other than once to a `def` or a value (a loop variable, a parameter, a name bound several
    times), or a subscript, attribute or call whose root is one (`fns[0]`, `self.act`). The body held there is
    made while that function runs and may close over values a vmap on the way batches, which the analysis then
    does not read (breaker6 r35: `for f in fns: jax.shard_map(f, ...)` with `fns` lambdas closing over a batched
    value; JAX fails as on the lambda written in place, safety/trials/breaker6/measure_unresolved_body_captures.py).
    Returns (the expression, why); None when `unwrap_body` finds the function, or stops at a value of the module
    or a library (`ACTS["tanh"]`, `jnp.tanh`: made at import, nothing batched to close over)."""
    stop = body_stop(ix, expr, scope)
    if stop is None:
        return None
    expr, scope = stop
    if isinstance(expr, ast.Name):
        return _local_name(ix, expr, scope)
    root = expr
    while isinstance(root, (ast.Subscript, ast.Attribute, ast.Call)):
        root = root.func if isinstance(root, ast.Call) else root.value
    if not isinstance(root, ast.Name):
        return None
    held = _local_name(ix, root, scope)
    return (expr, held[1]) if held is not None else None


def parameter_body(ix: ModuleIndex, expr: ast.AST | None, scope: Scope) -> bool:
    """Whether `unwrap_body` stops at a parameter of the function applying the shard_map (`def apply(x, f):
    jax.shard_map(f, ...)`): the callable, and what it closes over, is what each call passes, which a reading
    shared by every call does not see (`analyzer.summary_for` reads such a function per call of another module;
    a closure passed there was silent: leftovers7 l01)."""
    stop = body_stop(ix, expr, scope)
    if stop is None or not isinstance(stop[0], ast.Name):
        return False
    local = [b for b in ix.lookup(stop[0].id, stop[1]) if isinstance(b.scope.node, FUNCTION_NODES)]
    return len(local) == 1 and local[0].kind is BindingKind.PARAM


def body_stop(ix: ModuleIndex, expr: ast.AST | None, scope: Scope) -> tuple[ast.AST, Scope] | None:
    """Where `unwrap_body` stops without a function: the expression (a name not bound once to a `def` or a value,
    or another expression than a vmap, partial or wrapper call) with the scope it is read in; None when it finds
    a function, meets no expression, or runs past `follow.BODY` steps."""
    return _unwrap(ix, expr, scope)[2]


def method_read(ix: ModuleIndex, expr: ast.AST | None, scope: Scope) -> tuple[ast.Attribute, Scope] | None:
    """Where `unwrap_body` stops, when it stops, with no wrapper met on the way, at an attribute of a name
    (`self._block`, `layer.block`; also through names bound once to one, `fn = self._block`): the read and the
    scope it is read in, for `analysis.method_body` to resolve to a method. None otherwise (a wrapper such as
    `partial(self._block, w)` or `jax.vmap(self._block)` binds or maps arguments that resolution does not line up)."""
    function, wrappers, stop = _unwrap(ix, expr, scope)
    if function is not None or wrappers or stop is None:
        return None
    read, where = stop
    if isinstance(read, ast.Attribute) and isinstance(read.value, ast.Name) and isinstance(read.ctx, ast.Load):
        return read, where
    return None


def _local_name(ix: ModuleIndex, name: ast.Name, scope: Scope) -> tuple[ast.AST, str] | None:
    """(name, why) when a function binds `name` where it is read (`local_body_holder`), else None. A parameter
    counts when the call its function is read for (`scope` under a `values.BoundScope`: a call of another module,
    `analyzer.summary_for`) passes a value of a function for it, or, read for no call, when a call of its function
    in this module does (`apply(x, lambda b: b * s)` in a function): a decorator's parameter (`def
    data_parallel(fn)`), given the decorated `def`, or one given module-level or library callables, does not."""
    bindings = ix.lookup(name.id, scope)
    local = [b for b in bindings if isinstance(b.scope.node, FUNCTION_NODES)]
    if not local:
        return None
    kinds = {b.kind for b in local}
    if len(local) == 1 and BindingKind.PARAM in kinds:
        bound = bound_for(scope, local[0].scope)
        if bound is not None and name.id in bound.arguments:
            # the function read for one call (`values.BoundScope`), maybe of another module: that call's argument
            ev, passed, where = bound.arguments[name.id]
            if not _local_value(ev.ix, passed, where):
                return None
            path = ev.project.path if ev.project is not None else ev.ix.path  # (the checked module's index has none)
            place = f"line {passed.lineno}" if ev.ix is ix or not path else f"{relpath(path)} line {passed.lineno}"
        else:
            passed = _local_argument(ix, local[0])
            if passed is None:
                return None
            place = f"line {passed.lineno}"
        if isinstance(passed, (ast.FunctionDef, ast.AsyncFunctionDef)):  # (a decorator's, given what it decorates)
            why = f"`{name.id}` is a parameter, given the `def {passed.name}` it decorates ({place})"
        else:
            why = f"`{name.id}` is a parameter, given `{ast.unparse(passed)[:60]}` ({place})"
    elif len(local) > 1:
        why = f"`{name.id}` is bound several times in a function"
    elif BindingKind.OTHER in kinds and _loop_over_module_values(ix, local[0].node):
        return None  # `for f in (jnp.tanh, jnp.sin)`: values made at import, nothing batched to close over
    elif BindingKind.OTHER in kinds:
        why = f"`{name.id}` is bound by a loop, `with` or unpacking in a function"
    else:
        why = f"`{name.id}` is bound in a function"
    return name, why


def _loop_over_module_values(ix: ModuleIndex, target: ast.AST) -> bool:
    """Whether `target` is the name a `for` loop (or comprehension) binds, iterating over values none of which is
    a value of a function (`_local_value`): a tuple or list display of library or module-level callables, or a
    module-level name."""
    loop = ix.parent.get(id(target))
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.comprehension)) or loop.target is not target:
        return False
    scope = ix.scope_at(loop.iter)
    items = loop.iter.elts if isinstance(loop.iter, (ast.Tuple, ast.List)) else [loop.iter]
    return not any(isinstance(e, ast.Starred) or _local_value(ix, e, scope) for e in items)


def closes_over_locals(ix: ModuleIndex, func: ast.AST) -> bool:
    """Whether the lambda or `def` `func` reads a name bound by a function around it (not by itself)."""
    for node in ast.walk(func.body if isinstance(func, ast.Lambda) else func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            bindings = ix.lookup(node.id, ix.scope_at(node))
            if bindings and isinstance(bindings[0].scope.node, FUNCTION_NODES):
                owner = bindings[0].scope.node
                if owner is not func and not any(anc is func for anc in ix.ancestors(owner)):
                    return True
    return False


def _local_argument(ix: ModuleIndex, param) -> ast.AST | None:
    """The first value a call of the function holding `param` (by its name, in this module) passes for it that is
    a value of a function (`_local_value`), or the first `def` such a function decorates (`_decorated_local`), or
    None."""
    func = ix.parent.get(id(param.node))
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
    position = positional.index(param.name) if param.name in positional else None
    for call in ix.calls:
        if not (isinstance(call.func, ast.Name) and call.func.id == func.name):
            continue
        value = argument(call, position, param.name)
        if value is not None and _local_value(ix, value, ix.scope_at(call)):
            return value
    if position == 0:
        return _decorated_local(ix, func)
    return None


def _decorated_local(ix: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST | None:
    """A `def` of a function, closing over its names (`_local_value`), that the decorator `func` decorates: `@func`,
    or `@factory(...)` when `func` is the `def` a factory of the module returns (`def factory(axis): def
    deco(fn): ...; return deco`). Its parameter `fn` is then that `def`, whose captures the analysis does not read
    (leftovers7: `@model_parallel` over a `def` in the vmapped function closing over a batched value; JAX fails,
    spmdfix was silent)."""
    outer = ix.enclosing_function(func)
    made = single_return(outer) if isinstance(outer, ast.FunctionDef) else None
    uses = [(func.name, False)]
    if isinstance(made, ast.Name) and made.id == func.name:
        uses.append((outer.name, True))  # type: ignore[union-attr]
    for name, called in uses:
        for load in ix.loads_of(name):
            deco = ix.parent.get(id(load)) if called else load
            if called and not (isinstance(deco, ast.Call) and deco.func is load):
                continue
            node = ix.parent.get(id(deco))
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or deco not in node.decorator_list:
                continue
            binding = ix.single_binding(name, ix.scope_at(node))
            target = func if not called else outer
            if binding is not None and binding.node is target and _local_value(ix, node, ix.scope_at(node)):
                return node
    return None


def _local_value(ix: ModuleIndex, value: ast.AST, scope: Scope) -> bool:
    """Whether `value` is made while a function runs: a lambda or `def` inside a function reading a name a
    function binds outside it (`lambda b: b * s`; `lambda b: b * b` closes over nothing), or a name a function
    binds (also at the root of a subscript, attribute or call)."""
    if isinstance(value, FUNCTION_NODES):
        return ix.enclosing_function(value) is not None and closes_over_locals(ix, value)
    root = value
    while isinstance(root, (ast.Subscript, ast.Attribute, ast.Call)):
        root = root.func if isinstance(root, ast.Call) else root.value
    if not isinstance(root, ast.Name):
        return False
    return any(isinstance(b.scope.node, FUNCTION_NODES) for b in ix.lookup(root.id, scope))


def unwrap_body(
    ix: ModuleIndex, expr: ast.AST | None, scope: Scope
) -> tuple[ast.AST | None, list[tuple[str, ast.Call]]]:
    """(the mapped function, the wrapper calls met on the way to it, outermost first, each with its
    qualified name: `shard_map(jax.vmap(f))` gives `[("jax.vmap", <call>)]`). The function is None when a
    step is not a name bound once to a def or value, a vmap, partial or wrapper, or past `follow.BODY` steps."""
    function, wrappers, _ = _unwrap(ix, expr, scope)
    return function, wrappers


def _unwrap(
    ix: ModuleIndex, expr: ast.AST | None, scope: Scope
) -> tuple[ast.AST | None, list[tuple[str, ast.Call]], tuple[ast.AST, Scope] | None]:
    """`unwrap_body`'s walk: (the function, the wrappers, where it stopped without a function: the expression
    and the scope it is read in, None when it found one, met no expression or ran past `follow.BODY` steps)."""
    wrappers: list[tuple[str, ast.Call]] = []
    step = Follow(BODY)
    while not step.spent:
        step = step.deeper()
        if expr is None:
            return None, wrappers, None
        if isinstance(expr, FUNCTION_NODES):
            return expr, wrappers, None
        if isinstance(expr, ast.Name):
            binding = ix.single_binding(expr.id, scope)
            if binding is None or binding.kind not in (BindingKind.DEF, BindingKind.ASSIGN):
                return None, wrappers, (expr, scope)
            expr, scope = binding.node, binding.scope
        elif isinstance(expr, ast.Call) and expr.args:
            qname = ix.qualname(expr.func, scope)
            known = (jaxapi.VMAP_NAMES, jaxapi.PARTIAL_NAMES, jaxapi.WRAPPER_NAMES)
            if not any(qname in names for names in known):
                return None, wrappers, (expr, scope)
            wrappers.append((qname, expr))
            expr = expr.args[0]
        else:
            return None, wrappers, (expr, scope)
    return None, wrappers, None
