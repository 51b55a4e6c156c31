"""The capture hazard (SPMD003): a shard_map body that closes over a value the spmd vmap batches.

JAX 0.10.2 fails on such a closure although no spec collides (an internal AssertionError with
check_vma=True, a lowering error with check_vma=False), and with `in_specs=()` it runs and silently returns
a result too large by the spmd axis size (docs/jax-behaviour.md, H5; JAX issues 23476, 17874). Passing
the value in as an explicit operand with in_spec `P()` runs correctly, except when the body keeps an inner
`jax.vmap` under check_vma=True.

"Batched" is followed by a small taint analysis along the call chain from the vmap to the function that
builds the shard_map: the vmapped function's parameters (those whose `in_axes` entry is not None), every
local computed from a batched value, and the parameters of each function on the chain that receive one.
Steps through a higher-order function (jit, scan, ...) taint all parameters of the function passed.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from spmdfix import jaxapi
from spmdfix.analysis.facts import Capture, LiftSite  # (defined with the other facts; imported from here too)
from spmdfix.analysis.follow import ARRAY_VALUE, LIFT_USES, Follow
from spmdfix.analysis.kinds import CaptureKind, SpecsForm
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.scopes import BindingKind
from spmdfix.analysis.static import dynamic_names, in_static_context
from spmdfix.model import Span

if TYPE_CHECKING:
    from spmdfix.analysis.reach import ReachedSite

_ARRAY_MODULES = frozenset({"numpy", "jax.numpy"})
# Constructors whose result is an array of rank >= 1 for the arguments code passes them in practice
# (`array`/`asarray` only of a list or tuple display or of another such array).
_ARRAY_CONSTRUCTORS = frozenset(
    "array asarray arange linspace logspace geomspace ones zeros full eye identity tile stack concatenate "
    "hstack vstack ones_like zeros_like full_like".split()
)
# Functions whose first argument is a shape or a count (static), not an array.
_SHAPE_FIRST = frozenset("zeros ones full empty arange linspace logspace geomspace eye identity tri iota".split())
_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "std", "var", "any", "all"})
_ARRAY_METHODS = frozenset({"reshape", "astype", "transpose", "ravel", "flatten", "copy"})
_DEF_NAME = r"(?:async\s+)?def\s+([A-Za-z_]\w*)"  # compiled where first used (`re`'s cache): few modules ask


class CaptureAnalysis:
    """Finds captured batched values for shard_map sites of one module (its `ModuleModel`). Pure."""

    def __init__(self, model: ModuleModel) -> None:
        self.ix = model.ix

    def span(self, node: ast.AST) -> Span:
        return self.ix.lines.span_of_ast(node)

    def _qualname(self, expr: ast.expr) -> str | None:
        """The qualified name `expr` resolves to where it is written (static reads such as `jnp.shape`)."""
        return self.ix.qualname(expr, self.ix.scope_at(expr))

    def captures(
        self, fun: ast.AST, in_axes: ast.AST | None, reached: ReachedSite, body: ast.AST | None,
        vmap: ast.AST | None = None,
    ) -> tuple[Capture, ...]:
        """Batched values `body` closes over, when the vmapped function `fun` reaches it via `reached`; `vmap`
        is the vmap call or decorator (a jit decorator of `fun` stacked above it is outside the vmap)."""
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return ()
        if self.jit_wrapped(reached.site.node, body):
            return ()
        home = self.ix.enclosing_function(body)
        batched = self.batched_in(fun, in_axes, reached, home, vmap=vmap)
        if batched is None:
            return ()
        found = self._free_uses(body, home, batched)
        hops = self._plain_hops(self.ix.function_of(fun), home, reached)
        if hops is not None:
            found = tuple(replace(c, params=self._sources_through(hops, home, c.name)) for c in found)
        return found

    def _plain_hops(self, start: ast.AST | None, home: ast.AST | None, reached: ReachedSite):
        """[(caller, call, callee), ...] from the vmapped function `start` to `home` when every step of the
        chain is a plain call of a function by its name; [] when `start` is `home`; None otherwise."""
        if start is None or home is None:
            return None
        hops, current = [], start
        for node in reached.chain_nodes:
            if current is home:
                break
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                return None
            callee = self.ix.function_of(node.func)
            if callee is None:
                return None
            hops.append((current, node, callee))
            current = callee
        return hops if current is home else None

    def _sources_through(self, hops, home: ast.AST, name: str) -> tuple[int, ...] | None:
        """The positional parameters of the vmapped function that local `name` of `home` comes from, back
        through plain positional calls (`hops`); None when any step is not known."""
        indices = self._param_sources(home, name)
        for caller, call, callee in reversed(hops):
            if indices is None or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
                return None
            found: set[int] = set()
            for i in indices:
                if i >= len(call.args):
                    return None  # a default: not a value of the vmap's call
                names = [n.id for n in ast.walk(call.args[i]) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
                for n in names:
                    sources = self._param_sources(caller, n)
                    if sources is None:
                        return None
                    found |= set(sources)
            indices = tuple(sorted(found)) if found else None
        return indices

    def _param_sources(self, func: ast.AST, name: str) -> tuple[int, ...] | None:
        """The positional parameters of `func` that local `name` is (or is assigned from, to a fixed point),
        by index; None when `name` is bound otherwise (a loop target, an import, a nested def)."""
        params = [a.arg for a in [*func.args.posonlyargs, *func.args.args]]
        if isinstance(func, ast.Lambda):
            return (params.index(name),) if name in params else None
        assigns: dict[str, list[ast.AST]] = {}
        for node in self._own_assignments(func):
            if node.value is None:
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for t in ast.walk(target):
                    if isinstance(t, ast.Name):
                        assigns.setdefault(t.id, []).append(node.value)
        found: set[int] = set()
        todo, seen = [name], set()
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            if current in params:
                found.add(params.index(current))
            elif current not in assigns:
                continue  # a global or builtin: not a value of this call
            for value in assigns.get(current, ()):
                todo.extend(n.id for n in ast.walk(value) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
        return tuple(sorted(found)) if found else None

    def batched_in(
        self, fun: ast.AST, in_axes: ast.AST | None, reached: ReachedSite, home: ast.AST | None,
        through_jit: bool = False, vmap: ast.AST | None = None,
    ) -> set[str] | None:
        """The names of function `home` (on the chain from the vmapped `fun`) that hold batched values, or
        None when the chain cannot be followed to `home` (or passes a function jitted inside the vmap, whose
        operands are not followed unless `through_jit`: a vmap of a jitted function batches exactly the
        arguments it batches, so which values are batched carries through; what a capture does under jit does
        not). `vmap` is the vmap call or decorator: a jit decorator of `fun` stacked above it wraps the vmap and
        stops nothing (`_jitted`)."""
        start = self.ix.function_of(fun)
        if home is None or start is None:
            return None
        tainted = self._tainted_params(start, in_axes)
        current = start
        for node in reached.chain_nodes:
            if current is home or (self._jitted(current, vmap) and not through_jit):
                break
            tainted_locals = self._taint_locals(current, tainted)
            current, tainted = self._step(node, tainted_locals)
            if current is None:
                return None
        if current is not home or (self._jitted(home, vmap) and not through_jit):
            return None
        return self._taint_locals(home, tainted)

    def unbatched_operands(
        self, fun: ast.AST, in_axes: ast.AST | None, reached: ReachedSite, body: ast.AST | None
    ) -> set[str]:
        """The parameters of the shard_map `body` whose operands the spmd vmap does not batch.

        For a shard_map applied where it is built (`shard_map(body, ...)(a, b)`, also through
        `jax.jit(shard_map(body, ...))(a, b)`), and for a body decorated with
        it (`@partial(jax.shard_map, ...)` over `def body(a, b)`) when every read of the body's name is a call
        of it in the function the vmap's chain reaches it from (fuzz seed 4715); positional operands only. An
        operand is unbatched when it mentions no batched name of the function that applies it; with several
        calls, at every one of them.
        """
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return set()
        applications = self._applications(reached, body)
        params = [a.arg for a in [*body.args.posonlyargs, *body.args.args]]
        if not applications or body.args.vararg:
            return set()
        home = self.ix.enclosing_function(applications[0])
        # A jitted function on the way keeps unbatched operands unbatched (measured: fuzz seed 3811, a psum of
        # an unbatched operand in a shard_map applied by a @jax.jit function runs and matches).
        batched = self.batched_in(fun, in_axes, reached, home, through_jit=True)
        if batched is None:
            return set()
        unbatched = set(params)
        for application in applications:
            if application.keywords or any(isinstance(a, ast.Starred) for a in application.args):
                return set()
            if len(params) != len(application.args) or self.ix.enclosing_function(application) is not home:
                return set()
            unbatched &= {p for p, arg in zip(params, application.args) if not _mentions(arg, batched, self.ix.parent, self._qualname)}
        return unbatched

    def _applications(self, reached: ReachedSite, body: ast.AST) -> list[ast.Call]:
        """The calls that apply the reached shard_map to its operands: the one call where it is built, or, for a
        body decorated with it, every call of the body's name (none when the name is read any other way,
        bound more than once, or the chain does not reach the body through one of those calls)."""
        node = reached.site.node
        application = self.ix.parent.get(id(node))
        if isinstance(application, ast.Call) and application.func is node:
            return [application]
        if self._jit_of(application, node):
            # `jax.jit(shard_map(body, ...))(a, b)`: the jitted shard_map is applied to the same operands
            # (fuzz seed 7143: a psum of an unbatched operand there runs and matches;
            # golden/clean/collective_unbatched_operand_jit_of_shard_map)
            outer = self.ix.parent.get(id(application))
            if isinstance(outer, ast.Call) and outer.func is application:
                return [outer]
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef)) or node not in body.decorator_list:
            return []
        bindings = self.ix.scope_at(body).bindings.get(body.name, [])
        if len(bindings) != 1 or bindings[0].node is not body:
            return []
        calls = []
        for load in self.ix.loads_of(body.name):
            if not any(b is bindings[0] for b in self.ix.lookup(load.id, self.ix.scope_at(load))):
                continue
            call = self.ix.parent.get(id(load))
            if not (isinstance(call, ast.Call) and call.func is load):
                return []  # passed or stored: applied somewhere this analysis does not see
            calls.append(call)
        if not reached.chain_nodes or not any(c is reached.chain_nodes[-1] for c in calls):
            return []
        return calls

    def _jit_of(self, call: ast.AST | None, node: ast.AST) -> bool:
        """`call` is `jax.jit(node)`, with no other argument."""
        return (
            isinstance(call, ast.Call) and len(call.args) == 1 and call.args[0] is node and not call.keywords
            and self.ix.qualname(call.func, self.ix.scope_at(call)) in jaxapi.JIT_NAMES
        )

    # --- the chain ------------------------------------------------------------------------------------
    def jit_wrapped(self, construction: ast.AST, body: ast.AST) -> bool:
        """True for `jax.jit(shard_map(...))` (or a jit decorator above a shard_map decorator): the values the
        body closes over become operands of the compiled call, not batched tracers. Measured on jax 0.10.2:
        such a closure over a value the spmd vmap batches runs and matches, eager and under an outer jit,
        with check_vma True or False and with `in_specs=()` (golden/clean/capture_under_jit_of_shard_map)."""
        parent = self.ix.parent.get(id(construction))
        if isinstance(parent, ast.Call) and parent.args and parent.args[0] is construction:
            return self.ix.qualname(parent.func, self.ix.scope_at(parent)) in jaxapi.JIT_NAMES
        if isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef)) and construction in body.decorator_list:
            above = body.decorator_list[: body.decorator_list.index(construction)]
            scope = self.ix.scope_at(body)
            return any(self.ix.qualname(d, scope) in jaxapi.JIT_NAMES for d in above)
        return False

    def _jitted(self, func: ast.AST, vmap: ast.AST | None = None) -> bool:
        """True for a function under a jit decorator applied inside the spmd vmap: what it closes over are jit
        operands, not batched. Decorators apply bottom-up, so on the vmapped function itself only a jit listed
        under the vmap decorator `vmap` is inside it; one stacked above (`@jax.jit` over
        `@partial(jax.vmap, spmd_axis_name=...)`) wraps the vmap as `jax.jit(jax.vmap(f))` does, and the
        capture fails as it does eagerly (measured on jax 0.10.2, check_vma True and False, any specs:
        safety/measurements/capture_jit_above_vmap.py; golden/lift-captures/jit_above_vmap_decorator)."""
        return self.ix.decorator_in(func, jaxapi.JIT_NAMES, below=vmap) is not None

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
            callee = self.ix.function_of(call.func)
            if callee is None:
                return None, set()
            params = [a.arg for a in [*callee.args.posonlyargs, *callee.args.args]]
            hit = {p for p, arg in zip(params, call.args) if _mentions(arg, tainted, self.ix.parent, self._qualname)}
            hit |= {kw.arg for kw in call.keywords if kw.arg and _mentions(kw.value, tainted, self.ix.parent, self._qualname)}
            return callee, hit
        qname = self.ix.qualname(call.func, scope)
        if qname in jaxapi.JIT_NAMES:
            return None, set()
        if qname in jaxapi.HIGHER_ORDER_NAMES or qname in jaxapi.PARTIAL_NAMES:
            for arg in call.args:
                callee = self.ix.function_of(arg)
                if callee is not None:
                    every = {a.arg for a in [*callee.args.posonlyargs, *callee.args.args, *callee.args.kwonlyargs]}
                    return callee, every
        return None, set()

    def _own_assignments(self, func: ast.AST) -> list[ast.AST]:
        """The assignments (`=`, annotated, augmented, `:=`) of `func` itself, not of functions nested in it."""
        return [
            n
            for n in ast.walk(func)
            if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr))
            and self.ix.enclosing_function(n) is func
        ]

    def _taint_locals(self, func: ast.AST, tainted: set[str]) -> set[str]:
        """`tainted` plus the locals of `func` assigned from them, to a fixed point."""
        result = set(tainted)
        if isinstance(func, ast.Lambda):
            return result
        assigns = self._own_assignments(func)
        changed = True
        while changed:
            changed = False
            for node in assigns:
                value = node.value
                if value is None or not _mentions(value, result, self.ix.parent, self._qualname):
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
            if in_static_context(node, self.ix.parent, self._qualname):
                continue  # `x.shape[0]`: a Python int under tracing, never the batched tracer
            bindings = self.ix.lookup(node.id, self.ix.scope_at(node))
            if bindings and bindings[0].scope.node is home and node.id not in seen:
                seen[node.id] = self.span(node)
        return tuple(Capture(n, s, CaptureKind.BATCHED, self._row(s)) for n, s in sorted(seen.items(), key=lambda kv: kv[1]))

    # --- unbatched arrays (the all-replicated body) ----------------------------------------------------
    def unbatched_arrays(self, construction: ast.AST, body: ast.AST | None, skip: set[str]) -> tuple[Capture, ...]:
        """Non-scalar arrays `body` closes over that are built by array constructors (`np.linspace(...)`,
        `jnp.array([...])`, ...) outside the body, in the module or an enclosing function; names in `skip`
        (already reported as batched) are left out. Static values and scalars are not arrays here."""
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return ()
        if self.jit_wrapped(construction, body):
            return ()
        seen: dict[str, Span] = {}
        walk_root = body.body if isinstance(body, ast.Lambda) else body
        for node in ast.walk(walk_root):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id in skip:
                continue
            if node.id in seen or in_static_context(node, self.ix.parent, self._qualname) or self._fully_reduced(node):
                continue
            binding = self.ix.single_binding(node.id, self.ix.scope_at(node))
            if binding is None or binding.kind is not BindingKind.ASSIGN or self._inside(binding.scope.node, body):
                continue
            if self._array_value(binding.node, binding.scope, Follow(ARRAY_VALUE)):
                seen[node.id] = self.span(node)
        return tuple(Capture(n, s, CaptureKind.ARRAY, self._row(s)) for n, s in sorted(seen.items(), key=lambda kv: kv[1]))

    def _row(self, span: Span) -> int:
        return self.ix.lines.row_col(span.start)[0]

    def _fully_reduced(self, node: ast.AST) -> bool:
        """`W.sum()`, `jnp.mean(W)`: a reduction of the whole array to a scalar (measured: a body using an
        unbatched array only that way runs)."""
        parent = self.ix.parent.get(id(node))
        if isinstance(parent, ast.Attribute) and parent.attr in _REDUCTIONS:
            call = self.ix.parent.get(id(parent))
            return isinstance(call, ast.Call) and call.func is parent and not call.args and not call.keywords
        if isinstance(parent, ast.Call) and parent.args and parent.args[0] is node and len(parent.args) == 1:
            qname = self.ix.qualname(parent.func, self.ix.scope_at(parent)) or ""
            module, _, name = qname.rpartition(".")
            return module in _ARRAY_MODULES and name in _REDUCTIONS and not parent.keywords
        return False

    def _inside(self, node: ast.AST, root: ast.AST) -> bool:
        return node is root or any(anc is root for anc in self.ix.ancestors(node))

    def _array_value(self, expr: ast.AST, scope, follow: Follow) -> bool:
        """True when `expr` certainly builds a non-scalar array (a constructor of `_ARRAY_CONSTRUCTORS`, a
        method of one, arithmetic with one, or a name bound to one); False past `follow.ARRAY_VALUE` steps."""
        if follow.spent:
            return False
        if isinstance(expr, ast.Name):
            binding = self.ix.single_binding(expr.id, scope)
            ok = binding is not None and binding.kind is BindingKind.ASSIGN
            return ok and self._array_value(binding.node, binding.scope, follow.deeper())
        if isinstance(expr, ast.BinOp):
            deeper = follow.deeper()
            return self._array_value(expr.left, scope, deeper) or self._array_value(expr.right, scope, deeper)
        if isinstance(expr, ast.Attribute) and expr.attr == "T":
            return self._array_value(expr.value, scope, follow.deeper())
        if not isinstance(expr, ast.Call):
            return False
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in _ARRAY_METHODS:
            if self.ix.qualname(expr.func, scope) is None:
                return self._array_value(expr.func.value, scope, follow.deeper())
        qname = self.ix.qualname(expr.func, scope) or ""
        module, _, name = qname.rpartition(".")
        if module not in _ARRAY_MODULES or name not in _ARRAY_CONSTRUCTORS:
            return False
        if name in ("array", "asarray"):
            first = expr.args[0] if expr.args else None
            return isinstance(first, (ast.List, ast.Tuple)) or (
                first is not None and self._array_value(first, scope, follow.deeper())
            )
        if name.endswith("_like"):
            return bool(expr.args) and self._array_value(expr.args[0], scope, follow.deeper())
        return True

    # --- where lift-captures edits -----------------------------------------------------------------
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
        unsafe = "; ".join(p for p in (self.lift_use_problem(body, name) for name in names) if p)
        return LiftSite(params, spec_span, form, text, callee, self.span(parent), tuple(vmaps), arity, unsafe)

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


def _mentions(expr: ast.AST, names: set[str], parents: dict[int, ast.AST], qualname=None) -> bool:
    """True when `expr` reads one of `names` as a value (a static read such as `x.shape[0]` does not count)."""
    return bool(dynamic_names(expr, parents, qualname) & names)
