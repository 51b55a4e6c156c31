"""The capture hazard (SPMD003): a shard_map body that closes over a value the spmd vmap batches.

JAX 0.10.2 fails on such a closure although no spec collides (an internal AssertionError with
check_vma=True, a lowering error with check_vma=False), and with `in_specs=()` it runs and silently returns
a result too large by the spmd axis size [jax-semantics.md H5; 01 1b-1c, 1i; JAX issues 23476, 17874]. Passing
the value in as an explicit operand with in_spec `P()` runs correctly, except when the body keeps an inner
`jax.vmap` under check_vma=True [01 1f].

"Batched" is followed by a small taint analysis along the call chain from the vmap to the function that
builds the shard_map: the vmapped function's parameters (those whose `in_axes` entry is not None), every
local computed from a batched value, and the parameters of each function on the chain that receive one.
Steps through a higher-order function (jit, scan, ...) taint all parameters of the function passed.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from spmdfix import jaxapi
from spmdfix.model import Span
from spmdfix.analysis.reach import ReachedSite
from spmdfix.analysis.scopes import ModuleIndex

_DEF_NAME = re.compile(r"(?:async\s+)?def\s+([A-Za-z_]\w*)")


@dataclass(frozen=True, slots=True)
class Capture:
    """A batched value a shard_map body reads from its enclosing function: its name and first use."""

    name: str
    use: Span


@dataclass(frozen=True, slots=True)
class LiftSite:
    """Where the lift-captures transform edits: the body's parameters, in_specs and the application call.

    params: the `def` name (the transform extends that function's parameters) or the `lambda`.
    in_specs_form: "spec" (a single `P(...)`), "seq" (a tuple/list display) or "empty" (`()`).
    """

    params: Span
    params_kind: str
    in_specs: Span
    in_specs_form: str
    in_specs_text: str
    spec_callee: str
    call: Span


class CaptureAnalysis:
    """Finds captured batched values for shard_map sites of one module (`ModuleIndex`)."""

    def __init__(self, index: ModuleIndex) -> None:
        self.ix = index

    def span(self, node: ast.AST) -> Span:
        return self.ix.lines.span_of_ast(node)

    def captures(
        self, fun: ast.AST, in_axes: ast.AST | None, reached: ReachedSite, body: ast.AST | None
    ) -> tuple[Capture, ...]:
        """Batched values `body` closes over, when the vmapped function `fun` reaches it via `reached`."""
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return ()
        home = self._enclosing_function(body)
        start = self._function_of(fun)
        if home is None or start is None:
            return ()
        tainted = self._tainted_params(start, in_axes)
        current = start
        for node in reached.chain_nodes:
            if current is home or self._jitted(current):
                break
            tainted_locals = self._taint_locals(current, tainted)
            current, tainted = self._step(node, tainted_locals)
            if current is None:
                return ()
        if current is not home or self._jitted(home):
            return ()
        batched = self._taint_locals(home, tainted)
        return self._free_uses(body, home, batched)

    # --- the chain ------------------------------------------------------------------------------------
    def _function_of(self, expr: ast.AST) -> ast.AST | None:
        if isinstance(expr, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return expr
        if isinstance(expr, ast.Name):
            binding = self.ix.single_binding(expr.id, self.ix.scope_at(expr))
            if binding is not None and binding.kind == "def":
                return binding.node
        return None

    def _enclosing_function(self, node: ast.AST) -> ast.AST | None:
        for anc in self.ix.ancestors(node):
            if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return anc
            if isinstance(anc, (ast.Module, ast.ClassDef)):
                return None
        return None

    def _jitted(self, func: ast.AST) -> bool:
        """True for a function under a jit decorator: what it closes over are jit operands, not batched."""
        return self.ix.decorator_in(func, jaxapi.JIT_NAMES) is not None

    def _tainted_params(self, func: ast.AST, in_axes: ast.AST | None) -> set[str]:
        names = [a.arg for a in [*func.args.posonlyargs, *func.args.args]]
        if isinstance(in_axes, ast.Constant) and in_axes.value is None:
            return set()
        if isinstance(in_axes, (ast.Tuple, ast.List)) and len(in_axes.elts) == len(names):
            return {
                n for n, ax in zip(names, in_axes.elts) if not (isinstance(ax, ast.Constant) and ax.value is None)
            }
        return set(names) | {a.arg for a in func.args.kwonlyargs}

    def _step(self, call: ast.AST, tainted: set[str]) -> tuple[ast.AST | None, set[str]]:
        """Follow one chain call into the function it reaches, with the parameters that receive batched data."""
        if not isinstance(call, ast.Call):
            return None, set()
        scope = self.ix.scope_at(call)
        if isinstance(call.func, ast.Name):
            callee = self._function_of(call.func)
            if callee is None:
                return None, set()
            params = [a.arg for a in [*callee.args.posonlyargs, *callee.args.args]]
            hit = {p for p, arg in zip(params, call.args) if _mentions(arg, tainted)}
            hit |= {kw.arg for kw in call.keywords if kw.arg and _mentions(kw.value, tainted)}
            return callee, hit
        qname = self.ix.qualname(call.func, scope)
        if qname in jaxapi.JIT_NAMES:
            return None, set()
        if qname in jaxapi.HIGHER_ORDER_NAMES or qname in jaxapi.PARTIAL_NAMES:
            for arg in call.args:
                callee = self._function_of(arg)
                if callee is not None:
                    every = {a.arg for a in [*callee.args.posonlyargs, *callee.args.args, *callee.args.kwonlyargs]}
                    return callee, every
        return None, set()

    def _taint_locals(self, func: ast.AST, tainted: set[str]) -> set[str]:
        """`tainted` plus the locals of `func` assigned from them, to a fixed point."""
        result = set(tainted)
        if isinstance(func, ast.Lambda):
            return result
        assigns = [
            n
            for n in ast.walk(func)
            if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and self._enclosing_function(n) is func
        ]
        changed = True
        while changed:
            changed = False
            for node in assigns:
                value = node.value
                if value is None or not _mentions(value, result):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and name.id not in result:
                            result.add(name.id)
                            changed = True
        return result

    def _free_uses(self, body: ast.AST, home: ast.AST, batched: set[str]) -> tuple[Capture, ...]:
        inner = self.ix.own_scope(body)
        if inner is None:
            return ()
        seen: dict[str, Span] = {}
        walk_root = body.body if isinstance(body, ast.Lambda) else body
        for node in ast.walk(walk_root):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id not in batched:
                continue
            bindings = self.ix.lookup(node.id, self.ix.scope_at(node))
            if bindings and bindings[0].scope.node is home and node.id not in seen:
                seen[node.id] = self.span(node)
        return tuple(Capture(name, span) for name, span in sorted(seen.items(), key=lambda kv: kv[1]))

    # --- where lift-captures edits -----------------------------------------------------------------
    def lift_site(self, construction: ast.AST, body: ast.AST, in_specs: ast.AST | None) -> LiftSite | str:
        """The places lift-captures edits, or why it cannot be built."""
        parent = self.ix.parent.get(id(construction))
        if not (isinstance(parent, ast.Call) and parent.func is construction):
            return "the shard_map is not applied where it is built"
        if any(isinstance(a, ast.Starred) for a in parent.args) or parent.keywords:
            return "the shard_map is applied with *args or keyword arguments"
        if isinstance(body, ast.Lambda):
            params, kind = self.span(body), "lambda"
        elif isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params, kind = self._def_name_span(body), "def"
        else:
            return "the shard_map body is not a function defined here"
        if body.args.vararg or body.args.kwonlyargs or body.args.kwarg:
            return "the shard_map body takes *args or keyword-only parameters"
        callee = self._spec_callee(in_specs)
        if isinstance(in_specs, ast.Call):
            form = "spec"
        elif isinstance(in_specs, (ast.Tuple, ast.List)):
            form = "seq" if in_specs.elts else "empty"
        else:
            return "in_specs is not a spec or a tuple of specs written here"
        if callee is None:
            return "no PartitionSpec spelling to write `P()` with"
        spec_span = self.span(in_specs)
        text = self.ix.source[spec_span.start : spec_span.end]
        return LiftSite(params, kind, spec_span, form, text, callee, self.span(parent))

    def _def_name_span(self, func: ast.AST) -> Span:
        start = self.ix.lines.from_ast(func.lineno, func.col_offset)
        match = _DEF_NAME.match(self.ix.source, start)
        if match is None:
            return Span(start, start)
        return Span(match.start(1), match.end(1))

    def _spec_callee(self, in_specs: ast.AST | None) -> str | None:
        """How this module spells PartitionSpec: the callee of a spec in in_specs, else an imported alias."""
        if in_specs is not None:
            for node in ast.walk(in_specs):
                if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
                    qname = self.ix.qualname(node.func, self.ix.scope_at(node))
                    if qname in jaxapi.PARTITION_SPEC_NAMES:
                        return ast.unparse(node.func)
        for name, bindings in self.ix.module_scope.bindings.items():
            if any(b.kind == "import" and b.qname in jaxapi.PARTITION_SPEC_NAMES for b in bindings):
                return name
        return None


def _mentions(expr: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))
