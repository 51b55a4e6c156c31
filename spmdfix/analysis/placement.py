"""Where a plain vmap's batch dimension is placed on an Explicit mesh axis, visibly (SPMD006).

JAX 0.10.2: a `jax.vmap` without spmd_axis_name over an input whose batch dimension is sharded on an
Explicit mesh axis A (`jax.device_put(x, NamedSharding(mesh, P('A', ...)))`) maps A away; a shard_map it
reaches whose specs name A then fails with `shard_map in_specs argument must refer to an axis marked as
manual` (the documented `vmapped away explicit mesh axis` message is shadowed by that earlier check;
measured, docs/rules.md). Only placements written in the same function (or module), before the call,
are followed; anything else stays silent. The vmap is applied where it is written (`jax.vmap(f)(x)`), or
decorates a def (`@jax.vmap`, `@partial(jax.vmap, in_axes=...)`, a jit decorator may sit above), whose calls
(`f(x)`, `jax.jit(f)(x)`) are then the vmap's (fuzz seeds 494, 23644, 23949).
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.calls import argument
from spmdfix.analysis.facts import Placement  # (defined with the other facts; imported from here too)
from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.follow import VMAP_WRAPPERS, Follow
from spmdfix.analysis.kinds import AxisType
from spmdfix.analysis.meshes import resolve_mesh
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.specs import spec_tree
from spmdfix.analysis.unknown_values import unread_message
from spmdfix.analysis.values import AxisNames, MeshInfo
from spmdfix.model import Span
from spmdfix.perf import record

# (the placements read: `jaxapi.DEVICE_PUT_NAMES`, `jaxapi.RESHARD_NAMES`, which the prefilter's words come from)
_DEVICE_PUT = jaxapi.DEVICE_PUT_NAMES
_RESHARD = jaxapi.RESHARD_NAMES
_JAX_VMAP = frozenset({"jax.vmap", "jax.api.vmap", "jax._src.api.vmap"})
_REBOUND_DEPTH = 3  # rebindings of a placed input followed back to its placement (`_rebound_placement`)


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@record(frozen=True)
class PlainVmap:
    """A `jax.vmap` without spmd_axis_name whose batch dim is placed on axes: an application `jax.vmap(f)(x, ...)`
    (`vmap` the `jax.vmap(f)` call), or a def it decorates (`vmap` the decorator, `fun` the def), called with
    such an input."""

    vmap: ast.AST
    fun: ast.AST
    axes: AxisNames  # the batch dimension's spec entry in the placement (no axes: a later dimension is placed)
    placement: Placement
    in_axes: ast.AST | None  # the vmap's `in_axes` expression (None: 0 for every argument)


# The last part of each `jaxapi.SET_MESH_NAMES`: an attribute's qualified name ends with the attribute's name
# (`scopes.ModuleIndex.qualname`), so the call of any other attribute is no set_mesh, without resolving it.
_SET_MESH_LAST = frozenset(name.rsplit(".", 1)[1] for name in jaxapi.SET_MESH_NAMES)


class PlacementAnalysis:
    """Finds plain vmaps over inputs placed on Explicit mesh axes, in one module (its `ModuleModel`). Pure."""

    def __init__(self, model: ModuleModel) -> None:
        # (the `jax.vmap(f)` call, f, span, what) of each plain vmap applied to an argument placed by
        # `device_put`/`reshard` whose sharding, mesh or spec cannot be read (issue 22: the placement is a value
        # the plain-vmap rules need; the analyzer reports it when f reaches a shard_map)
        self.unread: list[tuple[ast.Call, ast.AST, Span, str]] = []
        self.ix = model.ix
        self.ev = model.ev
        self._set_mesh_calls: list[ast.Call] | None = None

    def plain_vmaps(self) -> list[PlainVmap]:
        found = []
        self.unread = []
        named: set[int] = set()  # the vmaps bound to a name with a placed call found (one record a vmap)
        for call in self.ix.calls:
            if isinstance(call.func, ast.Name):
                vmap = self._named_vmap(call.func)  # `batched = jax.vmap(block)` ... `batched(xs)`
                if vmap is None or id(vmap) in named:
                    continue
            elif isinstance(call.func, ast.Call):
                vmap = self._vmap_of(call.func)
            else:
                continue  # (a method call: no vmap is read through it)
            if vmap is None or argument(vmap, 5, jaxapi.VMAP_SPMD_KEYWORD) is not None:
                continue
            fun = argument(vmap, 0, "fun")
            in_axes = argument(vmap, 1, "in_axes")
            lost: list[tuple[Span, str]] = []
            placed = self._first_placed(call, in_axes, lost) if fun is not None else None
            if placed is not None:
                found.append(PlainVmap(vmap, fun, *placed, in_axes))
                if isinstance(call.func, ast.Name):
                    named.add(id(vmap))
            elif lost:
                self.unread.append((vmap, fun, *lost[0]))
        return found + self._decorated()

    def _named_vmap(self, name: ast.Name) -> ast.Call | None:
        """The vmap a called name is bound to once by an assignment (`batched = jax.vmap(block)`, or inside
        `jax.jit(...)` wrappers: `_vmap_of`): the vmap is applied where the name is called. Silent before
        (silence7: `batched(xs)` over a placed batch gave nothing while `jax.vmap(block)(xs)` was found)."""
        binding = self.ix.single_binding(name.id, self.ix.scope_at(name))
        if binding is None or binding.kind is not BindingKind.ASSIGN or not isinstance(binding.node, ast.Call):
            return None
        return self._vmap_of(binding.node)

    def _first_placed(
        self, call: ast.Call, in_axes: ast.AST | None, lost: list[tuple[Span, str]] | None = None,
    ) -> tuple[AxisNames, Placement] | None:
        """The placement of the first argument of `call` the vmap maps along axis 0 whose batch dimension is
        placed on axes; else of the first whose dimension after the batch is (with no axes for the batch:
        an inner `jax.vmap` may map that dimension away, `rules.explicit_axis`; fuzz seed 2889); else of the
        first placed on axes at a later dimension only (`P(None, None, 'x')`, no axes for the batch: the input
        is committed to the Explicit mesh, and so may be the inputs of a value a shard_map body closes over,
        which JAX then refuses, SPMD003; measured: safety/measurements/plain_vmap_committed_capture_inner_nested.py,
        part A; fuzz seed 350770); else of the first committed to the Explicit mesh on no mesh axis at all (`P()`,
        `P(None)`): a body closing over a value batched from it is refused the same way, whatever the other
        arguments' placement (measured: safety/measurements/plain_vmap_committed_no_axis.py; fuzz seed 380039)."""
        after = later = committed = None
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred) or _axis_of(in_axes, i) != 0:
                continue
            found = self._placement_any(arg, call, lost)
            placed = found[:2] if found is not None else None
            if placed is not None and placed[0].axes:
                return placed
            if found is not None and not found[3]:
                committed = committed or placed
                continue
            if found is not None and not found[2]:
                later = later or placed
                continue
            after = after or placed
        return after or later or committed

    def _decorated(self) -> list[PlainVmap]:
        """Defs decorated by a plain vmap whose first call placing a mapped argument's batch dimension on axes
        is found (one record a def: every call is among the vmap's calls, `analysis.vmap_calls`)."""
        found = []
        for scope in self.ix.scope_by_node.values():
            fun = scope.node
            if not isinstance(fun, (ast.FunctionDef, ast.AsyncFunctionDef)) or not fun.decorator_list:
                continue
            outer = self.ix.scope_at(fun)
            for deco in fun.decorator_list:
                plain, in_axes = self._plain_vmap_decorator(deco, outer)
                if not plain:
                    continue
                lost: list[tuple[Span, str]] = []
                placed = self._decorated_placement(fun, outer, in_axes, lost)
                if placed is not None:
                    found.append(PlainVmap(deco, fun, *placed, in_axes))
                elif lost:
                    self.unread.append((deco, fun, *lost[0]))
                break
        return found

    def _plain_vmap_decorator(self, deco: ast.AST, scope) -> tuple[bool, ast.AST | None]:
        """Whether `deco` is a vmap without spmd_axis_name (`jax.vmap`, `partial(jax.vmap, in_axes=...)`), and
        its `in_axes` expression (None: the default 0)."""
        if not isinstance(deco, ast.Call):
            return self.ix.qualname(deco, scope) in _JAX_VMAP, None
        if self.ix.qualname(deco.func, scope) not in jaxapi.PARTIAL_NAMES or not deco.args:
            return False, None
        if self.ix.qualname(deco.args[0], scope) not in _JAX_VMAP or any(isinstance(a, ast.Starred) for a in deco.args):
            return False, None
        if len(deco.args) > 2 or any(k.arg is None or k.arg == jaxapi.VMAP_SPMD_KEYWORD for k in deco.keywords):
            return False, None  # (an spmd_axis_name, positional or in `**kw`, makes it an spmd vmap site)
        return True, deco.args[1] if len(deco.args) == 2 else argument(deco, None, "in_axes")

    def _decorated_placement(
        self, fun: ast.AST, scope, in_axes, lost: list[tuple[Span, str]] | None = None
    ) -> tuple[AxisNames, Placement] | None:
        """The placement of the first mapped argument placed on axes at a call of the decorated `fun`: `fun(x)`
        or `jax.jit(fun)(x)`, by the name bound once to the def; `lost` as `_first_placed`'s."""
        bindings = scope.bindings.get(fun.name, [])
        if len(bindings) != 1:
            return None
        for load in self._loads(bindings[0]):
            call = self.ix.parent.get(id(load))
            if isinstance(call, ast.Call) and call.func is not load and call.args and call.args[0] is load:
                jit = call if self._is_jit(call) else None  # `jax.jit(fun)(x)`
                call = self.ix.parent.get(id(jit)) if jit is not None else None
                load = jit
            if not isinstance(call, ast.Call) or call.func is not load:
                continue
            placed = self._first_placed(call, in_axes, lost)
            if placed is not None:
                return placed
        return None

    def _loads(self, binding) -> list[ast.Name]:
        return [n for n in self.ix.loads_of(binding.name) if any(b is binding for b in self.ix.lookup(n.id, self.ix.scope_at(n)))]

    def _is_jit(self, call: ast.Call) -> bool:
        return self.ix.qualname(call.func, self.ix.scope_at(call)) in jaxapi.JIT_NAMES

    def _vmap_of(self, func: ast.AST) -> ast.Call | None:
        """`jax.vmap(f)` itself, or inside `jax.jit(...)` wrappers (at most `follow.VMAP_WRAPPERS` of them): the
        callee of the application. A wrapper's argument may be a name bound once to such a vmap (`batched =
        jax.vmap(block)`; `jax.jit(batched)(xs)`: breaker6, measured to fail as `jax.vmap(block)(xs)` does,
        safety/trials/breaker6/measure_named_plain_vmap_jit.py; silent before)."""
        step = Follow(VMAP_WRAPPERS)
        while not step.spent:
            step = step.deeper()
            if isinstance(func, ast.Name):
                binding = self.ix.single_binding(func.id, self.ix.scope_at(func))
                if binding is None or binding.kind is not BindingKind.ASSIGN:
                    return None
                func = binding.node
            if not isinstance(func, ast.Call) or not func.args:
                return None
            qname = self.ix.qualname(func.func, self.ix.scope_at(func))
            if qname in _JAX_VMAP:
                return func
            if qname not in jaxapi.WRAPPER_NAMES:
                return None
            func = func.args[0]
        return None

    def _placement_any(
        self, arg: ast.AST, use: ast.Call, lost: list[tuple[Span, str]] | None = None,
    ) -> tuple[AxisNames, Placement, bool, bool] | None:
        """The placement of the argument `arg` of the call `use` (its batch dimension's spec entry, and the
        `Placement`), when the value last assigned to it is a `device_put`/`reshard` on an Explicit mesh, whether
        it names a mesh axis at the batch dimension or the one after it, and whether it names one at all. When
        the placer is one of those but its sharding, mesh or spec cannot be read, `lost` gets the expression's
        span and why (`unknown_values.unread_message`)."""
        lost = [] if lost is None else lost
        value = self._last_assignment(arg, use)
        if not isinstance(value, ast.Call):
            self._rebound_placement(arg, value, lost)
            return None
        placer = self.ix.qualname(value.func, self.ix.scope_at(value))
        if placer not in _DEVICE_PUT and placer not in _RESHARD:
            self._rebound_placement(arg, value, lost)
            return None
        scope = self.ix.scope_at(value)
        sharding = argument(value, 1, "device" if placer in _DEVICE_PUT else "out_shardings")
        resolved = self.ev.resolve_name(sharding, scope) if sharding is not None else None
        if resolved is None or not isinstance(resolved[0], ast.Call):
            if sharding is not None and resolved is None:  # (a device, `x.sharding`: not a spec to read)
                lost.append((self.ev.span(sharding), unread_message(self.ev, "the input's sharding", sharding, scope)))
            return None
        named, scope = resolved
        mesh_scope = scope
        if self.ix.qualname(named.func, scope) in jaxapi.PARTITION_SPEC_NAMES:
            # A bare spec (`reshard(x, P('S', None))`, `device_put(x, P('S', None))`) places on the context
            # mesh: the `jax.set_mesh(mesh)` installed around or before the placement (measured to fail like
            # the NamedSharding form: safety/measurements/reshard_placement_plain_vmap.py).
            context = self.context_mesh(value)
            if context is None:
                what = (
                    f"the mesh the spec `{self.ev.text(sharding)}` places the input on is not known: no "
                    "`jax.set_mesh(...)` is visible around or before the placement (one installed elsewhere is not followed)"
                )
                lost.append((self.ev.span(value), what))
                return None
            (mesh_expr, mesh_scope), spec_expr = context, sharding
        elif (self.ix.qualname(named.func, scope) or "").endswith("NamedSharding"):
            mesh_expr, spec_expr = argument(named, 0, "mesh"), argument(named, 1, "spec")
        else:
            return None
        mesh = resolve_mesh(self.ev, mesh_expr, mesh_scope) if mesh_expr is not None else None
        if mesh is None and mesh_expr is not None and not self.ev.is_none(mesh_expr, mesh_scope):
            lost.append((self.ev.span(mesh_expr), unread_message(self.ev, "the input's mesh", mesh_expr, mesh_scope)))
        if mesh is None or spec_expr is None:
            return None
        if mesh.axis_types is not AxisType.EXPLICIT:
            self._types_unread(mesh, mesh_expr, spec_expr, scope, lost)
            return None
        tree = spec_tree(self.ev, spec_expr, scope)
        lost += tree.lost
        entries = tree.specs[0].entries if len(tree.specs) == 1 else ()
        if len(tree.specs) != 1 or tree.unresolved or not all(e.known for e in entries):
            return None
        spec_call = self.ev.resolve_name(spec_expr, scope)
        callee = self.ev.text(spec_call[0].func) if spec_call and isinstance(spec_call[0], ast.Call) else "P"
        shared = not isinstance(spec_expr, ast.Call) or not isinstance(sharding, ast.Call)
        placement = Placement(self.ev.span(value), tree.specs[0], callee, shared, mesh)
        early = bool(entries) and (entries[0].value is not None or (len(entries) > 1 and entries[1].value is not None))
        on_axes = any(e.value is not None for e in entries)
        batch = entries[0].value if entries else None
        # (`P()`: no entry to point at; the spec itself)
        where = entries[0].span if entries else self.ev.span(spec_expr)
        return batch or AxisNames((), where, False, False), placement, early, on_axes

    def _types_unread(
        self, mesh: MeshInfo, mesh_expr: ast.AST, spec_expr: ast.AST, scope, lost: list[tuple[Span, str]]
    ) -> None:
        """When the input is placed on a mesh whose axis types are not all read (`MeshInfo.axis_types` UNKNOWN,
        or MIXED), by a spec naming an axis not known to be Auto (or a spec not read): `lost` gets the mesh
        expression's span and why. A plain vmap maps away an Explicit axis its batch is placed on (SPMD006,
        SPMD008): without the types, whether it does is not known (`def build_mesh(explicit=False)` choosing
        `AxisType.Explicit if explicit else AxisType.Auto`, called as `build_mesh(explicit=True)`: JAX raises
        `shard_map in_specs argument must refer to an axis marked as manual`, and no record was made:
        safety/trials/newuser15, s01). Placed only on Auto axes, or a mesh read as Auto, there is nothing to
        say (a plain vmap runs there)."""
        if mesh.axis_types is AxisType.AUTO or mesh_expr is None:
            return
        tree = spec_tree(self.ev, spec_expr, scope)
        if not tree.unresolved and all(mesh.type_of(a) is AxisType.AUTO for a in tree.axes()):
            return
        what = (
            f"the axis types of the input's mesh (`{_shown(mesh_expr)}`) are not known: whether the axis its batch "
            "is placed on is Explicit, which the plain vmap maps away, is not known"
        )
        lost.append((self.ev.span(mesh_expr), what))

    def _rebound_placement(self, arg: ast.AST, value: ast.AST | None, lost: list[tuple[Span, str]]) -> None:
        """When `value`, the value last assigned to the mapped argument `arg`, is no placement but reads a name
        whose value before it is one on an Explicit mesh, read (`xs = jax.device_put(xs, NamedSharding(mesh,
        P(None, 'x', 'y')))` then `xs = jnp.swapaxes(xs, 0, 1)`; through `_REBOUND_DEPTH` such rebindings), add
        to `lost` the place and why: the placement decides SPMD006 and what `value` does to it is not followed.
        breaker13 e12: JAX raised `shard_map in_specs argument must refer to an axis marked as manual` (the swap
        puts the batch on `'x'`) while spmdfix said "All checks passed!"."""
        if value is None or isinstance(value, ast.Name):
            return
        found = self._placed_through(value, _REBOUND_DEPTH)
        if found is None:
            return
        name, placed = found
        line = getattr(value, "lineno", None)
        it = "it is " if value is not arg else ""
        what = (
            f"the placement of the vmapped input (`{_shown(arg)}`) is not known: {it}`{_shown(value)}`"
            f"{f' (line {line})' if line is not None else ''}, which spmdfix does not read, reads `{name}` placed on "
            f"an Explicit mesh at line {placed.lineno}: where the batch dimension is placed then is not followed"
        )
        lost.append((self.ev.span(value), what))

    def _placed_through(self, value: ast.AST, depth: int) -> tuple[str, ast.Call] | None:
        """(a name `value` reads, the placement call on an Explicit mesh, read, that its value before `value`
        comes from: that value itself, or through at most `depth` rebindings that are no placement), or None."""
        for name in ast.walk(value):
            if not isinstance(name, ast.Name) or not isinstance(name.ctx, ast.Load):
                continue
            earlier = self._last_assignment(name, value)
            if earlier is None or earlier is value or earlier is name:  # (a name `_last_assignment` cannot give)
                continue
            placer = self.ix.qualname(earlier.func, self.ix.scope_at(earlier)) if isinstance(earlier, ast.Call) else None
            if placer in _DEVICE_PUT or placer in _RESHARD:
                if self._placement_any(name, value) is not None:
                    return name.id, earlier
            elif depth > 0:
                deeper = self._placed_through(earlier, depth - 1)
                if deeper is not None:
                    return name.id, deeper[1]
        return None

    def context_mesh(self, place: ast.Call) -> tuple[ast.AST, object] | None:
        """The mesh expression (and its scope) a `jax.set_mesh(m)` installs where `place` runs: a `with
        jax.set_mesh(m):` around it, else the last `jax.set_mesh(m)` statement (or `x = jax.set_mesh(m)`)
        before it in the same function (or at module level when `place` is there). None when neither is
        visible: a mesh installed elsewhere (a caller) is not followed."""
        for anc in self.ix.ancestors(place):
            if isinstance(anc, (ast.With, ast.AsyncWith)):
                for item in anc.items:
                    ctx = item.context_expr
                    if isinstance(ctx, ast.Call) and ctx.args and self._is_set_mesh(ctx):
                        return ctx.args[0], self.ix.scope_at(ctx)
        home = self.ix.enclosing_function(place)
        before = [
            call
            for call in self._set_mesh_statements()
            if self.ix.enclosing_function(call) is home
            and (call.lineno, call.col_offset) < (place.lineno, place.col_offset)
        ]
        if not before:
            return None
        last = max(before, key=lambda n: (n.lineno, n.col_offset))
        return last.args[0], self.ix.scope_at(last)

    def _set_mesh_statements(self) -> list[ast.Call]:
        """The module's `jax.set_mesh(m)` calls that are statements (`jax.set_mesh(m)`, `x = jax.set_mesh(m)`),
        found once: `context_mesh` asks for every placement, and a scan of every call each time made it the
        largest cost of a cold run on big test modules (jax's pjit_test.py). Kept with the module's index
        (`ModuleIndex.derived`): the analyzer's placements and its vmap calls' (`vmap_calls`) each ask."""
        if self._set_mesh_calls is None:
            kept = self.ix.derived.get(("set_mesh_statements",))
            if kept is None:
                parent = self.ix.parent
                # (the callee's spelling first: most calls, `self.assertEqual(...)` and such, are no set_mesh by
                # the name of their attribute, `_SET_MESH_LAST`, without their parent or their name being resolved)
                kept = self.ix.derived[("set_mesh_statements",)] = [
                    call
                    for call in self.ix.calls
                    if call.args
                    and (
                        call.func.__class__ is ast.Name
                        or call.func.__class__ is ast.Attribute and call.func.attr in _SET_MESH_LAST
                    )
                    and isinstance(parent.get(id(call)), (ast.Expr, ast.Assign))
                    and self._is_set_mesh(call)
                ]
            self._set_mesh_calls = kept  # type: ignore[assignment]
        return self._set_mesh_calls

    def _is_set_mesh(self, call: ast.Call) -> bool:
        return self.ix.qualname(call.func, self.ix.scope_at(call)) in jaxapi.SET_MESH_NAMES

    def _last_assignment(self, arg: ast.AST, use: ast.AST) -> ast.AST | None:
        """The value last assigned to the name `arg` before `use`, in the scope of `use`."""
        if not isinstance(arg, ast.Name):
            return arg
        scope = self.ix.scope_at(use)
        before = [
            b.node
            for b in scope.bindings.get(arg.id, [])
            if b.kind is BindingKind.ASSIGN and (b.node.lineno, b.node.col_offset) < (use.lineno, use.col_offset)
        ]
        return max(before, key=lambda n: (n.lineno, n.col_offset)) if before else None


def _shown(node: ast.AST) -> str:
    """`node`'s source text, cut to 60 characters, for a record (as `vmap_calls` shows a value)."""
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _axis_of(in_axes: ast.AST | None, i: int) -> int | None:
    """The in_axes entry of positional argument i: 0 by default, an int for all, or the tuple's i-th."""
    if in_axes is None:
        return 0
    if isinstance(in_axes, ast.Constant):
        return in_axes.value if isinstance(in_axes.value, int) else None
    if isinstance(in_axes, (ast.Tuple, ast.List)) and i < len(in_axes.elts):
        return _axis_of(in_axes.elts[i], 0) if not isinstance(in_axes.elts[i], (ast.Tuple, ast.List)) else None
    return None
