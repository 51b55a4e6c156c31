"""Where lift-captures edits, and whether it may: the fix of the capture hazard (SPMD003) that passes each
captured value into the shard_map body as an explicit operand with in_spec `P()`.

`LiftAnalysis.lift_site` gives the places the edit touches (the body's parameters, in_specs, the call that
applies the shard_map, the `jax.vmap` wrappers on the way), or why the edit cannot be built;
`lift_use_problem` checks each use of a lifted value in the body against the allowlist of uses measured to
keep values once the value is a traced operand.
"""

from __future__ import annotations

import ast
import re

from spmdfix import jaxapi
from spmdfix.analysis.facts import LiftSite  # (defined with the other facts; imported from here too)
from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.follow import LIFT_USES, Follow
from spmdfix.analysis.kinds import SpecsForm
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.static import in_static_context
from spmdfix.model import Span

# Functions whose first argument is a shape or a count (static), not an array.
_SHAPE_FIRST = frozenset("zeros ones full empty arange linspace logspace geomspace eye identity tri iota".split())
_DEF_NAME = r"(?:async\s+)?def\s+([A-Za-z_]\w*)"  # compiled where first used (`re`'s cache): few modules ask


class LiftAnalysis:
    """Where lift-captures edits in one module (its `ModuleModel`), and the uses that make it unsafe. Pure."""

    def __init__(self, model: ModuleModel) -> None:
        self.ix = model.ix

    def _qualname(self, expr: ast.expr) -> str | None:
        """The qualified name `expr` resolves to where it is written (static reads such as `jnp.shape`)."""
        return self.ix.qualname(expr, self.ix.scope_at(expr))

    def span(self, node: ast.AST) -> Span:
        return self.ix.lines.span_of_ast(node)

    def lift_site(
        self,
        construction: ast.AST,
        body: ast.AST | None,
        in_specs: ast.AST | None,
        wrappers: list[tuple[str, ast.Call]] = (),
        names: tuple[str, ...] = (),
    ) -> LiftSite | str:
        """The places lift-captures edits, or why it cannot be built.

        The body's own structure must be one whose extra trailing parameter receives the operand as is: a
        `lambda` or an undecorated `def` without defaults, `*args` or keyword-only parameters, reached
        directly or through `jax.vmap` wrappers that pass only the function (they get `in_axes`). `names`
        are the values to lift; their uses in the body are checked against the allowlist (`lift_use_problem`).
        """
        parent = self.ix.parent.get(id(construction))
        if not (isinstance(parent, ast.Call) and parent.func is construction):
            return "the shard_map is not applied where it is built"
        if any(isinstance(a, ast.Starred) for a in parent.args) or parent.keywords:
            return "the shard_map is applied with *args or keyword arguments"
        if isinstance(body, ast.Lambda):
            params = self.span(body)
        elif isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if body.decorator_list:
                return "the shard_map body is decorated: the decorator would receive the new parameter"
            params = self._def_name_span(body)
        else:
            return "the shard_map body is not a function defined here"
        if body.args.vararg or body.args.kwonlyargs or body.args.kwarg:
            return "the shard_map body takes *args or keyword-only parameters"
        if body.args.defaults:
            return "the shard_map body has parameters with defaults: a new parameter cannot follow them"
        vmaps = []
        for qname, call in wrappers:
            if qname not in jaxapi.VMAP_NAMES and qname not in jaxapi.JIT_NAMES:
                return f"the shard_map body is wrapped by `{qname}`, not measured with a lifted operand"
            if qname in jaxapi.VMAP_NAMES:
                if qname not in ("jax.vmap", "jax.api.vmap", "jax._src.api.vmap"):
                    return f"the shard_map body is wrapped by `{qname}`, not measured with a lifted operand"
                if len(call.args) > 1 or any(k.arg in ("in_axes", None) for k in call.keywords):
                    return "the shard_map body's `jax.vmap` passes `in_axes`: the lifted operand's axis is not known"
                vmaps.append(self.span(call))
        callee = self._spec_callee(in_specs)
        if isinstance(in_specs, ast.Call):
            form = SpecsForm.SPEC
        elif isinstance(in_specs, (ast.Tuple, ast.List)):
            form = SpecsForm.SEQ if in_specs.elts else SpecsForm.EMPTY
        else:
            return "in_specs is not a spec or a tuple of specs written here"
        if callee is None:
            return "no PartitionSpec spelling to write `P()` with"
        spec_span = self.span(in_specs)
        text = self.ix.source[spec_span.start : spec_span.end]
        arity = len(body.args.posonlyargs) + len(body.args.args)
        problems = [self.lift_use_problem(body, name) for name in names]
        problems.append(self._other_use_of_def(body, construction))
        unsafe = "; ".join(p for p in problems if p)
        return LiftSite(params, spec_span, form, text, callee, self.span(parent), tuple(vmaps), arity, unsafe)

    def _other_use_of_def(self, body: ast.AST, construction: ast.AST) -> str:
        """Why the new trailing parameter of a body breaks another use of its name in this module, or "": a
        `def`, or a `lambda` assigned to a name (`act = lambda b: ...`).

        A read of that name outside the shard_map construction (a direct call, `y = act(x)` beside
        `jax.shard_map(act, ...)(x)`) would lack the lifted operand: measured by breaker5
        (safety/trials/breaker5/progs/q03_lift_body_called_directly, q51_lift_lambda_name_called_directly):
        `TypeError: act() missing 1 required positional argument` after the fix."""
        if isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = body.name
        else:
            bound = self.ix.parent.get(id(body))
            if not (isinstance(bound, ast.Assign) and bound.value is body and len(bound.targets) == 1
                    and isinstance(bound.targets[0], ast.Name)):
                return ""  # a lambda written in the construction: no other use
            name = bound.targets[0].id
        for node in ast.walk(self.ix.tree):
            if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
                continue
            binding = self.ix.single_binding(node.id, self.ix.scope_at(node))
            if binding is None or binding.node is not body:
                if binding is None and self._may_be(node, body):
                    return f"the body `{name}` may also be read at line {node.lineno}, where the new parameter is not passed"
                continue
            if any(anc is construction for anc in self.ix.ancestors(node)):
                continue
            use = self.ix.parent.get(id(node))
            text = ast.unparse(use) if isinstance(use, ast.Call) and use.func is node else node.id
            return (f"the body `{name}` is also used by `{text}` (line {node.lineno}), which would not pass "
                    "the new parameter")
        return ""

    def _may_be(self, node: ast.Name, body: ast.AST) -> bool:
        """Whether a read of `body`'s name with no single binding may still reach the def (it is one of its
        bindings)."""
        return any(b.node is body for b in self.ix.lookup(node.id, self.ix.scope_at(node)))

    def lift_use_problem(self, body: ast.AST, name: str) -> str:
        """Why a use of `name` in `body` is not on the lift allowlist, or "" when every use is.

        Allowed (measured to keep values once `name` is an operand, i.e. a tracer): operands of arithmetic,
        comparisons and conditional expressions; the array argument of a `jax.numpy` / `jax.lax` / `jax.nn`
        function (its first argument, or any argument of an elementwise one); the object of an array method
        or attribute other than `.item()`/`.tolist()`; indexing the value itself; a return value, a lambda's
        result, a tuple or list element, and a local assigned from it whose own uses are allowed. Anything else
        (a Python builtin such as `int` or `range`, a size or index argument such as the size of
        `dynamic_slice_in_dim`, a slice bound, a call of a function spmdfix does not know) may need a Python
        value: a tracer there raises (`TracerIntegerConversionError` and the like).
        """
        root = body.body if isinstance(body, ast.Lambda) else body
        pending, done = [name], set()
        follow = Follow(LIFT_USES)  # one step per local followed: past the budget the rest are not looked at
        while pending:
            current = pending.pop()
            if current in done or follow.spent:
                continue
            done.add(current)
            follow = follow.deeper()
            for node in ast.walk(root):
                if isinstance(node, ast.Name) and node.id == current and isinstance(node.ctx, ast.Load):
                    problem = self._use_problem(node, body, pending)
                    if problem:
                        row = node.lineno
                        return f"`{name}` is used in `{problem}` (line {row}), a use not measured with a traced value"
        return ""

    def _use_problem(self, node: ast.AST, body: ast.AST, pending: list[str]) -> str:
        """The text of the first expression around `node` that is not on the allowlist, or ""."""
        if in_static_context(node, self.ix.parent, self._qualname):
            return ""  # `w.shape`: a Python value whether `w` is captured or passed in
        current = node
        while True:
            parent = self.ix.parent.get(id(current))
            if parent is None or parent is body:
                return ""
            if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Tuple, ast.List, ast.Starred)):
                current = parent
            elif isinstance(parent, ast.IfExp) and current is not parent.test:
                current = parent
            elif isinstance(parent, ast.Subscript) and current is parent.value:
                current = parent
            elif isinstance(parent, ast.Attribute):
                if parent.attr in ("item", "tolist"):
                    return ast.unparse(parent)
                current = parent
            elif isinstance(parent, ast.Call):
                if current is parent.func:
                    current = parent  # a method call on the value: `w.sum()`
                elif self._array_argument(parent, current):
                    current = parent
                else:
                    return ast.unparse(parent)
            elif isinstance(parent, (ast.Return, ast.Lambda)):
                return ""
            elif isinstance(parent, ast.Assign) and all(isinstance(t, ast.Name) for t in parent.targets):
                pending.extend(t.id for t in parent.targets)
                return ""
            else:
                return ast.unparse(parent)

    def _array_argument(self, call: ast.Call, arg: ast.AST) -> bool:
        """True when `arg` is passed where a JAX function takes an array operand."""
        qname = self.ix.qualname(call.func, self.ix.scope_at(call)) or ""
        if qname in jaxapi.ELEMENTWISE_NAMES:
            return arg in call.args or any(k.value is arg for k in call.keywords)
        module, _, fname = qname.rpartition(".")
        if fname in _SHAPE_FIRST:
            return False  # `jnp.zeros(n)`: the first argument is a shape, a Python value
        return module in ("jax.numpy", "jax.lax", "jax.nn") and bool(call.args) and call.args[0] is arg

    def _def_name_span(self, func: ast.AST) -> Span:
        start = self.ix.lines.from_ast(func.lineno, func.col_offset)
        match = re.compile(_DEF_NAME).match(self.ix.source, start)
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
            if any(b.kind is BindingKind.IMPORT and b.qname in jaxapi.PARTITION_SPEC_NAMES for b in bindings):
                return name
        return None
