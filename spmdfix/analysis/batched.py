"""Which values the spmd vmap batches, followed from the vmapped function to a function on its chain.

"Batched" is followed by a small taint analysis along the call chain from the vmap to the function that
builds the shard_map: the vmapped function's parameters (those whose `in_axes` entry is not None), every
local computed from a batched value, and the parameters of each function on the chain that receive one.
Steps through a higher-order function (jit, scan, ...) taint all parameters of the function passed. A
function jitted inside the vmap stops the walk (what it closes over are jit operands).

Also here, as they read the same chain: which vmapped parameters a local comes from (`plain_hops`,
`sources_through`, for a capture's `params`), and which operands of a shard_map the vmap leaves unbatched
(`unbatched_operands`, for the collectives that then see no batched value).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, NamedTuple

from spmdfix import jaxapi
from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.follow import PASSED, Follow
from spmdfix.analysis.instances import Instances, is_self_param
from spmdfix.analysis.lost_places import LostPlaces
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.static import dynamic_names
from spmdfix.analysis.vmap_operands import applied_vmap, through_vmap

if TYPE_CHECKING:
    from spmdfix.analysis.reach import ReachedSite


class BatchedValues:
    """The names that hold values the spmd vmap batches, in the functions of one module (its `ModuleModel`)
    on a vmap's chain. Pure."""

    def __init__(self, model: ModuleModel) -> None:
        self.ix = model.ix
        self.model = model
        self.instances = Instances(model, LostPlaces(model))
        # `_step` on a batched receiver of a class that may hold static fields: `self` is not counted as
        # batched (which fields are leaves is not read) unless `static_self` is set; `static_skipped` says
        # that happened since it was last cleared (`capture.CaptureAnalysis._static_self_uses`: breaker6)
        self.static_self = False
        self.static_skipped = False
        # Of the vmapped function's parameters its `in_axes` batches, only these (None: all). Set on an analysis
        # of another module's callable whose caller knows which arguments it passes batched values
        # (`analyzer._reached_under`); never changed once the analysis has read anything.
        self.only: frozenset[str] | None = None
        # The parameters the vmap maps only in part, through an `in_axes` dict display (`{"scale": 0, "bias":
        # None}`): the keys it maps, by parameter (`keyed_params`). Set on an analysis of another module's callable
        # whose caller's vmap maps it so (`analyzer._reached_under`); else read off the `in_axes` display.
        self.keyed: dict[str, Keys] | None = None
        # Set while `capture.CaptureAnalysis.captures` reads such a parameter by key: it is not batched whole, a
        # local assigned one of its mapped keys (`scale = p["scale"]`) is (`_by_key_locals`).
        self.by_key = False

    def callee(self, expr: ast.AST) -> tuple[ast.AST, int] | None:
        """The function calling `expr` runs, with how many leading parameters the call does not pass (`self`
        of a method read off an instance, an instance's `__call__`): `instances.Instances.callee`. A parameter
        (`fn` of `def batched(fn, **kw): return jax.vmap(fn, **kw)`) is the callable every call passes it
        (`ModuleIndex.argument_for`), as the call walk follows it (`reach.Reacher`): the batched values are
        read along the same chain the walk found (fuzz seed 60128). None when that is not one callable."""
        follow = Follow(PASSED)
        while True:
            scope = self.ix.scope_at(expr)
            found = self.instances.callee(expr, scope)
            if found is not None or not isinstance(expr, ast.Name):
                return found
            binding = self.ix.single_binding(expr.id, scope)
            if binding is None or binding.kind is not BindingKind.PARAM or is_self_param(binding):
                return None
            passed = self.model.argument_for(binding)
            if passed is None or not follow.first_visit(binding.node):
                return None
            expr = passed[0]

    def _qualname(self, expr: ast.expr) -> str | None:
        """The qualified name `expr` resolves to where it is written (static reads such as `jnp.shape`)."""
        return self.ix.qualname(expr, self.ix.scope_at(expr))

    def batched_in(
        self, fun: ast.AST, in_axes: ast.AST | None, reached: ReachedSite, home: ast.AST | None,
        vmap: ast.AST | None = None,
    ) -> set[str] | None:
        """The names of function `home` (on the chain from the vmapped `fun`) that hold batched values, or
        None when the chain cannot be followed to `home`; through jit and staging higher-order functions alike
        (a vmap of a jitted function batches exactly the arguments it batches): `batched_walk`."""
        walk = self.batched_walk(fun, in_axes, reached, home, vmap)
        return walk[0] if walk is not None else None

    def batched_walk(
        self, fun: ast.AST, in_axes: ast.AST | None, reached: ReachedSite, home: ast.AST | None,
        vmap: ast.AST | None = None, inner_batches: bool = True,
    ) -> tuple[set[str], bool] | None:
        """(the names of function `home`, on the chain from the vmapped `fun`, that hold batched values;
        whether the way is staged), or None when the chain cannot be followed to `home`.

        Staged: a function jitted inside the vmap (`_jitted`; `vmap` is the vmap call or decorator: a jit
        decorator of `fun` stacked above it wraps the vmap and stages nothing) or a call of a staging function
        (`jaxapi.STAGING_NAMES`: jit, checkpoint, the lax loops and conditionals) lies on the chain, so JAX
        traces the shard_map into a jaxpr before the vmap batches it. What a capture does then depends on the
        mesh (`analysis.capture.CaptureAnalysis.captures`).

        `inner_batches`: whether a parameter an inner `jax.vmap` on the chain maps counts as batched even when
        its operand holds no batched value (True: the spmd vmap's batch and the inner one alike; False: only
        what the spmd vmap batches, `vmap_operands.through_vmap`)."""
        found = self.callee(fun) if fun is not None else None
        if home is None or found is None:
            return None
        start, bound = found
        tainted = self._tainted_params(start, in_axes, bound)
        if self.by_key:
            tainted |= self._by_key_locals(start, self.keyed_params(start, in_axes, bound))
        current, staged = start, False
        for node in reached.chain_nodes:
            if current is home:
                break
            staged = staged or self._jitted(current, vmap) or self._staging(node)
            tainted_locals = self._taint_locals(current, tainted)
            current, tainted = self._step(node, tainted_locals, inner_batches)
            if current is None:
                return None
        if current is not home:
            return None
        return self._taint_locals(home, tainted), staged or self._jitted(home, vmap)

    def batched_by_function(
        self, fun: ast.AST | None, in_axes: ast.AST | None, functions: list[ast.AST], inner_batches: bool = True,
    ) -> dict[int, set[str]]:
        """For each of `functions` (the functions a vmapped `fun` traces: `reach.ReachResult.functions`) that
        the vmap's batched values reach by calls, the names in it that hold them (by `id` of the function),
        followed from `fun`'s batched parameters over every call between those functions, to a fixed point
        (`_step`: a function passed to a higher-order function gets every parameter batched; `inner_batches`: as
        `batched_walk`'s, for an inner `jax.vmap` applied at once). A function missing from the result was
        reached some other way: what it holds is not known."""
        found = self.callee(fun) if fun is not None else None
        if found is None:
            return {}
        start, bound = found
        traced = {id(f) for f in functions}
        params: dict[int, set[str]] = {id(start): self._tainted_params(start, in_axes, bound)}
        by_id = {id(f): f for f in functions}
        by_id[id(start)] = start
        changed = True
        while changed:
            changed = False
            for key in list(params):
                func = by_id[key]
                names = self._taint_locals(func, params[key])
                for call in self.ix.calls_in(func):
                    callee, hit = self._step(call, names, inner_batches)
                    if callee is None or id(callee) not in traced:
                        continue
                    new = id(callee) not in params
                    known = params.setdefault(id(callee), set())
                    by_id.setdefault(id(callee), callee)
                    if new or not hit <= known:
                        known |= hit
                        changed = True
        return {key: self._taint_locals(by_id[key], names) for key, names in params.items()}

    def _staging(self, node: ast.AST) -> bool:
        """A chain step that calls a staging function (`jaxapi.STAGING_NAMES`), or passes a function to one."""
        return isinstance(node, ast.Call) and self.ix.qualname(node.func, self.ix.scope_at(node)) in jaxapi.STAGING_NAMES

    def _jitted(self, func: ast.AST, vmap: ast.AST | None = None) -> bool:
        """True for a function under a jit decorator applied inside the spmd vmap: what it closes over are jit
        operands, not batched. Decorators apply bottom-up, so on the vmapped function itself only a jit listed
        under the vmap decorator `vmap` is inside it; one stacked above (`@jax.jit` over
        `@partial(jax.vmap, spmd_axis_name=...)`) wraps the vmap as `jax.jit(jax.vmap(f))` does, and the
        capture fails as it does eagerly (measured on jax 0.10.2, check_vma True and False, any specs:
        safety/measurements/capture_jit_above_vmap.py; golden/lift-captures/jit_above_vmap_decorator)."""
        return self.ix.decorator_in(func, jaxapi.JIT_NAMES, below=vmap) is not None

    def _tainted_params(self, func: ast.AST, in_axes: ast.AST | None, bound: int = 0) -> set[str]:
        """The parameters of the vmapped `func` that hold batched values: those `in_axes` maps
        (`mapped_params`), of them only `only`'s when set."""
        names = self.mapped_params(func, in_axes, bound)
        names = names if self.only is None else names & self.only
        return names - self.keyed_params(func, in_axes, bound).keys() if self.by_key else names

    def keyed_of(self, fun: ast.AST | None, in_axes: ast.AST | None) -> dict[str, Keys]:
        """`keyed_params` of the function the vmapped `fun` runs (empty when that is not one function)."""
        found = self.callee(fun) if fun is not None else None
        return self.keyed_params(found[0], in_axes, found[1]) if found is not None else {}

    def keyed_params(self, func: ast.AST, in_axes: ast.AST | None, bound: int = 0) -> dict[str, Keys]:
        """The parameters of the vmapped `func` that the vmap maps only in part, through a dict display in
        `in_axes` (`in_axes=({"scale": 0, "bias": None}, 0)`), each with the keys it maps and those it does not
        (`Keys`); `keyed` when set (the
        caller's reading, for a function of another module). JAX maps each leaf by its own entry: a value read
        off a key whose entry is None is not batched, one off a mapped key is (measured:
        safety/measurements/in_axes_dict_capture.py)."""
        names = [a.arg for a in [*func.args.posonlyargs, *func.args.args]][bound:]
        if self.keyed is not None:
            return {n: keys for n, keys in self.keyed.items() if n in names}
        if not isinstance(in_axes, (ast.Tuple, ast.List)) or len(in_axes.elts) != len(names):
            return {}
        out = {}
        for name, ax in zip(names, in_axes.elts):
            keys = dict_entry_keys(ax)
            if keys is not None and keys.mapped and keys.unmapped:  # (some keys mapped, not all)
                out[name] = keys
        return out

    def _by_key_locals(self, func: ast.AST, keyed: dict[str, Keys]) -> set[str]:
        """The locals of `func` assigned a mapped key of a parameter the vmap maps in part, read as such
        (`scale = p["scale"]`, `keyed_params`): those hold batched values."""
        out = set()
        for node in self._own_assignments(func):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
                continue
            value = node.value
            if (
                isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id in keyed
                and isinstance(value.slice, ast.Constant) and value.slice.value in keyed[value.value.id].mapped
            ):
                out.add(node.targets[0].id)
        return out

    def mapped_params(self, func: ast.AST, in_axes: ast.AST | None, bound: int = 0) -> set[str]:
        """The parameters of the vmapped `func` the vmap batches: each positional one whose `in_axes` entry is
        not None, past the `bound` leading ones the vmapped callable binds (`self`: `in_axes` lines up with the
        arguments the vmap passes)."""
        names = [a.arg for a in [*func.args.posonlyargs, *func.args.args]][bound:]
        if isinstance(in_axes, ast.Constant) and in_axes.value is None:
            return set()
        if isinstance(in_axes, (ast.Tuple, ast.List)) and len(in_axes.elts) == len(names):
            # (an entry whose leaves are all None maps nothing: `{"scale": None}`; measured,
            # safety/measurements/in_axes_dict_capture.py)
            return {n for n, ax in zip(names, in_axes.elts) if not _unmapped(ax)}
        return set(names) | {a.arg for a in func.args.kwonlyargs}

    def _step(self, call: ast.AST, tainted: set[str], inner_batches: bool = True) -> tuple[ast.AST | None, set[str]]:
        """Follow one chain call into the function it reaches, with the parameters that receive batched data
        (`inner_batches`: as `batched_walk`'s)."""
        if not isinstance(call, ast.Call):
            return None, set()
        scope = self.ix.scope_at(call)
        qname = None if isinstance(call.func, ast.Name) else self.ix.qualname(call.func, scope)
        if qname in jaxapi.HIGHER_ORDER_NAMES or qname in jaxapi.PARTIAL_NAMES:
            # an inner jax.vmap applied at once: an operand neither vmap maps stays unbatched (fuzz seed 70122)
            fed = lambda arg: mentions(arg, tainted, self.ix.parent, self._qualname)  # noqa: E731
            inner = through_vmap(self.ix, call, qname, self.callee, fed, inner_batches)
            if inner is not None:
                return inner
            for arg in call.args:
                found = self.callee(arg)
                if found is not None:
                    callee, bound = found
                    every = [a.arg for a in [*callee.args.posonlyargs, *callee.args.args]][bound:]
                    return callee, {*every, *(a.arg for a in callee.args.kwonlyargs)}
            return None, set()
        # a function by its name, a method (`self.block(x)`, `blk.apply(x)`), an instance's `__call__`
        found = self.callee(call.func)
        if found is None:
            return None, set()
        callee, bound = found
        every = [a.arg for a in [*callee.args.posonlyargs, *callee.args.args]]
        params = every[bound:]
        hit = {p for p, arg in zip(params, call.args) if mentions(arg, tainted, self.ix.parent, self._qualname)}
        hit |= {kw.arg for kw in call.keywords if kw.arg and mentions(kw.value, tainted, self.ix.parent, self._qualname)}
        # The instance a method or `__call__` is read off is its `self`: an instance the vmap batches (a pytree
        # module, `def apply(m: Scale, x): return m(x)` vmapped over `m`) batches `self` and what is read off it
        # (breaker4's p06: a body closing over `self.scale` failed under JAX, silently).
        receiver = call.func.value if isinstance(call.func, ast.Attribute) else call.func
        if bound and every and isinstance(receiver, ast.Name) and receiver.id in tainted:
            owner = self.ix.parent.get(id(callee))
            if isinstance(owner, ast.ClassDef) and not _may_hold_static_fields(owner):
                hit.add(every[0])
            elif isinstance(owner, ast.ClassDef):
                self.static_skipped = True
                if self.static_self:
                    hit.add(every[0])
        return callee, hit

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
                if value is None or not mentions(value, result, self.ix.parent, self._qualname):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and name.id not in result:
                            result.add(name.id)
                            changed = True
        return result

    def plain_hops(self, fun: ast.AST | None, home: ast.AST | None, reached: ReachedSite, through_vmaps: bool = False):
        """(bound, [(caller, call, callee, bound), ...]) from the vmapped callable `fun` to `home` when every
        step of the chain is a plain call of a function or method (`callee`: `bound` leading parameters the
        read binds, `self`) or a `jax.lax.map(f, xs)` (`_lax_map_hop`); the list is empty when `fun` runs
        `home`; None otherwise. With `through_vmaps`, a
        step may also be an inner `jax.vmap(f, in_axes)` applied at once to positional operands (`call` is
        then the application): each operand reaches `f`'s parameter at its position, whole or, where
        `in_axes` maps it, sliced: the value still comes from that argument."""
        start = self.callee(fun) if fun is not None else None
        if start is None or home is None:
            return None
        hops, current = [], start[0]
        for node in reached.chain_nodes:
            if current is home:
                break
            found = self.callee(node.func) if isinstance(node, ast.Call) else None  # not a wrapper or a library's
            if found is not None:
                hops.append((current, node, *found))
                current = found[0]
                continue
            mapped = self._lax_map_hop(node)
            if mapped is not None:
                hops.append((current, node, *mapped))
                current = mapped[0]
                continue
            inner = self._inner_vmap_hop(node) if through_vmaps else None
            if inner is None:
                return None
            hops.append((current, *inner))
            current = inner[1]
        return (start[1], hops) if current is home else None

    def _lax_map_hop(self, node: ast.AST) -> tuple[ast.AST, int] | None:
        """(f, bound) for a chain step `node` = `jax.lax.map(f, xs)` or `jax.lax.map(f, xs, batch_size=k)`
        (`jaxapi.LAX_MAP_NAMES`): `f` gets each slice of `xs` along its leading axis, a value that still comes
        from `xs` (`_passed` reads the operand). Measured on jax 0.10.2 (safety/measurements/lax_map_hop.py;
        fuzz seed 420293): a shard_map body closing over a value computed from that slice, under a plain vmap
        over an input committed to the Explicit mesh, fails as with a plain call there (`Closing over inputs
        to shard_map`), in both forms; on an Auto mesh it runs. None for any other step."""
        return self.callee(node.args[0]) if self._is_lax_map(node) else None

    def _is_lax_map(self, node: ast.AST) -> bool:
        """Whether `node` is `jax.lax.map(f, xs)`, with `batch_size=k` or not (no other argument)."""
        return (
            isinstance(node, ast.Call)
            and len(node.args) == 2
            and all(k.arg == "batch_size" for k in node.keywords)
            and self._qualname(node.func) in jaxapi.LAX_MAP_NAMES
        )

    def _passed(self, call: ast.Call) -> tuple[list[ast.expr], bool]:
        """The positional operands a chain step `call` passes to its callee's parameters, in order, and
        whether it passes any by keyword (or by `*`): `jax.lax.map(f, xs, batch_size=k)` passes `xs` alone."""
        if self._is_lax_map(call):
            return call.args[1:], False
        return call.args, bool(call.keywords) or any(isinstance(a, ast.Starred) for a in call.args)

    def _inner_vmap_hop(self, node: ast.AST):
        """(application, f, bound) for a chain step `node` = `jax.vmap(f, in_axes)` applied at once to
        positional operands (`vmap_operands.applied_vmap`); None for any other step."""
        if not isinstance(node, ast.Call):
            return None
        applied = applied_vmap(self.ix, node, self._qualname(node.func), self.callee)
        return applied[:3] if applied is not None else None

    def sources_through(self, hops, home: ast.AST, name: str) -> tuple[int, ...] | None:
        """The positional arguments of the vmap's call that local `name` of `home` comes from, back through
        plain positional calls (`hops`, from `plain_hops`), by index; None when any step is not known
        (`untraced_step` says which). A bound `self` is the instance, not a value of the call: it is left out."""
        return self._trace_sources(hops, home, name)[0]

    def untraced_step(self, hops, home: ast.AST, name: str) -> tuple[str, ast.AST | None]:
        """Where `sources_through` stops for local `name` of `home` (it returned None), in words: (why, call)
        where call is the call of the way it stopped at (None when it stopped at `name` itself, in `home`, or
        before the way: `hops` None)."""
        _, why, call = self._trace_sources(hops, home, name)
        return why, call

    def _trace_sources(self, hops, home: ast.AST, name: str) -> tuple[tuple[int, ...] | None, str, ast.AST | None]:
        """One walk for both questions above, back from `home` along `hops`: (the vmap call's argument indices,
        "", None) when every step is known, else (None, why, the call it stopped at or None)."""
        if hops is None:
            return None, "the way from the vmapped function to it is not a chain of plain calls of project functions", None
        start_bound, steps = hops
        indices = self._param_sources(home, name)
        if indices is None:
            return None, f"`{name}` is not computed from the parameters of the function defining the shard_map body", None
        for caller, call, _callee, bound in reversed(steps):
            operands, by_keyword = self._passed(call)
            if by_keyword:
                return None, "a call on the way passes its arguments by keyword or `*`", call
            wanted = [i - bound for i in indices if i >= bound]
            if any(i >= len(operands) for i in wanted):
                return None, "a call on the way leaves the parameter to its default", call
            found: set[int] = set()
            for i in wanted:
                for n in (n.id for n in ast.walk(operands[i]) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)):
                    sources = self._param_sources(caller, n)
                    if sources is None:
                        return None, f"the call on the way passes `{n}`, not computed from its caller's parameters", call
                    found |= set(sources)
            if not found:
                return None, "a call on the way passes a value not computed from its caller's parameters", call
            indices = tuple(sorted(found))
        from_call = tuple(i - start_bound for i in indices if i >= start_bound)
        if not from_call:
            return None, "it comes only from a bound `self`, not from a value of the vmap's call", None
        return from_call, "", None

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

    def unbatched_operands(
        self, fun: ast.AST, in_axes: ast.AST | None, reached: ReachedSite, body: ast.AST | None,
        inner_batches: bool = True, bound: int = 0,
    ) -> set[str]:
        """The parameters of the shard_map `body` whose operands the spmd vmap does not batch (past its `bound`
        leading parameters, which the operands do not fill: a bound method's `self`).

        For a shard_map applied where it is built (`shard_map(body, ...)(a, b)`, also through
        `jax.jit(shard_map(body, ...))(a, b)`), and for a body decorated with
        it (`@partial(jax.shard_map, ...)` over `def body(a, b)`) when every read of the body's name is a call
        of it in the function the vmap's chain reaches it from (fuzz seed 4715); positional operands only. An
        operand is unbatched when it mentions no batched name of the function that applies it; with several
        calls, at every one of them. `inner_batches` False: an operand only an inner vmap on the chain maps
        (not the spmd vmap) is not counted as batched (`batched_walk`).
        """
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return set()
        applications = self._applications(reached, body)
        params = [a.arg for a in [*body.args.posonlyargs, *body.args.args]][bound:]
        if not applications or body.args.vararg:
            return set()
        home = self.ix.enclosing_function(applications[0])
        # A jitted function on the way keeps unbatched operands unbatched (measured: fuzz seed 3811, a psum of
        # an unbatched operand in a shard_map applied by a @jax.jit function runs and matches).
        walk = self.batched_walk(fun, in_axes, reached, home, inner_batches=inner_batches)
        if walk is None:
            return set()
        batched = walk[0]
        unbatched = set(params)
        for application in applications:
            if application.keywords or any(isinstance(a, ast.Starred) for a in application.args):
                return set()
            if len(params) != len(application.args) or self.ix.enclosing_function(application) is not home:
                return set()
            unbatched &= {p for p, arg in zip(params, application.args) if not mentions(arg, batched, self.ix.parent, self._qualname)}
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


def _unmapped(entry: ast.AST) -> bool:
    """Whether an `in_axes` entry maps nothing: None, or a tuple, list or dict display (a pytree prefix) whose
    leaves are all None (`{"scale": None}`, `(None, None)`)."""
    if isinstance(entry, ast.Constant):
        return entry.value is None
    if isinstance(entry, ast.Dict):
        return bool(entry.values) and None not in entry.keys and all(_unmapped(v) for v in entry.values)
    if isinstance(entry, (ast.Tuple, ast.List)):
        return bool(entry.elts) and all(_unmapped(e) for e in entry.elts)
    return False


class Keys(NamedTuple):
    """The keys of an `in_axes` dict display: those it maps (an entry not `_unmapped`) and those it does not."""

    mapped: frozenset[str]
    unmapped: frozenset[str]


def dict_entry_keys(entry: ast.AST) -> Keys | None:
    """The keys of an `in_axes` dict display, mapped and not, when every key is a string constant; None for any
    other entry."""
    if not isinstance(entry, ast.Dict) or not entry.keys:
        return None
    if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in entry.keys):
        return None
    pairs = [(k.value, _unmapped(v)) for k, v in zip(entry.keys, entry.values)]  # type: ignore[union-attr]
    return Keys(frozenset(k for k, off in pairs if not off), frozenset(k for k, off in pairs if off))


def mentions(expr: ast.AST, names: set[str], parents: dict[int, ast.AST], qualname=None) -> bool:
    """True when `expr` reads one of `names` as a value (a static read such as `x.shape[0]` does not count)."""
    return bool(dynamic_names(expr, parents, qualname) & names)


# Keywords that make a field of a pytree class static (aux data, not a leaf the vmap batches): flax's
# `struct.field(pytree_node=False)`, equinox's `field(static=True)`, `register_dataclass(meta_fields=...)`.
_STATIC_FIELD_WORDS = frozenset({"static", "pytree_node", "meta_fields"})


def _may_hold_static_fields(cls: ast.ClassDef) -> bool:
    """Whether the class may hold a field its pytree flattening leaves static (not batched by a vmap over an
    instance): a keyword or dict key of `_STATIC_FIELD_WORDS` in the class or its decorators, or its own
    `tree_flatten` (what it returns as aux data is not read). A vmap over an instance batches every leaf, so
    without these every field read off `self` is batched; with them, which ones are is not read, and `self`
    is not counted as batched (as before breaker4's p06)."""
    for node in ast.walk(cls):
        if isinstance(node, ast.keyword) and node.arg in _STATIC_FIELD_WORDS:
            return True
        if isinstance(node, ast.Constant) and node.value in _STATIC_FIELD_WORDS:
            return True
        if isinstance(node, ast.FunctionDef) and node.name == "tree_flatten":
            return True
    return False
