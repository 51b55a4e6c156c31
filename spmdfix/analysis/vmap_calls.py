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
call; any other use (passed to a function, stored, returned) is reported as not followed. The batch size is read
from the static shapes of the call's arguments (`analysis.shapes`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from spmdfix import jaxapi
from spmdfix.analysis import writes
from spmdfix.analysis.calls import argument
from spmdfix.analysis.facts import VmapCall, VmapCalls  # (defined with the other facts; imported from here too)
from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.follow import VMAP_CALLS, Follow
from spmdfix.analysis.importers import module_path
from spmdfix.analysis.kinds import AxisType, BatchPlacement
from spmdfix.analysis.meshes import resolve_mesh
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.placement import PlacementAnalysis
from spmdfix.analysis.shapes import StaticShapes
from spmdfix.analysis.specs import spec_tree
from spmdfix.analysis.unknown_values import unread_message
from spmdfix.analysis.uses import Use
from spmdfix.model import Span

if TYPE_CHECKING:
    from spmdfix.analysis.values import Evaluator

_UNKNOWN = ast.Constant(value=...)  # stands for an `in_axes` that could not be found
# The words every record of an unread batch placement starts with (`_unread_value`, `_decorated_parameter`).
_UNKNOWN_INPUT = "the placement of the vmapped input (`{shown}`) is not known"
# Modules whose functions build arrays placed on no mesh axis when no argument is (`_unplaced`).
_UNPLACED_MODULES = ("numpy.", "jax.numpy.", "jax.random.")
# Builtins a value known not to be placed may name (`_unplaced`: `float('inf')`, `range(8)`).
_UNPLACED_NAMES = frozenset({"float", "int", "range", "len"})
# Function decorators that call the function with the arguments given (`_known_decorator`).
_PLAIN_DECORATORS = frozenset({"functools.cache", "functools.lru_cache", "staticmethod", "classmethod"})
# How many names, calls and operands `_unplaced` follows.
_UNPLACED_DEPTH = 12


def _shown(node: ast.AST) -> str:
    """`node`'s source text, cut to 60 characters, for a record."""
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


class VmapCallAnalysis:
    """Finds the calls of a vmapped callable in one module, its `ModuleModel` (pure; see the module docstring)."""

    def __init__(self, model: ModuleModel, shapes: StaticShapes) -> None:
        self.model = model
        self.ix = model.ix
        self.ev = model.ev
        self.uses = model.uses
        self.project = model.project
        self.shapes = shapes
        self.placements = PlacementAnalysis(model)
        # `_sharding`'s answers by (argument, scope), with the records it gave: six readings of a call's
        # argument (its axes, meshes, entries) each asked it again, through other modules too
        self._shardings: dict[tuple[int, int], tuple[tuple | None, tuple[tuple[Span, str], ...]]] = {}

    def calls(self, site: ast.AST, fun: ast.AST | None, in_axes: ast.AST | None, default: bool = False) -> VmapCalls:
        """The calls of the vmap at `site`: a `jax.vmap(...)` call (or `partial(jax.vmap, ...)(f)`, or a call of a
        wrapper returning a vmap), or a decorator of the def `fun`. `in_axes` is the vmap's `in_axes` argument
        (None: 0 for every argument); `default`: None is known to mean the default (a wrapper's call)."""
        calls: list[VmapCall] = []
        unfollowed: list[Use] = []
        wrapping: list[Use] = []
        in_axes, known = (None, True) if default and in_axes is None else self._site_in_axes(site, in_axes)
        if not known:
            in_axes = _UNKNOWN
        if isinstance(site, ast.Call) and fun is not None and not (
            isinstance(fun, (ast.FunctionDef, ast.AsyncFunctionDef)) and site in fun.decorator_list
        ):
            self._follow(site, False, in_axes, calls, unfollowed, Follow(VMAP_CALLS))
        elif isinstance(fun, (ast.FunctionDef, ast.AsyncFunctionDef)):
            jitted = False
            scope = self.ix.scope_at(fun)
            above = True  # (a decorator listed before the vmap's is applied after it: its calls go through it)
            for deco in fun.decorator_list:
                if deco is site:
                    above = False
                    continue
                if self._is_jit(deco, scope):
                    jitted = True
                else:
                    unfollowed.append(self.uses.use(deco))
                    if above:
                        wrapping.append(unfollowed[-1])
            bindings = scope.bindings.get(fun.name, [])
            if len(bindings) != 1:
                unfollowed.append(self.uses.use(site))
            else:
                if scope is self.ix.module_scope:
                    self._imported(fun.name, fun, unfollowed)
                for load in self.uses.loads(bindings[0]):
                    self._follow(load, jitted, in_axes, calls, unfollowed, Follow(VMAP_CALLS))
        else:
            unfollowed.append(self.uses.use(site))
        return VmapCalls(tuple(calls), tuple(unfollowed), tuple(wrapping))

    def _imported(self, name: str, node: ast.AST, unfollowed: list[Use]) -> None:
        """A module-level `name` holding the vmapped callable (`batched = jax.jit(jax.vmap(f, ...))`, a vmap
        decorated def) that another module of the project may import: its calls there pass batches this
        module does not show (a rename judged by this module's calls alone failed on another module's batch:
        breaker4 p15, p38). Recorded as a use not followed; without a project index nothing is known of
        other modules and nothing is added (a single file's run)."""
        if self.project is not None and self.project.named_elsewhere(name):
            unfollowed.append(
                Use(self.ix.lines.span_of_ast(node), node.lineno, f"{name}, imported by another module of the project")
            )

    def _site_in_axes(self, site: ast.AST, in_axes: ast.AST | None) -> tuple[ast.AST | None, bool]:
        """The vmap's `in_axes` expression (None: the default 0), and whether it could be found: a factory
        `partial(jax.vmap, in_axes=..., ...)` carries it among its own keywords."""
        if in_axes is not None:
            return in_axes, True
        scope = self.ix.scope_at(site)
        if not isinstance(site, ast.Call):
            return None, self.ix.qualname(site, scope) in jaxapi.VMAP_NAMES  # `@jax.vmap`: 0 for every argument
        if self.ix.qualname(site.func, scope) in jaxapi.VMAP_NAMES:
            return None, True
        factory = site.func if isinstance(site.func, ast.Call) else site
        if self.ix.qualname(factory.func, scope) in jaxapi.PARTIAL_NAMES:
            return argument(factory, None, "in_axes"), True
        return None, False

    def _follow(self, expr, jitted, in_axes, calls, unfollowed, follow: Follow) -> None:
        """The calls of the value of `expr` (through `jax.jit(...)` wrappers, `follow.VMAP_CALLS` deep) into
        `calls`; any other use into `unfollowed`."""
        exits: list[tuple[str, bool]] = []
        ends = self.uses.uses_of_value(expr, exits)
        # (a function returning the vmap, `def batched(fn): return jax.vmap(fn, ...)`, is not judged so: each
        # call of such a wrapper is a vmap site of its own, with its own function; another module's call of a
        # factory without parameters is not searched yet)
        for name, factory in exits:
            if not factory:
                self._imported(name, expr, unfollowed)
        for end in ends:
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
        unbatched_mesh: list[Span | None] = []
        unmapped_mesh: list[Span | None] = []
        unmapped_axes: list[tuple[str, ...] | None] = []
        unread: list[tuple[Span, str]] = []
        if axes is not None and not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args):
            for arg, axis in zip(call.args, axes):
                next_dim.append(self._placed_names(arg, scope, 1) if axis == 0 else None)
                off_batch.append(self._axes_off(arg, scope, axis) if axis is not None else None)
                unbatched_mesh.append(self._unbatched_mesh(arg, scope, axis) if axis is not None else None)
                unmapped_mesh.append(self._placed_mesh(arg, scope) if axis is None else None)
                unmapped_axes.append(self._axes_off(arg, scope, -1) if axis is None else None)
                shape = self.shapes.shape(arg, scope)
                # the mapped dimension is gone inside the vmapped function (a negative or out-of-range axis:
                # not followed)
                mapped = axis is None or (shape is not None and 0 <= axis < len(shape))
                ranks.append(None if shape is None or not mapped else len(shape) - (axis is not None))
                if axis is None:
                    continue
                if batch is None and shape is not None and -len(shape) <= axis < len(shape):
                    batch = shape[axis]  # JAX requires every mapped argument to have this size
                placements.add(self._placement(arg, scope, axis, unread))
                on_axes.add(self._placed_axes(arg, scope, axis))
        if BatchPlacement.AXES in placements:
            placement = BatchPlacement.AXES
        elif placements == {BatchPlacement.NONE}:
            placement = BatchPlacement.NONE
        else:
            placement = BatchPlacement.UNKNOWN
        under = jitted or self._in_jitted_function(call)
        batch_axes, batch_mesh, explicit = on_axes.pop() if len(on_axes) == 1 else (None, None, ())
        return VmapCall(
            self.ix.lines.span_of_ast(call), call.lineno, batch, under, placement, batch_axes, batch_mesh, tuple(ranks),
            tuple(next_dim), tuple(off_batch), unread_placement=unread[0] if unread else None,
            unbatched_mesh=tuple(unbatched_mesh), unmapped_mesh=tuple(unmapped_mesh), batch_explicit=explicit,
            unmapped_axes=tuple(unmapped_axes), shown_line=self._shown_line(call.lineno),
        )

    def _shown_line(self, line: int) -> str:
        """`line` of this module as a reason names it: in a notebook (its code cells joined into one module),
        `nb.ipynb cell N line M` as the reader counts them, as other reasons name a notebook's places
        (`ProjectFiles.place`); "" elsewhere (`VmapCall.where`)."""
        path = module_path(self.model)
        if not path.endswith(".ipynb") or self.project is None:
            return ""
        shown, row = self.project.index.files.place(path, self.ix.source, line)
        return f"{shown} line {row}"

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
        resolved = self.shapes.resolve(expr, scope)
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

    def _placed_axes(
        self, arg: ast.AST, scope: Scope, axis: int
    ) -> tuple[tuple[str, ...] | None, Span | None, tuple[str, ...]]:
        """The mesh axes a mapped argument's batch dimension (`axis`) is placed on by
        `jax.device_put(x, NamedSharding(mesh, P(...)))`, the span of that resolved mesh, and those of the axes
        that are Explicit on it; (None, None, ()) when it is not placed on axes there or any part is not
        resolved."""
        found = self._sharding(arg, scope)
        if found is None:
            return None, None, ()
        ev, mesh_expr, mesh_scope, spec_expr, scope = found
        mesh = resolve_mesh(ev, mesh_expr, mesh_scope) if mesh_expr is not None else None
        tree = spec_tree(ev, spec_expr, scope) if spec_expr is not None else None
        if mesh is None or tree is None or tree.unresolved or len(tree.specs) != 1:
            return None, None, ()
        entries = tree.specs[0].entries
        if not 0 <= axis < len(entries) or not entries[axis].known or entries[axis].value is None:
            return None, None, ()
        names = entries[axis].value.names
        return names, mesh.span, tuple(a for a in names if mesh.type_of(a) is AxisType.EXPLICIT)

    def _sharding(
        self, arg: ast.AST, scope: Scope, unread: list[tuple[Span, str]] | None = None
    ) -> tuple[Evaluator, ast.AST | None, Scope, ast.AST | None, Scope] | None:
        """`_read_sharding`, read once per argument and scope: the records it gives are added to `unread` (when
        given) on every ask, as a first reading would add them."""
        key = (id(arg), id(scope))
        known = self._shardings.get(key)
        if known is None:
            records: list[tuple[Span, str]] = []
            known = self._shardings[key] = (self._read_sharding(arg, scope, records), tuple(records))
        if unread is not None:
            unread.extend(known[1])
        return known[0]

    def _read_sharding(
        self, arg: ast.AST, scope: Scope, unread: list[tuple[Span, str]]
    ) -> tuple[Evaluator, ast.AST | None, Scope, ast.AST | None, Scope] | None:
        """(the evaluator of the module that writes the placement, the mesh expression, its scope, the spec
        expression, its scope) of the placement that produces `arg`: `jax.device_put(x, NamedSharding(mesh,
        spec))` or `jax.sharding.reshard(x, NamedSharding(mesh, spec))`, or either with a bare spec
        (`reshard(x, P('x', None))`), which places on the mesh a `jax.set_mesh` installs around or before it
        (`placement.PlacementAnalysis.context_mesh`; measured to place as the NamedSharding form does:
        safety/measurements/reshard_placement_plain_vmap.py). None for anything else; a sharding that is a name
        spmdfix cannot resolve (not a device or `x.sharding`, which hold no spec to read) adds the expression and
        why to `unread`. A parameter of the function around the vmap that only one call of another
        module gives is read there, by that module's analysis (`_elsewhere`); one that no call read gives adds
        a record to `unread` (`_unread_parameter`)."""
        key = ("exec or eval call",)
        if key not in self.ix.derived:  # (one search of the module's text per index)
            self.ix.derived[key] = writes.dynamic_code(self.ix.source)
        dynamic = self.ix.derived[key]
        if dynamic is not None:  # (breaker11 s02: `exec("SPEC = P('x', None)")` after `SPEC = P(None, 'y')`)
            unread.append((self.ev.span(arg), f"{_UNKNOWN_INPUT.format(shown=_shown(arg))}: its module {dynamic[1]}"))
            return None
        decorated = self._decorated_parameter(arg, scope)
        if decorated is not None:
            unread.append(decorated)
            return None
        # through a parameter too (`def accumulate(fn, xs): return jax.vmap(fn, ...)(xs)`: fuzz seed 60297)
        resolved = self.shapes.resolve(arg, scope, params=True)
        if resolved is None:
            found, why = self._elsewhere(arg, scope)
            if found is not None:
                return found[0]._sharding(found[1], found[2], unread)
            if why:
                unread.append(self._unread_parameter(arg, scope, why))
            elif isinstance(arg, ast.Name):
                rebound = self.shapes.rebinding(arg, scope)
                if rebound is not None:  # (a placement in a branch, or rebound by `nonlocal`: breaker10 t40-t46)
                    unread.append(self._unread_rebound(arg, rebound[1]))
            return None
        placer = self.ix.qualname(resolved[0].func, resolved[1]) if isinstance(resolved[0], ast.Call) else None
        if placer not in jaxapi.DEVICE_PUT_NAMES and placer not in jaxapi.RESHARD_NAMES:
            if not self._unplaced(resolved[0], resolved[1], _UNPLACED_DEPTH):
                unread.append(self._unread_value(arg, resolved[0]))
            return None
        call, scope = resolved
        sharding = argument(call, 1, "device" if placer in jaxapi.DEVICE_PUT_NAMES else "out_shardings")
        found = self.shapes.resolve(sharding, scope) if sharding is not None else None
        if found is None or not isinstance(found[0], ast.Call):
            if sharding is not None and found is None:
                unread.append((self.ev.span(sharding), unread_message(self.ev, "the input's sharding", sharding, scope)))
            return None
        named, inner = found
        qname = self.ix.qualname(named.func, inner)
        if qname in jaxapi.NAMED_SHARDING_NAMES:
            return self.ev, argument(named, 0, "mesh"), inner, argument(named, 1, "spec"), inner
        context = self.placements.context_mesh(call) if qname in jaxapi.PARTITION_SPEC_NAMES else None
        return (self.ev, context[0], context[1], sharding, scope) if context is not None else None

    def _elsewhere(self, arg: ast.AST, scope: Scope) -> tuple[tuple[VmapCallAnalysis, ast.AST, Scope] | None, str]:
        """((the analysis of the calling module, the argument it passes, the scope of its call), or None; why
        not) for `arg`, a parameter of a module-level function of this module that its module never calls and
        that one call of another module of the project calls (`ProjectLink.argument_elsewhere`: `accumulate(fn,
        xs)` in model.py called as `accumulate(apply, xs)` in train.py, where train.py places `xs`; fuzz/project.py
        seeds 600075, 620074). ((None, "") when `arg` is not such a parameter.)"""
        if not isinstance(arg, ast.Name):
            return None, ""
        binding = self.ix.single_binding(arg.id, scope)
        if binding is None or binding.kind is not BindingKind.PARAM or self.model.argument_for(binding) is not None:
            return None, ""
        if self.project is None:  # (one module on its own: stdin, a check without a project)
            return None, "calls from other modules are not read"
        found, why = self.project.argument_elsewhere(binding)
        if found is None:
            return None, why
        model, expr, where = found
        return (VmapCallAnalysis(model, StaticShapes(model)), expr, where), ""

    def _placement_entries(self, arg: ast.AST, scope: Scope, unread: list[tuple[Span, str]] | None = None):
        """The entries of the one spec of `arg`'s placement (`_sharding`), or None when it is not placed that
        way or the spec is not resolved (then, when `unread` is given, the expression and why are added)."""
        found = self._sharding(arg, scope, unread)
        if found is None or found[3] is None:
            return None
        tree = spec_tree(found[0], found[3], found[4])
        if tree.unresolved or len(tree.specs) != 1:
            if unread is not None:
                unread.extend(tree.lost[:1])
            return None
        return tree.specs[0].entries

    def _unread_parameter(self, arg: ast.Name, scope: Scope, why: str) -> tuple[Span, str]:
        """The SPMD910 (span, what) of a mapped argument `arg` that is a parameter of the function around the
        vmap call no call read gives (`_elsewhere`'s `why`: called from two modules, or from none). Where the
        batch is placed decides SPMD008 (`unread_matters.placement_matters`): fuzz/project.py seed 600075 raised
        SPMD008's `axis_names` error with no finding nor record of it."""
        binding = self.ix.single_binding(arg.id, scope)
        func = self.ix.parent.get(id(binding.node)) if binding is not None else None
        owner = f" of `{func.name}` (line {func.lineno})" if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) else ""
        what = (
            f"the placement of the vmapped input (`{arg.id}`) is not known: `{arg.id}` is a parameter{owner}, "
            f"which no call in its module makes, and {why}"
        )
        return self.ev.span(arg), what

    def _unread_rebound(self, arg: ast.Name, why: str) -> tuple[Span, str]:
        """The SPMD910 (span, what) of a mapped argument `arg` whose value at the call the straight-line reading
        cannot give because a statement may rebind it (`StaticShapes.rebinding`: an assignment inside an `if`, a
        loop, a `try`; a `nonlocal`/`global` statement naming it); `why` follows "`arg` ". The placement is then
        unknown (`BatchPlacement.UNKNOWN`, so add-axis on an Explicit mesh is unsafe), and where it decides SPMD008
        (`unread_matters.placement_matters`) this record stands for the finding: breaker10 t42/t46 (`if flip: xs =
        reshard(xs, P('x', None))`) raised SPMD008's `axis_names` error with no finding nor record; on the other
        branch the program fails otherwise or runs (safety/measurements/spmd008_axis_names_unknown_placement.py)."""
        return self.ev.span(arg), f"the placement of the vmapped input (`{arg.id}`) is not known: `{arg.id}` {why}"

    def _unread_value(self, arg: ast.AST, value: ast.AST) -> tuple[Span, str]:
        """The SPMD910 (span, what) of a mapped argument `arg` whose value at the call, `value` (`arg` itself or
        what straight-line names give), is neither a placement (`jax.device_put`, `reshard`) nor a value known
        not to be placed (`_unplaced`): a helper's result (`xs = to_batch(xs)`, the helper resharding to
        `P('x', None)`: breaker11 s03, s07, s08, s10), an element of a container a helper re-places (s04). The
        placement is unknown (`BatchPlacement.UNKNOWN`), and where it decides SPMD008
        (`unread_matters.placement_matters`) this record stands for the finding: those programs raised SPMD008's
        `axis_names` error while spmdfix said "All checks passed!"."""
        line = getattr(value, "lineno", None)
        at = f" (line {line})" if line is not None else ""
        if isinstance(value, ast.Call):
            what = f"it is the result of `{_shown(value.func)}(...)`{at}, a call spmdfix does not read"
        elif value is arg:
            what = f"`{_shown(value)}` is an expression spmdfix does not read"
        else:
            what = f"it is `{_shown(value)}`{at}, an expression spmdfix does not read"
        return self.ev.span(arg), f"{_UNKNOWN_INPUT.format(shown=_shown(arg))}: {what}"

    def _unplaced(self, expr: ast.AST, scope: Scope, depth: int) -> bool:
        """Whether `expr` is known to hold a value not placed on any mesh axis: a literal, a display or an
        arithmetic of such, a name straight-line code binds to such, or a call of a `numpy` / `jax.numpy` /
        `jax.random` function (or a method or attribute of such a value: `np.arange(32).reshape(4, 8)`) whose
        arguments are all such. An argument that is not (`jnp.zeros(s, out_sharding=P('x'))`, a parameter, a
        placed array given to `jnp.sin`) leaves the value unknown. Pure; `depth` bounds the names and calls
        followed."""
        if depth <= 0:
            return False
        deeper = depth - 1
        if isinstance(expr, ast.Constant):
            return True
        if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
            return all(self._unplaced(e, scope, deeper) for e in expr.elts)
        if isinstance(expr, ast.UnaryOp):
            return self._unplaced(expr.operand, scope, deeper)
        if isinstance(expr, ast.BinOp):
            return self._unplaced(expr.left, scope, deeper) and self._unplaced(expr.right, scope, deeper)
        if isinstance(expr, ast.Name):
            found = self.shapes.resolve(expr, scope)
            if found is None:
                return self._builtin(expr, scope)
            return self._unplaced(found[0], found[1], deeper)
        if isinstance(expr, ast.Attribute):
            qname = self.ix.qualname(expr, scope)
            if qname is not None and qname.startswith(_UNPLACED_MODULES):
                return True  # (a dtype, `np.float32`)
            return self._unplaced(expr.value, scope, deeper)
        if isinstance(expr, ast.Subscript):
            return self._unplaced(expr.value, scope, deeper) and self._unplaced(expr.slice, scope, deeper)
        if isinstance(expr, ast.Slice):
            return all(p is None or self._unplaced(p, scope, deeper) for p in (expr.lower, expr.upper, expr.step))
        if not isinstance(expr, ast.Call):
            return False
        qname = self.ix.qualname(expr.func, scope)
        known = (qname is not None and qname.startswith(_UNPLACED_MODULES)) or self._builtin(expr.func, scope)
        if not known and not (isinstance(expr.func, ast.Attribute) and self._unplaced(expr.func.value, scope, deeper)):
            return False
        return all(
            not isinstance(a, ast.Starred) and self._unplaced(a, scope, deeper) for a in expr.args
        ) and all(k.arg is not None and self._unplaced(k.value, scope, deeper) for k in expr.keywords)

    def _builtin(self, expr: ast.AST, scope: Scope) -> bool:
        """`expr` is a name of `_UNPLACED_NAMES` the module does not bind (Python's builtin)."""
        return isinstance(expr, ast.Name) and expr.id in _UNPLACED_NAMES and not self.ix.lookup(expr.id, scope)

    def _decorated_parameter(self, arg: ast.AST, scope: Scope) -> tuple[Span, str] | None:
        """The SPMD910 (span, what) of a mapped argument `arg` that is a parameter of a function whose calls this
        module reads (`ModuleModel.argument_for`) while the function carries a decorator spmdfix does not know
        (`_known_decorator`): the decorator may place the argument before the body runs (breaker11 s01: a
        decorator resharding to `P('x', None)` while the call passed `P(None, 'y')`; JAX raised SPMD008's
        `axis_names` error, "All checks passed!"). None otherwise."""
        if not isinstance(arg, ast.Name):
            return None
        binding = self.ix.single_binding(arg.id, scope)
        if binding is None or binding.kind is not BindingKind.PARAM or self.model.argument_for(binding) is None:
            return None
        func = self.ix.parent.get(id(binding.node))
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        outer = self.ix.scope_at(func)
        decorator = next((d for d in func.decorator_list if not self._known_decorator(d, outer)), None)
        if decorator is None:
            return None
        return self.ev.span(arg), (
            f"{_UNKNOWN_INPUT.format(shown=arg.id)}: `{arg.id}` is a parameter of `{func.name}` (line {func.lineno}), "
            f"decorated by `@{_shown(decorator)}` (line {decorator.lineno}), a decorator spmdfix does not read, "
            "which may place the argument before the body runs"
        )

    def _known_decorator(self, decorator: ast.expr, scope: Scope) -> bool:
        """A function decorator known to call the function with the arguments its calls pass: `jax.jit` (bare,
        or called or `functools.partial`-ed without `in_shardings`, which would place them), `functools.cache`,
        `functools.lru_cache`, `staticmethod`, `classmethod`."""
        target = decorator
        keywords: list[ast.keyword] = []
        if isinstance(decorator, ast.Call):
            keywords = decorator.keywords
            target = decorator.func
            if self.ix.qualname(target, scope) in jaxapi.PARTIAL_NAMES and decorator.args:
                target = decorator.args[0]
        qname = self.ix.qualname(target, scope)
        if qname in jaxapi.JIT_NAMES:
            return not any(k.arg in (None, "in_shardings") for k in keywords)
        return qname in _PLAIN_DECORATORS

    def _placed_mesh(self, arg: ast.AST, scope: Scope) -> Span | None:
        """The span of the resolved mesh `arg`'s placement (`_sharding`) commits it to, whatever its spec; None
        when it is not placed or the mesh is not known (`facts.VmapCall.unmapped_mesh`)."""
        found = self._sharding(arg, scope)
        if found is None or found[1] is None:
            return None
        mesh = resolve_mesh(found[0], found[1], found[2])
        return mesh.span if mesh is not None else None

    def _unbatched_mesh(self, arg: ast.AST, scope: Scope, axis: int) -> Span | None:
        """The span of the resolved mesh `arg`'s placement (`_sharding`) puts it on when its one spec is known
        to name no mesh axis at the mapped dimension `axis` (`P(None, 'y')`, `P()`: a spec shorter than the
        dimension leaves it unsharded); None otherwise. Such an input is committed to the mesh without being
        placed on the spmd axes (`facts.VmapCall.unbatched_mesh`)."""
        found = self._sharding(arg, scope)
        if found is None or found[1] is None or found[3] is None or axis < 0:
            return None
        mesh = resolve_mesh(found[0], found[1], found[2])
        tree = spec_tree(found[0], found[3], found[4])
        if mesh is None or tree.unresolved or len(tree.specs) != 1:
            return None
        entries = tree.specs[0].entries
        if axis < len(entries) and (not entries[axis].known or entries[axis].value is not None):
            return None
        return mesh.span

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

    def _placement(self, arg: ast.AST, scope: Scope, axis: int, unread: list[tuple[Span, str]]) -> BatchPlacement:
        """How a mapped argument's batch dimension is placed (`_sharding`); a placement whose sharding (a name
        not resolved) or spec cannot be read, or an argument that is a parameter no call read gives
        (`_unread_parameter`), adds the expression and why to `unread`."""
        entries = self._placement_entries(arg, scope, unread)
        if entries is None:
            return BatchPlacement.UNKNOWN
        if axis < 0 or axis >= len(entries):
            return BatchPlacement.NONE if axis >= 0 else BatchPlacement.UNKNOWN
        entry = entries[axis]
        if not entry.known:
            return BatchPlacement.UNKNOWN
        return BatchPlacement.AXES if entry.value is not None else BatchPlacement.NONE
