"""Which operands an inner `jax.vmap` on a vmap's chain maps, for following batched values through it.

`jax.vmap(f, in_axes)(a, b)` calls `f` with the same positional operands, each mapped along its `in_axes`
entry or, for a literal `None`, passed as it is. So a parameter of `f` holds a batched value when its operand
is batched already (by the spmd vmap outside) or when this vmap maps it; an operand neither maps stays
unbatched (measured on jax 0.10.2, check_vma True and False, eager and under jit:
safety/measurements/spmd004_operand_through_inner_vmap.py; fuzz seed 70122). Used by `analysis.batched`.
"""

from __future__ import annotations

import ast
from typing import Callable

from spmdfix import jaxapi
from spmdfix.analysis.calls import argument


def mapped_positions(in_axes: ast.AST | None, count: int) -> set[int]:
    """The positions, of `count` positional operands, that `in_axes` maps: all but those whose entry is a
    literal `None` (all of them when `in_axes` is absent, a literal int, or not written as literals: a value
    this reading cannot see counts as mapped); none when `in_axes` is the literal `None`."""
    if isinstance(in_axes, ast.Constant) and in_axes.value is None:
        return set()
    if isinstance(in_axes, (ast.Tuple, ast.List)) and len(in_axes.elts) == count:
        return {j for j, e in enumerate(in_axes.elts) if not (isinstance(e, ast.Constant) and e.value is None)}
    return set(range(count))


def read_in_axes(call: ast.Call, count: int) -> bool:
    """Whether `mapped_positions` reads the `in_axes` of the vmap call `call` (`count` positional operands)
    rather than counting every operand mapped because it cannot see the value: `in_axes` absent (and not
    hidden in `*args` or `**kwargs`), a literal int or `None`, or a tuple or list display with one literal int
    or `None` per operand. For a reader that must not assume (another module's callable: `analyzer`)."""
    if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args[:2]):
        return False
    in_axes = argument(call, 1, "in_axes")
    if in_axes is None:
        return True
    entries = in_axes.elts if isinstance(in_axes, (ast.Tuple, ast.List)) else [in_axes]
    if isinstance(in_axes, (ast.Tuple, ast.List)) and len(entries) != count:
        return False
    return all(isinstance(e, ast.Constant) and (e.value is None or type(e.value) is int) for e in entries)


def through_vmap(
    ix,
    call: ast.Call,
    qname: str | None,
    callee: Callable[[ast.AST], tuple[ast.AST, int] | None],
    batched: Callable[[ast.AST], bool],
    inner_batches: bool = True,
) -> tuple[ast.AST, set[str]] | None:
    """Follow a chain step `call` = `jax.vmap(f, in_axes)` applied at once to positional operands
    (`jax.vmap(f, in_axes)(a, b)`) into `f`: (f, the parameters of `f` that hold a batched value). `ix`: the
    module index; `qname`: `call`'s qualified callee; `callee(expr)`: the function `expr` runs with how many
    leading parameters it binds (`analysis.batched.BatchedValues.callee`); `batched(arg)`: whether an operand
    mentions a batched value of the calling function. None when `call` is not such an application (another
    higher-order function, flax's vmap, keyword or starred operands, a default or `*args` parameter of `f`):
    the caller then counts every parameter as batched. `inner_batches` False: a parameter counts only when its
    operand is batched (the inner vmap's own mapping left out: SPMD004 under `check_vma=False`, measured)."""
    applied = applied_vmap(ix, call, qname, callee)
    if applied is None:
        return None
    application, func, _, params, mapped = applied
    inner = mapped if inner_batches else set()
    return func, {p for j, (p, arg) in enumerate(zip(params, application.args)) if j in inner or batched(arg)}


def applied_vmap(
    ix, call: ast.Call, qname: str | None, callee: Callable[[ast.AST], tuple[ast.AST, int] | None]
) -> tuple[ast.Call, ast.AST, int, list[str], set[int]] | None:
    """For a chain step `call` = `jax.vmap(f, in_axes)` applied at once to positional operands
    (`jax.vmap(f, in_axes)(a, b)`): (the application, f, how many leading parameters of f the read binds, f's
    other positional parameters, the operand positions `in_axes` maps). None for any other form (as
    `through_vmap`)."""
    application = ix.parent.get(id(call))
    if qname not in jaxapi.JAX_VMAP_NAMES or not (isinstance(application, ast.Call) and application.func is call):
        return None
    found = callee(call.args[0]) if call.args else None
    if found is None or application.keywords or any(isinstance(a, ast.Starred) for a in application.args):
        return None
    func, bound = found
    params = [a.arg for a in [*func.args.posonlyargs, *func.args.args]][bound:]
    if len(params) != len(application.args) or func.args.vararg:
        return None
    return application, func, bound, params, mapped_positions(argument(call, 1, "in_axes"), len(params))
