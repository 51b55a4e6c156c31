"""Axis names computed from a mesh or from sets: `mesh.axis_names`, `frozenset(mesh.axis_names) - {'x'}`,
`manual` bound to `{SEQ}` (issue 22, kind 5).

A shard_map's `axis_names=` and a collective's axis argument are often not written as a literal display:
they are read off the mesh (`jax.lax.pmean(b, mesh.axis_names)`) or built with set operators. This module
evaluates such an expression over a small domain, the axis names as strings: string constants, tuple/list/set
displays of them, `set(...)`, `frozenset(...)`, `tuple(...)`, `list(...)` of one such value, the operators
`-`, `|`, `&` between two of them, and `<mesh>.axis_names` of a mesh the analysis resolves
(`meshes.resolve_mesh`), through names bound once (`values.Evaluator.follow`). Anything else is None: the
caller reports it as not read, never as a guess.

Measured on jax 0.10.2 (safety/measurements/axis_names_from_mesh.py): a collective over `mesh.axis_names`
covers the spmd axis (SPMD004: wrong values under check_vma=False); `axis_names=frozenset(mesh.axis_names) -
{'x'}` and a local `manual = {SEQ}` leave the spmd axis out (SPMD008's errors, eager and under jit).
"""

from __future__ import annotations

import ast

from spmdfix.analysis.bindings import Scope
from spmdfix.analysis.meshes import resolve_mesh
from spmdfix.analysis.values import Evaluator

_CONVERSIONS = frozenset({"set", "frozenset", "tuple", "list"})
_OPERATORS = {ast.Sub: frozenset.__sub__, ast.BitOr: frozenset.__or__, ast.BitAnd: frozenset.__and__}


def axis_sequence(ev: Evaluator, expr: ast.AST, scope: Scope, depth: int = 0) -> tuple[str, ...] | None:
    """The axis names `expr` evaluates to, in order (a set operator's result sorted), or None when some part
    is outside the domain of the module docstring. `depth` bounds the recursion (nested operators)."""
    if depth > 8:
        return None
    if isinstance(expr, ast.Attribute) and expr.attr == "axis_names":
        mesh = resolve_mesh(ev, expr.value, scope)
        if mesh is not None:
            return tuple(mesh.axis_names)
    followed = ev.follow(expr, scope)
    if followed is None:
        return None
    home, value, inner = followed
    if value is not expr:
        return axis_sequence(home, value, inner, depth + 1)
    if isinstance(value, ast.Constant):
        return (value.value,) if isinstance(value.value, str) else None
    if isinstance(value, (ast.Set, ast.Tuple, ast.List)):
        out = []
        for elt in value.elts:
            item = None if isinstance(elt, ast.Starred) else axis_sequence(home, elt, inner, depth + 1)
            if item is None or len(item) != 1 or not _is_single(home, elt, inner):
                return None
            out.append(item[0])
        return tuple(out)
    if isinstance(value, ast.Call) and _conversion(home, value, inner) and len(value.args) == 1:
        if value.keywords or isinstance(value.args[0], ast.Starred) or _is_string(home, value.args[0], inner):
            return None  # (`set('xy')` is a set of characters)
        return axis_sequence(home, value.args[0], inner, depth + 1)
    if isinstance(value, ast.BinOp) and type(value.op) in _OPERATORS:
        left = axis_sequence(home, value.left, inner, depth + 1)
        right = axis_sequence(home, value.right, inner, depth + 1)
        if left is None or right is None or _is_string(home, value.left, inner) or _is_string(home, value.right, inner):
            return None
        return tuple(sorted(_OPERATORS[type(value.op)](frozenset(left), frozenset(right))))
    return None


def _conversion(ev: Evaluator, call: ast.Call, scope: Scope) -> bool:
    """`set(...)`, `frozenset(...)`, `tuple(...)`, `list(...)`: the builtins, not a name the module rebinds."""
    func = call.func
    return isinstance(func, ast.Name) and func.id in _CONVERSIONS and not ev.ix.single_binding(func.id, scope)


def _is_string(ev: Evaluator, expr: ast.AST, scope: Scope) -> bool:
    followed = ev.follow(expr, scope)
    return followed is not None and isinstance(followed[1], ast.Constant) and isinstance(followed[1].value, str)


def _is_single(ev: Evaluator, expr: ast.AST, scope: Scope) -> bool:
    """A display member that is one axis name (a string), not a nested collection."""
    return _is_string(ev, expr, scope)
