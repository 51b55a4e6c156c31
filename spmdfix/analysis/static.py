"""Static values: what JAX hands a traced function as plain Python objects, never as tracers.

Under `jax.vmap` / `jax.jit` an array's `.shape`, `.ndim`, `.dtype` and `.size` are Python ints and dtypes,
`len(x)` is an int, and Python literals and arithmetic on them stay Python values. A shard_map body may close
over such a value whatever the vmap batches: it is a constant of the trace, not a batched tracer, so it is no
capture (SPMD003). Passing it in as an operand (lift-captures) would turn it into a tracer and break its
static uses: measured on jax 0.10.2, `n = x.shape[0] // mesh.shape['y']` used as the size in
`jax.lax.dynamic_slice_in_dim(t, 0 * n, n)` runs when closed over and raises `TracerIntegerConversionError`
under `jax.jit` once lifted (golden/clean/static_shape_capture_jit, safety/lift_static_shape).

Pure functions over `ast` nodes; `parents` maps `id(node)` to its parent (`ModuleIndex.parent`).
"""

from __future__ import annotations

import ast

# Attributes of an array that are Python values under tracing.
STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size"})
# Builtins whose result is a Python value whatever they are given (len of a tracer is its static length).
STATIC_CALLS = frozenset({"len"})
_STATIC_OPS = (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Tuple, ast.List)


def in_static_context(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """True when the value of `node` only reaches a static read: `node.shape`, `len(node)`, `node.ndim`, ...

    Climbs through subscripts of the read (`x.shape[0]`), so `x` in `x.shape[0] // k` is in a static context.
    """
    parent = parents.get(id(node))
    if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in STATIC_ATTRIBUTES:
        return True
    if isinstance(parent, ast.Call) and node in parent.args and _static_call(parent):
        return True
    return False


def dynamic_names(expr: ast.AST, parents: dict[int, ast.AST]) -> set[str]:
    """The names `expr` reads as values: every `Name` load not in a static context (`in_static_context`)."""
    return {
        n.id
        for n in ast.walk(expr)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and not in_static_context(n, parents)
    }


def is_static_expr(expr: ast.AST, static_names: set[str]) -> bool:
    """True when `expr` evaluates to a Python value under tracing: literals, `static_names`, static
    attribute reads (`x.shape`, `mesh.shape['x']`), `len(...)`, and arithmetic, comparisons, subscripts,
    tuples and conditionals made of those."""
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.Name):
        return expr.id in static_names
    if isinstance(expr, ast.Attribute):
        return expr.attr in STATIC_ATTRIBUTES
    if isinstance(expr, ast.Subscript):
        return is_static_expr(expr.value, static_names) and is_static_expr(expr.slice, static_names)
    if isinstance(expr, ast.Slice):
        return all(p is None or is_static_expr(p, static_names) for p in (expr.lower, expr.upper, expr.step))
    if isinstance(expr, ast.Call):
        return _static_call(expr)
    if isinstance(expr, _STATIC_OPS):
        return all(is_static_expr(c, static_names) for c in ast.iter_child_nodes(expr) if isinstance(c, ast.expr))
    return False


def _static_call(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id in STATIC_CALLS and len(call.args) == 1
