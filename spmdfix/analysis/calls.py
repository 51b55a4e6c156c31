"""Reading a call's arguments by parameter: the one place that knows keyword-or-position binding
(`argument`, `keywords`, and a whole call bound to a function's parameters, `bind_arguments`), and what a
called function gives back (`returns`; when it has one `return`, `single_return`)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from spmdfix import jaxapi

if TYPE_CHECKING:  # annotations only: `values` imports this module
    from spmdfix.analysis.bindings import Scope
    from spmdfix.analysis.scopes import ScopeIndex
    from spmdfix.analysis.values import Evaluator


def argument(call: ast.Call, position: int | None, keyword: str) -> ast.AST | None:
    """The argument bound to a parameter given by `keyword`, or by `position` (0-based; None for a
    keyword-only parameter). None when absent, or when a `*args` before that position hides it."""
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if position is None or position >= len(call.args):
        return None
    if any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
        return None
    return call.args[position]


def passed_for(ix: ScopeIndex, param) -> list[tuple[ast.AST, Scope]]:
    """The values the calls of the function holding the parameter binding `param` pass for it, by the function's
    name in this module (`run(SUMMER, b)` for `def run(s, b)`; for an `__init__`, the calls of its class's name,
    `Layer(SUMMER)`, `self` not counted), each with the scope it is read in: [(expression, Scope)]."""
    func = ix.parent.get(id(param.node))
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    positional = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
    position = positional.index(param.name) if param.name in positional else None
    name = func.name
    cls = ix.parent.get(id(func))
    if name == "__init__" and isinstance(cls, ast.ClassDef):
        name, position = cls.name, (position - 1 if position else None)
    found = []
    for call in ix.calls:
        if isinstance(call.func, ast.Name) and call.func.id == name:
            value = argument(call, position, param.name)
        elif _partial_of(ix, call, name):
            # `partial(body, s=SUMMER)`: the partial binds `s` for every call of what it makes (breaker17 c01)
            value = argument(ast.Call(call.func, call.args[1:], call.keywords), position, param.name)
        else:
            continue
        if value is not None:
            found.append((value, ix.scope_at(call)))
    return found


def _partial_of(ix: ScopeIndex, call: ast.Call, name: str) -> bool:
    """Whether `call` is `functools.partial(name, ...)` (or `jax.tree_util.Partial`)."""
    return (
        bool(call.args) and isinstance(call.args[0], ast.Name) and call.args[0].id == name
        and isinstance(call.func, (ast.Name, ast.Attribute))
        and ix.qualname(call.func, ix.scope_at(call)) in jaxapi.PARTIAL_NAMES
    )


def keywords(call: ast.Call) -> dict[str, ast.AST]:
    """The call's keyword arguments by name (`**kw` left out)."""
    return {kw.arg: kw.value for kw in call.keywords if kw.arg is not None}


def single_return(func: ast.AST) -> ast.AST | None:
    """The expression of a function's only `return` statement (nested functions ignored), or None."""
    found = returns(func)
    return found[0] if found is not None and len(found) == 1 else None


def returns(func: ast.AST) -> list[ast.AST] | None:
    """The expressions of every `return` statement of a function (nested functions ignored), in no set order;
    None when there is none, or one returns nothing (`return`, a value of None the caller gets)."""
    found: list[ast.AST] = []
    stack = list(getattr(func, "body", []))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return):
            if node.value is None:
                return None
            found.append(node.value)
        stack.extend(ast.iter_child_nodes(node))
    return found or None


def bind_arguments(
    ev: Evaluator, call: ast.Call, scope: Scope, home: Evaluator, func: ast.FunctionDef, method: bool = False
) -> dict[str, tuple[Evaluator, ast.AST, Scope]] | None:
    """The parameters of `func` bound to the arguments of `call` (by position, then by keyword; a parameter
    left out to its default, evaluated where `func` is defined: in `home`, the evaluator of its module), each
    as (evaluator, expression, scope), or None when the call passes `*args` or
    `**kwargs`, more positional arguments than named parameters, a keyword `func` does not take, or leaves
    out a parameter without a default. `method`: `func` is a method the call runs on an instance (a class's
    `__init__` for `Config(...)`): its first parameter (`self`) is left unbound."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    instance = None  # (the instance parameter of a method: not the call's to bind)
    if method:
        if not positional:
            return None
        instance, positional = positional[0].arg, positional[1:]
    if len(call.args) > len(positional):
        return None
    bound: dict[str, tuple[Evaluator, ast.AST, Scope]] = {}
    for param, value in zip(positional, call.args):
        bound[param.arg] = (ev, value, scope)
    keywords = {a.arg for a in (*args.args, *args.kwonlyargs)} - {instance}
    for kw in call.keywords:
        if kw.arg not in keywords or kw.arg in bound:
            return None
        bound[kw.arg] = (ev, kw.value, scope)
    outer = home.ix.scope_at(func)
    defaults = dict(zip([a.arg for a in positional[len(positional) - len(args.defaults) :]], args.defaults))
    defaults.update((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
    for param in (*positional, *args.kwonlyargs):
        if param.arg not in bound:
            if param.arg not in defaults:
                return None
            bound[param.arg] = (home, defaults[param.arg], outer)
    return bound
