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
from collections.abc import Callable

# Attributes of an array that are Python values under tracing.
STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size"})
# Builtins whose result is a Python value whatever they are given (len of a tracer is its static length).
STATIC_CALLS = frozenset({"len"})
# Functions that read an array's shape, rank or size as Python ints (numpy's call the array's own attribute,
# jax.numpy's return the static value): measured, safety/measurements/static_reads.py.
STATIC_FUNCTIONS = frozenset(
    f"{module}.{name}" for module in ("numpy", "jax.numpy") for name in ("shape", "ndim", "size")
)
_STATIC_OPS = (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Tuple, ast.List)
# Expressions a value may flow through on its way to a static read without escaping: an array built from it
# (arithmetic, a call, an index, a method, a conditional) still has a static shape. A lambda, a comprehension
# or an assignment expression (`(n := x).shape`) lets the value escape, so the climb stops there.
_CLIMB = (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Tuple, ast.List, ast.Subscript,
          ast.Attribute, ast.Call, ast.Starred, ast.Slice, ast.keyword)

Qualname = Callable[[ast.expr], "str | None"]


def in_static_context(node: ast.AST, parents: dict[int, ast.AST], qualname: Qualname | None = None) -> bool:
    """True when the value of `node` only reaches a static read: `node.shape`, `len(node)`, `node.ndim`,
    `x[0].shape`, `(x * 2).shape[0]`, `x.T.shape`, `jnp.shape(x)` (with `qualname`, which resolves a callee
    to its qualified name), ...

    Climbs from `node` through the expressions that build an array from it (`_CLIMB`) up to the first
    static read whose object holds it; the shape of whatever is built there is a Python value under tracing
    whatever `node` holds, so `x` in `x[0].shape[0] // k` is in a static context.
    """
    current = node
    while True:
        parent = parents.get(id(current))
        if isinstance(parent, ast.Attribute) and parent.value is current and parent.attr in STATIC_ATTRIBUTES:
            return True
        if isinstance(parent, ast.Call) and current in parent.args and _static_call(parent, qualname):
            return True
        if not isinstance(parent, _CLIMB):
            return False
        current = parent


def dynamic_names(expr: ast.AST, parents: dict[int, ast.AST], qualname: Qualname | None = None) -> set[str]:
    """The names `expr` reads as values: every `Name` load not in a static context (`in_static_context`)."""
    return {
        n.id
        for n in ast.walk(expr)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and not in_static_context(n, parents, qualname)
    }


def _static_call(call: ast.Call, qualname: Qualname | None = None) -> bool:
    if len(call.args) != 1:
        return False
    if isinstance(call.func, ast.Name) and call.func.id in STATIC_CALLS:
        return True
    return qualname is not None and qualname(call.func) in STATIC_FUNCTIONS and not call.keywords
