"""Whether a way from a vmap to a shard_map passes through a branch Python never takes.

A step of the way (a call on it, or the shard_map's application) written in the body of `if FLAG:` where `FLAG`
is a name of the module bound once, to the constant `False` (or `0`, `None`), or in the `else` of such a test
that is constant-true (`if not FLAG:`, `if True:`), is never traced as written: JAX sees no shard_map there, and
the program runs (new-user trial breaker4, p24: `if USE_SHARDED_KERNEL:` with `USE_SHARDED_KERNEL = False`, a
collision under it, runs and matches). Such a reached shard_map gives no finding (a finding that can never trace
is a false positive, and a fix built on it would be judged on dead code) and is not silence either: an SPMD910
record says where and why it was set aside, since another module may set the flag (`mod.FLAG = True`), which
spmdfix does not read. Only module-level names and literals decide: a parameter, an import, an attribute or a
call is never read as a constant here, nor a name some function declares `global`. Pure: the module index reads.
"""

from __future__ import annotations

import ast

from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.scopes import ModuleIndex
from spmdfix.analysis.uses import short

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)


def dead_branch(ix: ModuleIndex, nodes: tuple[ast.AST, ...]) -> tuple[ast.If, bool] | None:
    """The first `if` statement of this module (`ix`) whose untaken branch holds one of `nodes` (within the
    function each is written in), with the test's constant value; None when every node is on a branch that may be
    taken (or the test is not such a constant, or the node is of another module)."""
    for node in nodes:
        child, parent = node, ix.parent.get(id(node))
        while parent is not None and not isinstance(parent, _FUNCTIONS):
            if isinstance(parent, ast.If):
                value = _constant_test(ix, parent.test)
                in_body = any(child is s for s in parent.body)
                in_else = any(child is s for s in parent.orelse)
                if value is False and in_body or value is True and in_else:
                    return parent, value
            child, parent = parent, ix.parent.get(id(parent))
    return None


def dead_what(ix: ModuleIndex, branch: ast.If, value: bool, shard_map: ast.AST) -> str:
    """The SPMD910 record of a shard_map reached only through the untaken branch of `branch`."""
    where = "body" if value is False else "`else`"
    return (
        f"the shard_map (line {shard_map.lineno}) is reached only through the {where} of `if {short(branch.test)}:`, "
        f"whose test is the constant `{value}` here: Python never takes that branch, so JAX never traces the "
        "shard_map as written and spmdfix gives no finding for it; if another module or a run sets that flag, "
        "check again with it set"
    )


def _constant_test(ix: ModuleIndex, test: ast.AST, depth: int = 0) -> bool | None:
    """The truth of `test` when it is a literal (`False`, `0`, `None`, `True`, `1`), a name bound once in the
    module to one (at module level, not imported, not a parameter), or `not` of such; None otherwise."""
    if depth > 4:
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _constant_test(ix, test.operand, depth + 1)
        return None if inner is None else not inner
    if isinstance(test, ast.Constant) and (test.value is None or type(test.value) in (bool, int)):
        return bool(test.value)
    if isinstance(test, ast.Name):
        binding = ix.single_binding(test.id, ix.scope_at(test))
        if binding is None or binding.kind is not BindingKind.ASSIGN or binding.scope.parent is not None:
            return None
        value = binding.node
        if not (isinstance(value, ast.Constant) and (value.value is None or type(value.value) in (bool, int))):
            return None
        if any(isinstance(n, ast.Global) and test.id in n.names for n in ast.walk(ix.tree)):
            return None  # a function rebinds it (`global FLAG`), which the module's scope does not list
        return bool(value.value)
    return None
