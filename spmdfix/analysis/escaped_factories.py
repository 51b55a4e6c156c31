"""Vmap factories that leave what the analysis follows: SPMD910 records, never silence.

A vmap factory is `functools.partial(jax.vmap, spmd_axis_name=...)` (or flax's `nnx.vmap(in_axes=...,
spmd_axis_name=...)` without its function). `vmap_sites` follows one where it is applied: called on a function,
written as a decorator, bound to a name (or a parameter every call passes it to) that is then called or
decorates, or held by `self` (`vmap_sites._held_site`); another module's reads of a module-level one are
`exported_factories`'. Anywhere else the factory goes where the analysis does not look, and the spmd vmap it
makes runs on a function nobody read:

- passed to a library function: jax_privacy's `clipping.py` hands
  `functools.partial(jax.vmap, spmd_axis_name=spmd_axis_name)` to `optax.microbatching.micro_vmap`, which
  applies it to the function it batches;
- passed to a function of another module, or to a method;
- held in a list, tuple, dict or set display, or any other expression;
- returned by a function this module calls (`make()(layer)`);
- bound to a name that is bound more than once where it is applied.

Each was "All checks passed!" while JAX raised `vmap spmd_axis_name cannot appear in shard_map in_specs`
(golden unfollowed/spmd_vmap_factory_passed_to_a_library and its siblings). `escaped_factory_sites` finds each
such use and gives a `VmapSite` that stops there (`VmapSite.stop`): an SPMD910 record at the factory's
`spmd_axis_name`, naming the use. Pure: it reads the module's index and evaluator.
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.bindings import Binding, BindingKind, Scope
from spmdfix.analysis.follow import VMAP_FACTORY, Follow
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.uses import short
from spmdfix.analysis.vmap_sites import VmapSite, factory_of

# How many names and parameters a factory is followed through before the search gives up (and says so).
_DEPTH = 8

_CONTAINERS = {ast.List: "list", ast.Tuple: "tuple", ast.Set: "set", ast.Dict: "dict"}


def escaped_factory_sites(model: ModuleModel) -> list[VmapSite]:
    """A stopped `VmapSite` for each use of a vmap factory of this module that `vmap_sites` does not follow
    (the module docstring lists them): its node the use, its spmd_axis_name the factory's. A factory whose
    `spmd_axis_name` is the constant None (a plain vmap) is left alone. [] when the module writes none."""
    out: list[VmapSite] = []
    seen: set[tuple[int, int]] = set()
    for factory, scope in _factories(model):
        found = factory_of(model, factory, scope, Follow(VMAP_FACTORY))
        if found is None:
            continue
        spmd, _, spmd_scope = found
        if model.ev.is_none(spmd, spmd_scope):
            continue
        for node, node_scope, what in _escapes(model, factory, scope, _DEPTH, set()):
            key = (id(node), id(spmd))
            if key not in seen:
                seen.add(key)
                out.append(VmapSite(node, node_scope, None, spmd, spmd_scope=spmd_scope, stop=what))
    return out


def _factories(model: ModuleModel) -> list[tuple[ast.Call, Scope]]:
    """The factory calls of the module, written out (each passes `spmd_axis_name=` by keyword): a partial of a
    vmap, or a flax vmap called without its function."""
    ix = model.ix
    out = []
    for call in ix.calls:
        if not any(kw.arg == jaxapi.VMAP_SPMD_KEYWORD for kw in call.keywords):
            continue
        scope = ix.scope_at(call)
        if call.args:
            if ix.qualname(call.func, scope) in jaxapi.PARTIAL_NAMES:
                out.append((call, scope))
        elif ix.qualname(call.func, scope) in jaxapi.VMAP_FACTORY_CALL_NAMES:
            out.append((call, scope))
    return out


def _escapes(model: ModuleModel, expr: ast.AST, scope: Scope, depth: int, visited: set[int]):
    """(the use, its scope, why) for each place the factory value `expr` goes that the analysis does not
    follow, following it through names it is bound to and parameters of this module's functions it is passed
    to."""
    if id(expr) in visited:
        return
    visited.add(id(expr))
    if depth <= 0:
        yield expr, scope, f"`{short(expr)}` hands on a vmap factory further than spmdfix follows"
        return
    ix = model.ix
    up = ix.parent.get(id(expr))
    if isinstance(up, ast.IfExp) and expr is not up.test:
        yield from _escapes(model, up, scope, depth, visited)  # (`vmap_sites` reads the conditional)
        return
    if isinstance(up, ast.Call) and up.func is expr:
        if not up.args or factory_of(model, expr, scope, Follow(VMAP_FACTORY)) is not None:
            return  # applied: a site of `vmap_sites`
        yield expr, scope, f"`{short(expr)}` is called here, and which vmap factory it is is not known"
        return
    if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and expr in up.decorator_list:
        if factory_of(model, expr, scope, Follow(VMAP_FACTORY)) is None:
            yield expr, scope, f"`{short(expr)}` decorates `{up.name}`, and which vmap factory it is is not known"
        return
    if isinstance(up, (ast.Expr, ast.Compare)):
        return  # a statement of its own (made and dropped), or compared (`vec is None`): handed on to nothing
    if isinstance(up, (ast.Assign, ast.AnnAssign)) and up.value is expr:
        yield from _assigned(model, up, expr, depth, visited)
        return
    if isinstance(up, ast.keyword):
        call = ix.parent.get(id(up))
        if isinstance(call, ast.Call):
            yield from _passed(model, call, expr, scope, up.arg, None, depth, visited)
            return
    if isinstance(up, ast.Call) and expr in up.args:
        yield from _passed(model, up, expr, scope, None, up.args.index(expr), depth, visited)
        return
    if isinstance(up, ast.Return):
        yield from _returned(model, up, expr, scope)
        return
    target = _unpacked_into(ix, up, expr)
    if target is not None:  # `(vec, other) = (partial(...), ...)`: bound as `vec = partial(...)` (`bindings`)
        for load, load_scope in _loads_of(model, target.id, target, expr):
            yield from _escapes(model, load, load_scope, depth - 1, visited)
        return
    kind = _CONTAINERS.get(up.__class__)
    held = _module_name_holding(ix, up) if kind is not None else None
    if held is not None and not _loads_of(model, held.id, held, up):
        return  # `VMAPS = {"data": partial(...)}` read only by other modules: `exported_factories`' records
    if kind is not None:
        yield expr, scope, f"a vmap factory is held in a {kind} display here, which spmdfix does not follow: where it is applied, and to what, is not known"
        return
    where = f" (`{short(up)}`)" if isinstance(up, ast.expr) else ""
    yield expr, scope, f"a vmap factory is used here{where} other than by applying it, which spmdfix does not follow"


def _unpacked_into(ix, display: ast.AST | None, item: ast.AST) -> ast.Name | None:
    """The name `item` is bound to when `display` is a tuple or list display assigned to a target of the same
    shape (`a, b = x, y` binds `a` to `x`), or None."""
    if not isinstance(display, (ast.Tuple, ast.List)):
        return None
    stmt = ix.parent.get(id(display))
    if not isinstance(stmt, ast.Assign) or stmt.value is not display or len(stmt.targets) != 1:
        return None
    target = stmt.targets[0]
    if not isinstance(target, (ast.Tuple, ast.List)) or len(target.elts) != len(display.elts):
        return None
    named = target.elts[display.elts.index(item)]
    return named if isinstance(named, ast.Name) else None


def _module_name_holding(ix, display: ast.AST) -> ast.Name | None:
    """The module-level name a display is assigned to (`VMAPS = {...}`), or None."""
    stmt = ix.parent.get(id(display))
    if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or stmt.value is not display:
        return None
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    if len(targets) != 1 or not isinstance(targets[0], ast.Name) or ix.scope_at(stmt) is not ix.module_scope:
        return None
    return targets[0]


def _assigned(model: ModuleModel, stmt: ast.Assign | ast.AnnAssign, value: ast.AST, depth: int, visited: set[int]):
    """A factory assigned: to a name, followed to its loads that this binding reaches; to `self.NAME` or a
    class attribute, `vmap_sites`' (held factories) and `exported_factories`'. Unpacking is not followed."""
    ix = model.ix
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    for target in targets:
        if isinstance(target, ast.Attribute):
            continue
        if not isinstance(target, ast.Name):
            yield value, ix.scope_at(value), f"a vmap factory is unpacked into `{short(target)}` here, which spmdfix does not follow"
            continue
        for load, load_scope in _loads_of(model, target.id, target, value):
            yield from _escapes(model, load, load_scope, depth - 1, visited)


def _loads_of(model: ModuleModel, name: str, written: ast.AST, node: ast.AST) -> list[tuple[ast.Name, Scope]]:
    """The loads of the module that read the binding of `name` made where `written` stands (the statement or
    parameter that binds it) with `node` as its value or node (`uses.UseIndex.loads`), with their scopes."""
    ix = model.ix
    out = []
    for binding in ix.lookup(name, ix.scope_at(written)):
        if binding.node is node:
            out += [(load, ix.scope_at(load)) for load in model.uses.loads(binding)]
    return out


def _passed(model: ModuleModel, call: ast.Call, value: ast.AST, scope: Scope, keyword: str | None, position: int | None, depth: int, visited: set[int]):
    """A factory passed to `call`: followed into a function of this module called by name, to the parameter it
    binds; anywhere else (a library, another module, a method, `*args`) not followed."""
    ix = model.ix
    callee = call.func
    param = None
    if isinstance(callee, ast.Name):
        binding = ix.single_binding(callee.id, ix.scope_at(call))
        if binding is not None and binding.kind is BindingKind.DEF:
            param = _parameter(model, binding, keyword, position)
    if param is None:
        named = ix.qualname(callee, ix.scope_at(call)) if isinstance(callee, (ast.Name, ast.Attribute)) else None
        yield value, scope, (
            f"a vmap factory is passed to `{named or short(callee)}` here, which spmdfix does not follow: "
            "which function it vmaps is not known"
        )
        return
    for load in model.uses.loads(param):
        yield from _escapes(model, load, ix.scope_at(load), depth - 1, visited)


def _parameter(model: ModuleModel, function: Binding, keyword: str | None, position: int | None) -> Binding | None:
    """The parameter binding of `function` (a def of this module, not a method) that an argument passed by
    `keyword` or at `position` binds; None for `*args`/`**kwargs` or a method."""
    ix = model.ix
    node = function.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or isinstance(ix.parent.get(id(node)), ast.ClassDef):
        return None
    inner = ix.own_scope(node)
    if inner is None:
        return None
    positional = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    if keyword is not None:
        name = keyword if keyword in positional[len(node.args.posonlyargs):] or keyword in {a.arg for a in node.args.kwonlyargs} else None
    else:
        name = positional[position] if position is not None and position < len(positional) else None
    if name is None:
        return None
    found = [b for b in inner.bindings.get(name, ()) if b.kind is BindingKind.PARAM]
    return found[0] if len(found) == 1 and len(inner.bindings[name]) == 1 else None


def _returned(model: ModuleModel, stmt: ast.Return, value: ast.AST, scope: Scope):
    """A factory a function returns: `exported_factories` follows a module-level function's callers in other
    modules; its calls in this module, and those of any other function, are not followed."""
    ix = model.ix
    function = ix.parent.get(id(stmt))
    while function is not None and not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        function = ix.parent.get(id(function))
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or isinstance(ix.parent.get(id(function)), ast.ClassDef):
        yield value, scope, "a vmap factory is returned here, and where it is applied is not known"
        return
    loads = _loads_of(model, function.name, function, function)
    if loads:  # (none: the function is another module's to use, `exported_factories`, or not used at all)
        yield value, scope, (
            f"a vmap factory is returned here by `{function.name}`, which is used on line {loads[0][0].lineno}, "
            "and where it is applied is not known"
        )
