"""The calls of a vmapped function: the size of the batch each passes, and whether each is traced under jit.

Two fixes depend on the callers, not on the vmapped function itself:

- rename points `spmd_axis_name` at another mesh axis; JAX needs the batch size to be divisible by the spmd axes'
  sizes and checks it only when the program runs or lowers (docs/safety.md, rename). The fix is safe only when
  every call's batch size is visible in the module and divisible by the new axes' sizes;
- add-axis on an Explicit mesh (the `jax.make_mesh` default) runs only when the call is traced under `jax.jit`
  and the batch dimension of the vmapped input is not placed on a mesh axis (measured: eager calls, and inputs
  whose batch dimension is placed on an Explicit axis, raise after the fix; docs/safety.md, add-axis).

Both need *every* call, so the vmapped callable is followed (`spmdfix.analysis.uses.UseIndex`) from the
`jax.vmap(...)` expression or the decorated `def`, through names, aliases and `jax.jit(...)` wrappers, to each
call; any other use (passed to a function, stored, returned) is reported as not followed.
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.calls import argument
from spmdfix.analysis.facts import VmapCall, VmapCalls  # (defined with the other facts; imported from here too)
from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.follow import INTEGER, SHAPE, STRAIGHT_LINE, VMAP_CALLS, Follow
from spmdfix.analysis.kinds import BatchPlacement
from spmdfix.analysis.meshes import resolve_mesh
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.specs import spec_tree
from spmdfix.analysis.uses import Use
from spmdfix.model import Span

_FILLED = frozenset({"zeros", "ones", "empty", "full"})
# jax.random samplers and the position of their `shape` parameter (jax 0.10.2 signatures: bernoulli(key, p,
# shape), truncated_normal(key, lower, upper, shape); the others (key, shape, ...)).
_RANDOM = {"normal": 1, "uniform": 1, "bernoulli": 2, "truncated_normal": 3, "randint": 1, "gumbel": 1,
           "laplace": 1}
_SAME_SHAPE = frozenset({"asarray", "array", "device_put", "float32", "abs", "exp", "sin", "cos", "tanh"})
_ARRAY_MODULES = ("jax.numpy.", "numpy.")
_UNKNOWN = ast.Constant(value=...)  # stands for an `in_axes` that could not be found


class VmapCallAnalysis:
    """Finds the calls of a vmapped callable in one module, its `ModuleModel` (pure; see the module docstring)."""

    def __init__(self, model: ModuleModel) -> None:
        self.ix = model.ix
        self.ev = model.ev
        self.uses = model.uses

    def calls(self, site: ast.AST, fun: ast.AST | None, in_axes: ast.AST | None) -> VmapCalls:
        """The calls of the vmap at `site`: a `jax.vmap(...)` call (or `partial(jax.vmap, ...)(f)`), or a
        decorator of the def `fun`. `in_axes` is the vmap's `in_axes` argument (None: 0 for every argument)."""
        calls: list[VmapCall] = []
        unfollowed: list[Use] = []
        in_axes, known = self._site_in_axes(site, in_axes)
        if not known:
            in_axes = _UNKNOWN
        if isinstance(site, ast.Call) and fun is not None and not (
            isinstance(fun, (ast.FunctionDef, ast.AsyncFunctionDef)) and site in fun.decorator_list
        ):
            self._follow(site, False, in_axes, calls, unfollowed, Follow(VMAP_CALLS))
        elif isinstance(fun, (ast.FunctionDef, ast.AsyncFunctionDef)):
            jitted = False
            scope = self.ix.scope_at(fun)
            for deco in fun.decorator_list:
                if deco is site:
                    continue
                if self._is_jit(deco, scope):
                    jitted = True
                else:
                    unfollowed.append(self.uses.use(deco))
            bindings = scope.bindings.get(fun.name, [])
            if len(bindings) != 1:
                unfollowed.append(self.uses.use(site))
            else:
                for load in self.uses.loads(bindings[0]):
                    self._follow(load, jitted, in_axes, calls, unfollowed, Follow(VMAP_CALLS))
        else:
            unfollowed.append(self.uses.use(site))
        return VmapCalls(tuple(calls), tuple(unfollowed))

    def _site_in_axes(self, site: ast.AST, in_axes: ast.AST | None) -> tuple[ast.AST | None, bool]:
        """The vmap's `in_axes` expression (None: the default 0), and whether it could be found: a factory
        `partial(jax.vmap, in_axes=..., ...)` carries it among its own keywords."""
        if in_axes is not None:
            return in_axes, True
        if not isinstance(site, ast.Call):
            return None, False
        scope = self.ix.scope_at(site)
        if self.ix.qualname(site.func, scope) in jaxapi.VMAP_NAMES:
            return None, True
        factory = site.func if isinstance(site.func, ast.Call) else site
        if self.ix.qualname(factory.func, scope) in jaxapi.PARTIAL_NAMES:
            return argument(factory, None, "in_axes"), True
        return None, False

    def _follow(self, expr, jitted, in_axes, calls, unfollowed, follow: Follow) -> None:
        """The calls of the value of `expr` (through `jax.jit(...)` wrappers, `follow.VMAP_CALLS` deep) into
        `calls`; any other use into `unfollowed`."""
        for end in self.uses.uses_of_value(expr):
            up = self.uses.parent(end)
            if isinstance(up, ast.Call) and up.func is end:
                calls.append(self._call(up, jitted, in_axes))
            elif (
                isinstance(up, ast.Call)
                and up.args
                and up.args[0] is end
                and self._is_jit(up.func, self.ix.scope_at(up))
                and not follow.spent
            ):
                self._follow(up, True, in_axes, calls, unfollowed, follow.deeper())
            else:
                unfollowed.append(self.uses.use(end))

    def _is_jit(self, expr: ast.AST, scope: Scope) -> bool:
        """`jax.jit`, or `partial(jax.jit, ...)` / `jax.jit(...)` used as a decorator factory."""
        if isinstance(expr, ast.Call):
            qname = self.ix.qualname(expr.func, scope)
            if qname in jaxapi.PARTIAL_NAMES and expr.args:
                return self.ix.qualname(expr.args[0], scope) in jaxapi.JIT_NAMES
            return qname in jaxapi.JIT_NAMES and not expr.args
        return self.ix.qualname(expr, scope) in jaxapi.JIT_NAMES

    # --- one call -----------------------------------------------------------------------------------
    def _call(self, call: ast.Call, jitted: bool, in_axes: ast.AST | None) -> VmapCall:
        scope = self.ix.scope_at(call)
        axes = self._in_axes(in_axes, scope, len(call.args))
        batch, placements, on_axes, ranks, next_dim, off_batch = None, set(), set(), [], [], []
        if axes is not None and not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args):
            for arg, axis in zip(call.args, axes):
                next_dim.append(self._placed_names(arg, scope, 1) if axis == 0 else None)
                off_batch.append(self._axes_off(arg, scope, axis) if axis is not None else None)
                shape = self.shape(arg, scope)
                # the mapped dimension is gone inside the vmapped function (a negative or out-of-range axis:
                # not followed)
                mapped = axis is None or (shape is not None and 0 <= axis < len(shape))
                ranks.append(None if shape is None or not mapped else len(shape) - (axis is not None))
                if axis is None:
                    continue
                if batch is None and shape is not None and -len(shape) <= axis < len(shape):
                    batch = shape[axis]  # JAX requires every mapped argument to have this size
                placements.add(self._placement(arg, scope, axis))
                on_axes.add(self._placed_axes(arg, scope, axis))
        if BatchPlacement.AXES in placements:
            placement = BatchPlacement.AXES
        elif placements == {BatchPlacement.NONE}:
            placement = BatchPlacement.NONE
        else:
            placement = BatchPlacement.UNKNOWN
        under = jitted or self._in_jitted_function(call)
        batch_axes, batch_mesh = on_axes.pop() if len(on_axes) == 1 else (None, None)
        return VmapCall(
            self.ix.lines.span_of_ast(call), call.lineno, batch, under, placement, batch_axes, batch_mesh, tuple(ranks),
            tuple(next_dim), tuple(off_batch),
        )

    def _in_axes(self, expr: ast.AST | None, scope: Scope, count: int) -> list[int | None] | None:
        """One mapped axis (or None) per positional argument; None when `in_axes` cannot be read."""
        if expr is _UNKNOWN:
            return None
        if expr is None:
            return [0] * count
        if self.ev.is_none(expr, scope):
            return [None] * count
        single = self.ev.int_value(expr, scope)
        if single is not None:
            return [single] * count
        resolved = self._resolve(expr, scope)
        if resolved is None or not isinstance(resolved[0], (ast.Tuple, ast.List)):
            return None
        out: list[int | None] = []
        for elt in resolved[0].elts:
            if self.ev.is_none(elt, resolved[1]):
                out.append(None)
            else:
                value = self.ev.int_value(elt, resolved[1])
                if value is None:
                    return None
                out.append(value)
        return out if len(out) == count else None

    def _in_jitted_function(self, call: ast.Call) -> bool:
        """The call sits in a function that is jitted (a jit decorator, or every use of its name is
        `jax.jit(name)`)."""
        for anc in self.ix.ancestors(call):
            if not isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            scope = self.ix.scope_at(anc)
            if any(self._is_jit(d, scope) for d in anc.decorator_list):
                return True
            bindings = scope.bindings.get(anc.name, [])
            if len(bindings) == 1:
                loads = self.uses.loads(bindings[0])
                if loads and all(self._jit_argument(n) for n in loads):
                    return True
        return False

    def _jit_argument(self, name: ast.Name) -> bool:
        up = self.uses.parent(name)
        return (
            isinstance(up, ast.Call) and bool(up.args) and up.args[0] is name
            and self.ix.qualname(up.func, self.ix.scope_at(up)) in jaxapi.JIT_NAMES
        )

    def _placed_axes(self, arg: ast.AST, scope: Scope, axis: int) -> tuple[tuple[str, ...] | None, Span | None]:
        """The mesh axes a mapped argument's batch dimension (`axis`) is placed on by
        `jax.device_put(x, NamedSharding(mesh, P(...)))`, and the span of that resolved mesh; (None, None) when
        it is not placed on axes there or any part is not resolved."""
        found = self._named_sharding(arg, scope)
        if found is None:
            return None, None
        named, scope = found
        mesh_expr, spec_expr = argument(named, 0, "mesh"), argument(named, 1, "spec")
        mesh = resolve_mesh(self.ev, mesh_expr, scope) if mesh_expr is not None else None
        tree = spec_tree(self.ev, spec_expr, scope) if spec_expr is not None else None
        if mesh is None or tree is None or tree.unresolved or len(tree.specs) != 1:
            return None, None
        entries = tree.specs[0].entries
        if not 0 <= axis < len(entries) or not entries[axis].known or entries[axis].value is None:
            return None, None
        return entries[axis].value.names, mesh.span

    def _named_sharding(self, arg: ast.AST, scope: Scope) -> tuple[ast.Call, Scope] | None:
        """The `NamedSharding(...)` call of `jax.device_put(x, NamedSharding(...))` that produces `arg`."""
        resolved = self._resolve(arg, scope)
        if resolved is None or not isinstance(resolved[0], ast.Call):
            return None
        call, scope = resolved
        if self.ix.qualname(call.func, scope) != "jax.device_put":
            return None
        sharding = argument(call, 1, "device")
        found = self._resolve(sharding, scope) if sharding is not None else None
        if found is None or not isinstance(found[0], ast.Call):
            return None
        if self.ix.qualname(found[0].func, found[1]) not in jaxapi.NAMED_SHARDING_NAMES:
            return None
        return found

    def _placement_entries(self, arg: ast.AST, scope: Scope):
        """The entries of the one spec of `arg`'s placement (`jax.device_put(x, NamedSharding(mesh, P(...)))`),
        or None when it is not placed that way or the spec is not resolved."""
        found = self._named_sharding(arg, scope)
        if found is None:
            return None
        named, scope = found
        tree = spec_tree(self.ev, argument(named, 1, "spec"), scope)
        if tree.unresolved or len(tree.specs) != 1:
            return None
        return tree.specs[0].entries

    def _axes_off(self, arg: ast.AST, scope: Scope, axis: int) -> tuple[str, ...] | None:
        """The mesh axes `arg`'s placement names at every dimension but `axis`, in order (`()` when none);
        None when the placement or any of those entries is not known."""
        entries = self._placement_entries(arg, scope)
        if entries is None:
            return None
        names: list[str] = []
        for dim, entry in enumerate(entries):
            if dim == axis:
                continue
            if not entry.known:
                return None
            if entry.value is not None:
                names.extend(entry.value.names)
        return tuple(names)

    def _placed_names(self, arg: ast.AST, scope: Scope, dim: int) -> tuple[str, ...] | None:
        """The mesh axes `arg`'s placement (`jax.device_put(x, NamedSharding(mesh, P(...)))`) names at
        dimension `dim` (`()` for `None` or a dimension past the spec), or None when it is not known."""
        entries = self._placement_entries(arg, scope)
        if entries is None:
            return None
        if dim >= len(entries):
            return ()
        if not entries[dim].known:
            return None
        return tuple(entries[dim].value.names) if entries[dim].value is not None else ()

    def _placement(self, arg: ast.AST, scope: Scope, axis: int) -> BatchPlacement:
        """How a mapped argument's batch dimension is placed."""
        resolved = self._resolve(arg, scope)
        if resolved is None or not isinstance(resolved[0], ast.Call):
            return BatchPlacement.UNKNOWN
        call, scope = resolved
        if self.ix.qualname(call.func, scope) != "jax.device_put":
            return BatchPlacement.UNKNOWN
        sharding = argument(call, 1, "device")
        found = self._resolve(sharding, scope) if sharding is not None else None
        if found is None or not isinstance(found[0], ast.Call):
            return BatchPlacement.UNKNOWN
        named, scope = found
        if self.ix.qualname(named.func, scope) not in jaxapi.NAMED_SHARDING_NAMES:
            return BatchPlacement.UNKNOWN
        tree = spec_tree(self.ev, argument(named, 1, "spec"), scope)
        if tree.unresolved or len(tree.specs) != 1:
            return BatchPlacement.UNKNOWN
        entries = tree.specs[0].entries
        if axis < 0 or axis >= len(entries):
            return BatchPlacement.NONE if axis >= 0 else BatchPlacement.UNKNOWN
        entry = entries[axis]
        if not entry.known:
            return BatchPlacement.UNKNOWN
        return BatchPlacement.AXES if entry.value is not None else BatchPlacement.NONE

    # --- names ------------------------------------------------------------------------------------
    def _resolve(self, expr: ast.AST, scope: Scope) -> tuple[ast.AST, Scope] | None:
        """Follow names to the value they hold here: a name bound once (`Evaluator.resolve_name`), or a name
        reassigned in straight-line code (`x = ...; x = jax.device_put(x, ...)`), whose value at a use is the
        last assignment before it in the same statement list. None past `follow.STRAIGHT_LINE` names."""
        step = Follow(STRAIGHT_LINE)
        while not step.spent:
            step = step.deeper()
            if not isinstance(expr, ast.Name):
                return expr, scope
            binding = self.ix.single_binding(expr.id, scope)
            if binding is not None:
                if binding.kind is not BindingKind.ASSIGN:
                    return None
                expr, scope = binding.node, binding.scope
                continue
            found = self._straight_line_value(expr, scope)
            if found is None:
                return None
            expr = found
        return None

    def _straight_line_value(self, name: ast.Name, scope: Scope) -> ast.AST | None:
        bindings = scope.bindings.get(name.id, [])
        if not bindings or any(b.kind is not BindingKind.ASSIGN for b in bindings):
            return None
        stmt, block = self._statement_in_block(name)
        if block is None:
            return None
        position = {id(s): i for i, s in enumerate(block)}
        best = None
        for b in bindings:
            assign = self.ix.parent.get(id(b.node))
            if not isinstance(assign, ast.Assign) or id(assign) not in position:
                return None  # assigned in a nested block or by another statement form: no single reaching value
            i = position[id(assign)]
            if i < position[id(stmt)] and (best is None or i > best[0]):
                best = (i, b.node)
        return best[1] if best is not None else None

    def _statement_in_block(self, node: ast.AST) -> tuple[ast.AST | None, list | None]:
        """The statement holding `node` and the body list it is in (its function's or the module's)."""
        child = node
        for anc in self.ix.ancestors(node):
            body = getattr(anc, "body", None)
            if isinstance(body, list) and child in body:
                return (child, body) if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)) else (None, None)
            child = anc
        return None, None

    # --- static shapes ------------------------------------------------------------------------------
    def shape(self, expr: ast.AST, scope: Scope, follow: Follow | None = None) -> tuple[int, ...] | None:
        """The shape of an array expression when it is built from literals of the module: `jnp.zeros((4, 8))`,
        `jnp.arange(32).reshape(4, 8)`, `jax.random.normal(key, (4, 8))`, `jax.device_put(x, ...)`, `x * 2.0`,
        through names; None otherwise (or past `follow.SHAPE` steps)."""
        follow = follow or Follow(SHAPE)
        if follow.spent:
            return None
        resolved = self._resolve(expr, scope)
        if resolved is None:
            return None
        expr, scope = resolved
        if isinstance(expr, (ast.List, ast.Tuple)):
            return self._display_shape(expr, scope, follow.deeper())
        if isinstance(expr, ast.BinOp):
            left, right = self._is_number(expr.left, scope), self._is_number(expr.right, scope)
            if left and not right:
                return self.shape(expr.right, scope, follow.deeper())
            if right and not left:
                return self.shape(expr.left, scope, follow.deeper())
            return None
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        qname = self.ix.qualname(func, scope) or ""
        last = qname.rsplit(".", 1)[-1]
        if qname.startswith(_ARRAY_MODULES) or qname == "jax.device_put":
            if last in _FILLED:
                return self._shape_value(argument(expr, 0, "shape"), scope)
            if last == "arange" and len(expr.args) in (1, 2) and not expr.keywords:
                ends = [self.int_expr(a, scope) for a in expr.args]
                if None in ends:
                    return None
                return (ends[0],) if len(ends) == 1 else (ends[1] - ends[0],)
            if last == "linspace":
                num = argument(expr, 2, "num")
                n = 50 if num is None else self.int_expr(num, scope)
                return (n,) if n is not None else None
            if last == "reshape":
                base = self.shape(argument(expr, 0, "a"), scope, follow.deeper()) if argument(expr, 0, "a") else None
                return self._reshaped(base, [argument(expr, 1, "shape")], scope)
            if last in _SAME_SHAPE and expr.args:
                return self.shape(expr.args[0], scope, follow.deeper())
            return None
        if qname.startswith("jax.random.") and last in _RANDOM:
            return self._shape_value(argument(expr, _RANDOM[last], "shape"), scope)
        if qname == "" and isinstance(func, ast.Attribute):
            if func.attr == "reshape":
                base = self.shape(func.value, scope, follow.deeper())
                return self._reshaped(base, expr.args, scope)
            if func.attr == "astype":
                return self.shape(func.value, scope, follow.deeper())
        return None

    def _display_shape(self, expr: ast.AST, scope: Scope, follow: Follow) -> tuple[int, ...] | None:
        """The shape of a (nested) list or tuple display of numbers, as `np.array` builds it: `[1.0, 2.0]` is
        (2,), `[[1, 2], [3, 4]]` is (2, 2); None when ragged or holding anything else (or past `follow`)."""
        if follow.spent or not isinstance(expr, (ast.List, ast.Tuple)) or not expr.elts:
            return None
        if all(self._is_number(e, scope) for e in expr.elts):
            return (len(expr.elts),)
        inner = {self._display_shape(e, scope, follow.deeper()) for e in expr.elts}
        if len(inner) != 1 or None in inner:
            return None
        return (len(expr.elts), *inner.pop())

    def _reshaped(self, base, args, scope) -> tuple[int, ...] | None:
        if len(args) == 1 and args[0] is not None:
            dims = self._shape_value(args[0], scope, allow_minus=True)
        else:
            dims = tuple(self.int_expr(a, scope) for a in args)
            dims = None if None in dims else dims
        if dims is None:
            return None
        if dims.count(-1) == 1:
            if base is None:
                return None
            total, known = 1, 1
            for d in base:
                total *= d
            for d in dims:
                known *= d if d != -1 else 1
            if known == 0 or total % known:
                return None
            dims = tuple(total // known if d == -1 else d for d in dims)
        return dims if all(d >= 0 for d in dims) else None

    def _shape_value(self, expr, scope, allow_minus: bool = False) -> tuple[int, ...] | None:
        if expr is None:
            return None
        single = self.int_expr(expr, scope)
        if single is not None:
            return (single,) if single >= 0 or allow_minus else None
        resolved = self._resolve(expr, scope)
        if resolved is None or not isinstance(resolved[0], (ast.Tuple, ast.List)):
            return None
        dims = tuple(self.int_expr(e, resolved[1]) for e in resolved[0].elts)
        if None in dims or (not allow_minus and any(d < 0 for d in dims)):
            return None
        return dims

    def int_expr(self, expr: ast.AST, scope: Scope, follow: Follow | None = None) -> int | None:
        """An integer built from literals and module constants with `+ - * //`; None otherwise (or past
        `follow.INTEGER` steps)."""
        follow = follow or Follow(INTEGER)
        if follow.spent:
            return None
        resolved = self._resolve(expr, scope)
        if resolved is None:
            return None
        expr, scope = resolved
        if isinstance(expr, ast.Constant) and type(expr.value) is int:
            return expr.value
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
            inner = self.int_expr(expr.operand, scope, follow.deeper())
            return -inner if inner is not None else None
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            a, b = self.int_expr(expr.left, scope, follow.deeper()), self.int_expr(expr.right, scope, follow.deeper())
            if a is None or b is None:
                return None
            if isinstance(expr.op, ast.FloorDiv):
                return a // b if b else None
            return a + b if isinstance(expr.op, ast.Add) else a - b if isinstance(expr.op, ast.Sub) else a * b
        return None

    def _is_number(self, expr: ast.AST, scope: Scope) -> bool:
        resolved = self._resolve(expr, scope)
        return resolved is not None and isinstance(resolved[0], ast.Constant) and type(resolved[0].value) in (int, float)
