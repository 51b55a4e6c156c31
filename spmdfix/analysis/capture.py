"""The capture hazard (SPMD003): a shard_map body that closes over a value the spmd vmap batches.

JAX 0.10.2 fails on such a closure although no spec collides (an internal AssertionError with
check_vma=True, a lowering error with check_vma=False), and with `in_specs=()` it runs and silently returns
a result too large by the spmd axis size (docs/jax-behaviour.md, H5; JAX issues 23476, 17874). Passing
the value in as an explicit operand with in_spec `P()` runs correctly, except when the body keeps an inner
`jax.vmap` under check_vma=True.

This module walks the body for the names it closes over: batched ones (which names are batched is
`analysis.batched`), and, for an all-replicated body, non-scalar arrays built outside it. Where
lift-captures edits is `analysis.lift`.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import TYPE_CHECKING

from spmdfix import jaxapi
from spmdfix.analysis.calls import argument, returns
from spmdfix.analysis.batched import BatchedValues
from spmdfix.analysis.facts import Capture, UnreadValue  # (defined with the other facts; imported from here too)
from spmdfix.analysis.bindings import BindingKind, imported_module
from spmdfix.analysis.follow import ARRAY_VALUE, Follow
from spmdfix.analysis.hazards import calls_stand, input_committed
from spmdfix.analysis.kinds import AxisType, CaptureKind, UnreadKind
from spmdfix.analysis.lost_places import builtin_name
from spmdfix.analysis.meshes import resolve_mesh
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.placement import PlacementAnalysis
from spmdfix.analysis.static import in_static_context
from spmdfix.analysis.uses import short
from spmdfix.model import Span
from spmdfix.paths import relpath
from spmdfix.perf import frozen

if TYPE_CHECKING:
    from spmdfix.analysis.facts import VmapCalls
    from spmdfix.analysis.values import MeshInfo
    from spmdfix.analysis.reach import ReachedSite

_ARRAY_MODULES = frozenset({"numpy", "jax.numpy"})
# Constructors whose result is an array of rank >= 1 for the arguments code passes them in practice
# (`array`/`asarray` only of a list or tuple display or of another such array).
_ARRAY_CONSTRUCTORS = frozenset(
    "array asarray arange linspace logspace geomspace ones zeros full eye identity tile stack concatenate "
    "hstack vstack ones_like zeros_like full_like".split()
)
# `jax.random` samplers with their `shape` argument's position: a non-empty shape display builds an array of
# rank >= 1, closed over as the constructors above are (measured on jax 0.10.2, normal and uniform, at module
# level and in the vmapped function with an unbatched key: `ManualAxisType` with check_vma=True, as
# `np.linspace`; safety/measurements/open_items_issue22_kind9.py, part C).
_RANDOM_SHAPE_POSITION = {"jax.random.normal": 1, "jax.random.uniform": 1}
_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "std", "var", "any", "all"})
# `numpy` / `jax.numpy` functions whose result is no array (`CaptureAnalysis._maybe_array`); the dtypes, whose
# result is a scalar of a number (`jnp.float32(1.5)`) and an array of an array; `array` / `asarray`, a scalar of a
# number and an array of anything else
_NOT_ARRAY_RESULTS = frozenset(
    "shape ndim size dtype result_type finfo iinfo issubdtype isdtype can_cast promote_types isscalar iterable".split()
)
_DTYPES = frozenset(
    "float16 float32 float64 bfloat16 int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool_ complex64 complex128".split()
)
_ARRAY_METHODS = frozenset({"reshape", "astype", "transpose", "ravel", "flatten", "copy"})


# `jax.lax` functions whose result `_block_path` does not take as varying with the block when an argument does:
# collectives and point-to-point transfers beside `jaxapi.COLLECTIVE_AXIS_POSITION`'s, and control flow (a
# function applied to the value, not read)
_NOT_BLOCKWISE_LAX = frozenset(
    f"jax.lax.{name}"
    for name in (
        "pcast", "psend", "precv", "ragged_all_to_all", "axis_size", "platform_dependent", "cond", "switch",
        "while_loop", "fori_loop", "scan", "map", "associative_scan", "custom_root", "custom_linear_solve",
    )
)


class CaptureAnalysis:
    """Finds captured batched values for shard_map sites of one module (its `ModuleModel`). Pure."""

    def __init__(self, model: ModuleModel, batched: BatchedValues) -> None:
        self.model = model
        self.ix = model.ix
        self.ev = model.ev
        self.batched = batched
        self.placements = PlacementAnalysis(model)  # (the mesh `jax.set_mesh` installs where an array is made)

    def span(self, node: ast.AST) -> Span:
        return self.ix.lines.span_of_ast(node)

    def _qualname(self, expr: ast.expr) -> str | None:
        """The qualified name `expr` resolves to where it is written (static reads such as `jnp.shape`)."""
        return self.ix.qualname(expr, self.ix.scope_at(expr))

    def captures(
        self, fun: ast.AST, in_axes: ast.AST | None, reached: ReachedSite, body: ast.AST | None,
        vmap: ast.AST | None = None, wrappers: list[tuple[str, ast.Call]] = (), mesh: MeshInfo | None = None,
        placed: bool = False, calls: VmapCalls | None = None,
    ) -> tuple[Capture, ...]:
        """The captures of `capture_facts`, without its unread inputs."""
        return self.capture_facts(fun, in_axes, reached, body, vmap, wrappers, mesh, placed, calls)[0]

    def capture_facts(
        self, fun: ast.AST, in_axes: ast.AST | None, reached: ReachedSite, body: ast.AST | None,
        vmap: ast.AST | None = None, wrappers: list[tuple[str, ast.Call]] = (), mesh: MeshInfo | None = None,
        placed: bool = False, calls: VmapCalls | None = None, home: ast.AST | None = None,
        through_vmaps: bool = False, calls_elsewhere: bool = False,
    ) -> tuple[tuple[Capture, ...], tuple[UnreadValue, ...]]:
        """Batched values `body` closes over, when the vmapped function `fun` reaches it via `reached`; `vmap`
        is the vmap call or decorator (a jit decorator of `fun` stacked above it is outside the vmap). A value
        bound to the body by a parameter default (`lambda b, s=s: b * s`) or by `functools.partial` among
        `wrappers` (`partial(body, s=s)`, the wrapper calls `shard_maps.unwrap_body` met) counts as closed
        over: JAX fails on it as on a closure (measured: safety/measurements/capture_default_partial.py).

        None when the way from the vmap is staged (`batched.BatchedValues.batched_walk`: a jit, checkpoint or
        lax loop or conditional on it) and the shard_map's `mesh` is known to have only Auto axes: JAX then
        traces the body into a jaxpr, where what it closes over becomes an operand, and the capture runs and
        matches, eager and under jit, check_vma True and False (measured on jax 0.10.2:
        safety/measurements/capture_under_staging_hof.py; fuzz seed 70093, `jax.lax.map(block, x)`). On a mesh
        of Explicit axes with the batch `placed` on the spmd axes by every call (all followed) the capture does
        what it does unstaged (the same measurement; fuzz seed 30018: all-replicated specs fail with `context
        mesh ... should match the aval mesh`). With the batch not proven placed there, what decides is where
        the captured value's inputs are: one a call of the vmap (`calls`) commits to that mesh with no mesh
        axis at its batch dimension (`P(None, ...)`, `P()`) makes JAX refuse the capture, `NotImplementedError:
        Closing over inputs to shard_map where the input is sharded on Explicit axes`, eager and under jit,
        check_vma True and False, any specs, through `@jax.jit`, `jax.jit(shard_map(...))`, `jax.checkpoint`
        and `jax.lax.map` alike; from unplaced inputs it runs (measured on jax 0.10.2:
        safety/measurements/capture_staged_explicit_placement.py; fuzz seed 70430). Such a capture is kept
        with `off_spmd` set; one whose inputs are not known is left out, as before. A mesh of mixed or unknown
        axis types keeps every capture.

        Returns (captures, unread): unread holds, for a capture left out there because its inputs are not
        traced back to the vmap's arguments (`Capture.params` None: a call spmdfix does not evaluate, a
        parameter no followed call passes, an attribute), an `UnreadValue` of kind CAPTURE_INPUT at its use:
        whether JAX refuses it depends on a placement spmdfix does not read (issue 22: an SPMD910 record, not
        silence). Only with the vmap's `calls` given (an spmd vmap: SPMD003 is its rule).

        `home`: the function whose values count as closed over (default: the one defining `body`); for the body
        of a shard_map nested in the reached one's body, the function defining the reached body
        (`ReachedAnalysis`). `through_vmaps`: a plain vmap whose calls place no dimension an inner `jax.vmap`
        on the way maps on a mesh axis (`hazards.inner_dimensions_unplaced`): a staged capture's inputs known
        only back through that inner vmap (`Capture.through_vmaps`) decide it as its own would (measured:
        safety/measurements/plain_vmap_inner_capture_staged.py, part 1, `jax.jit(shard_map(...))` under the
        inner vmap; fuzz seed 410072). `calls_elsewhere`: the spmd vmap is in another module (the reading of a
        function it reaches there, `analyzer._reached_under`), whose calls, which decide a capture staged on an
        Explicit mesh (the batch placed on the spmd axes, an input committed off them), are not read here: each
        such capture is an SPMD910 record (`_placed_elsewhere`), never dropped (fuzz/project.py seed 590048,
        `jax.jit(jax.shard_map(...))` in model.py under train.py's spmd vmap over a batch placed on its axis:
        silent once the call's batched parameters were read)."""
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return self._partial_bound_only(fun, in_axes, reached, vmap, wrappers, mesh, placed)
        off_spmd = False
        if self.jit_wrapped(reached.site.node, body) and not _explicit_placed(mesh, placed):
            if not _explicit(mesh):
                return (), ()
            off_spmd = True
        home = self.ix.enclosing_function(body) if home is None else home
        self.batched.static_skipped = False
        batched = self._batched(fun, in_axes, reached, home, vmap, mesh, placed)
        untraced: tuple[UnreadValue, ...] = ()
        if batched is None and home is not None and self.batched.batched_walk(fun, in_axes, reached, home, vmap) is None:
            untraced = self._untraced_closure(body, home, wrappers)
        elif batched is not None and self.batched.static_skipped:
            untraced = self._static_self_uses(fun, in_axes, reached, home, vmap, body, batched.names)
        whole = batched  # (values a `partial` binds are read whole: `partial(body, p)` binds every leaf)
        if batched is not None and self.batched.keyed_of(fun, in_axes):
            batched, by_key = self._by_key(fun, in_axes, reached, home, vmap, mesh, placed, body, batched)
            untraced += by_key
        found: tuple[Capture, ...] = ()
        if batched is not None:
            off_spmd = off_spmd or batched.off_spmd
            found = self._free_uses(body, home, batched.names)
            found += self._bound_uses(body, body.args, [], home, batched.names, {c.name for c in found})
            found += self._helper_uses(body, home, batched.names, {c.name for c in found})
        for qname, call in wrappers:
            # `partial(body, s=s)`: its arguments are read where the partial is built, maybe not where the
            # body is defined (a module-level def bound inside the vmapped function).
            if qname not in jaxapi.PARTIAL_NAMES:
                continue
            where = self.ix.enclosing_function(call)
            values = whole if where is home else self._batched(fun, in_axes, reached, where, vmap, mesh, placed)
            if values is not None:
                off_spmd = off_spmd or values.off_spmd
                exprs = [*call.args[1:], *(k.value for k in call.keywords)]
                found += self._bound_uses(body, None, exprs, where, values.names, {c.name for c in found})
        if off_spmd and calls is not None:
            found += self._unmapped_uses(fun, reached, body, home, calls, mesh, {c.name for c in found}, False, wrappers)
        elif calls is not None and _explicit_placed(mesh, placed):
            # the batch placed on the spmd axes: a committed unbatched argument fails too, staged or not
            # (`context mesh ... should match the aval mesh`; the rule decides where it runs)
            found += self._unmapped_uses(fun, reached, body, home, calls, mesh, {c.name for c in found}, True, wrappers)
        if not found:
            return (), untraced
        found = tuple(sorted(found, key=lambda c: c.use.start))
        hops = self.batched.plain_hops(fun, home, reached)
        if hops is not None:
            found = tuple(replace(c, params=self.batched.sources_through(hops, home, c.name)) for c in found)
        if any(c.params is None for c in found):
            inner = self.batched.plain_hops(fun, home, reached, through_vmaps=True)
            if inner is not None:
                found = tuple(
                    replace(c, through_vmaps=self.batched.sources_through(inner, home, c.name)) if c.params is None else c
                    for c in found
                )
        unread: tuple[UnreadValue, ...] = ()
        if off_spmd:
            if calls is None and calls_elsewhere:
                unread = tuple(self._placed_elsewhere(c) for c in found)
            if calls is not None:
                unread = tuple(
                    self._unread_input(c, home, hops) for c in found
                    if c.params is None and not (through_vmaps and c.through_vmaps is not None)
                )
            found = tuple(
                replace(c, off_spmd=True) for c in found if _committed_off_spmd(c, calls, mesh, through_vmaps)
            )
        return tuple(c if c.helper else self._with_reads(c, home, body, wrappers) for c in found), unread + untraced

    def _partial_bound_only(
        self, fun, in_axes, reached: ReachedSite, vmap, wrappers, mesh: MeshInfo | None, placed: bool,
    ) -> tuple[tuple[Capture, ...], tuple[UnreadValue, ...]]:
        """The batched values a `functools.partial` among `wrappers` binds to a body that is no function of this
        module (`partial(ops.body, s=s)`, `ops` another module of the project): JAX fails on them as on a
        closure whatever the body does with them (measured for a body of this module:
        safety/measurements/capture_default_partial.py; for one of another module the same, golden
        lift-captures' neighbour refuse/tree_capture_partial_of_other_module_body). Read where the partial is
        built, as `capture_facts` reads a partial there; the body itself is not read (`Capture.scalar` from the
        value, no `mixed_only` exemption). Not for a way staged before the body (`_batched` None) nor a body
        `jax.jit` wraps (its operands are not tracers of the vmap). A way staged on an Explicit mesh (`off_spmd`),
        where the outcome depends on placements `capture_facts` reads with the body, gives SPMD910 records at
        the bound values instead. Returns (captures, records)."""
        if self.jit_wrapped(reached.site.node, None):
            return (), ()
        found: tuple[Capture, ...] = ()
        unread: list[UnreadValue] = []
        for qname, call in wrappers:
            if qname not in jaxapi.PARTIAL_NAMES:
                continue
            where = self.ix.enclosing_function(call)
            values = self._batched(fun, in_axes, reached, where, vmap, mesh, placed) if where is not None else None
            if values is None:
                continue
            exprs = [*call.args[1:], *(k.value for k in call.keywords)]
            bound = self._bound_uses(call, None, exprs, where, values.names, {c.name for c in found})
            if values.off_spmd:
                unread += [
                    UnreadValue(UnreadKind.CAPTURE_INPUT, c.use, (
                        f"`{c.name}`, which `functools.partial` binds to a shard_map body of another module, holds a "
                        "value the vmap batches on a way staged on an Explicit mesh: whether JAX refuses it depends "
                        "on placements not read for a body of another module (SPMD003)"
                    ))
                    for c in bound
                ]
                continue
            found += tuple(replace(c, scalar=self._reduced_local(where, c.name)) for c in bound)
        return tuple(sorted(found, key=lambda c: c.use.start)), tuple(unread)

    def _helper_uses(self, body: ast.AST, home: ast.AST, batched: set[str], seen: set[str]) -> tuple[Capture, ...]:
        """Batched values of `home` read in the functions of `home` the body calls, by name, directly or through
        one another (`def gate(v): return jax.nn.sigmoid(v * scale)` beside `def body(b): return b * gate(b)`):
        the body runs them, so JAX fails on such a read as on one in the body (breaker6 r45: `AssertionError:
        ManualAxisType(...)`, spmdfix was silent). Names in `seen` are left out; each capture's `helper` names the function reading it."""
        found: dict[str, tuple[Span, str]] = {}
        todo, visited = [body], {id(body)}
        while todo:
            fn = todo.pop()
            for call in self.ix.calls_in(fn):
                if not isinstance(call.func, ast.Name):
                    continue
                binding = self.ix.single_binding(call.func.id, self.ix.scope_at(call))
                if binding is None or binding.kind is not BindingKind.DEF or id(binding.node) in visited:
                    continue
                helper = binding.node
                if not self._inside(helper, home) or self._inside(helper, body) or helper is home:
                    continue
                visited.add(id(helper))
                todo.append(helper)
                for node in _walk_body(helper):
                    if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id not in batched:
                        continue
                    if node.id in seen or node.id in found or in_static_context(node, self.ix.parent, self._qualname):
                        continue
                    bindings = self.ix.lookup(node.id, self.ix.scope_at(node))
                    if bindings and bindings[0].scope.node is home:
                        found[node.id] = (self.span(node), helper.name)
        return tuple(
            Capture(n, s, CaptureKind.BATCHED, self._row(s), helper=h)
            for n, (s, h) in sorted(found.items(), key=lambda kv: kv[1][0])
        )

    def _static_self_uses(self, fun, in_axes, reached: ReachedSite, home, vmap, body, names: set[str]) -> tuple[UnreadValue, ...]:
        """The SPMD910 records of the values `body` closes over that are batched when the `self` of a class on
        the way that may hold static fields (`batched._may_hold_static_fields`: its own `tree_flatten`,
        `meta_fields`, `pytree_node=False`) is batched by its receiver, and not otherwise: which fields are
        leaves is not read, so whether the vmap batches them is not known (breaker6 r14: a
        `register_pytree_node_class` ensemble vmapped through `apply(m: Affine, x)`, its `__call__`'s body
        closing over `w = self.w`: JAX raised `AssertionError: ManualAxisType(...)`, spmdfix was silent)."""
        self.batched.static_self = True
        try:
            walk = self.batched.batched_walk(fun, in_axes, reached, home, vmap)
        finally:
            self.batched.static_self = False
        if walk is None:
            return ()
        maybe = [c for c in self._free_uses(body, home, walk[0] - names) if not self._static_reads_only(body, home, c.name)]
        return tuple(
            UnreadValue(
                UnreadKind.CAPTURE_INPUT, c.use,
                f"the shard_map body closes over `{c.name}`, read off an instance of a class whose pytree flattening "
                "may leave fields static (its own `tree_flatten`, `meta_fields`, `pytree_node=False`, `static=True`) "
                "which the vmap batches: whether this value is a batched leaf is not read; batched, it makes JAX "
                "fail (SPMD003)",
            )
            for c in maybe
        )

    def _by_key(
        self, fun, in_axes, reached: ReachedSite, home, vmap, mesh: MeshInfo | None, placed: bool, body, whole: _Batched
    ) -> tuple[_Batched, tuple[UnreadValue, ...]]:
        """(the batched names of `home` with each parameter the vmap maps in part through an `in_axes` dict
        (`batched.BatchedValues.keyed_params`) read by key: a local assigned a mapped key is batched, the
        parameter itself not; the SPMD910 records of what the body closes over that is batched only when such a
        parameter counts whole). JAX batches a value read off a mapped key and not one read off an unmapped key
        (safety/measurements/in_axes_dict_capture.py: the body reading `p["bias"]` of `{"scale": 0, "bias": None}`
        runs, `p["scale"]` fails); a whole-parameter reading made a finding of the first (breaker7 s19/s20).
        Such a parameter the body itself reads only by string keys (`p["bias"]`, no read in a function it calls) is
        read so: only unmapped keys, nothing batched; a mapped key among them, batched (`_keys_read`)."""
        self.batched.by_key = True
        try:
            precise = self._batched(fun, in_axes, reached, home, vmap, mesh, placed)
        finally:
            self.batched.by_key = False
        if precise is None:
            return whole, ()
        keyed = self.batched.keyed_of(fun, in_axes)
        start = self.batched.callee(fun)
        maybe, batched_keys, resolved = [], set(), set()
        for c in self._free_uses(body, home, whole.names - precise.names):
            keys = None
            if start is not None and home is start[0] and c.name in keyed:
                keys = self._keys_read(body, home, c.name)
                if keys is not None and self._helper_uses(body, home, {c.name}, set()):
                    keys = None
            if keys is not None and keys <= keyed[c.name].unmapped:
                resolved.add(c.name)
                continue  # (only unmapped keys: JAX runs it)
            if keys is not None and keys & keyed[c.name].mapped:
                resolved.add(c.name)
                batched_keys.add(c.name)
                continue
            maybe.append(c)
        if batched_keys:
            precise = _Batched(precise.names | batched_keys, precise.off_spmd)
        maybe += self._helper_uses(body, home, whole.names - precise.names, {c.name for c in maybe} | resolved)
        return precise, tuple(
            UnreadValue(
                UnreadKind.CAPTURE_INPUT, c.use,
                f"the shard_map body closes over `{c.name}`, which holds a value the vmap maps in part through an "
                "`in_axes` dict: which of its keys the body reads is not followed; a value of a mapped key makes "
                "JAX fail (SPMD003)",
            )
            for c in maybe
        )

    def _keys_read(self, body: ast.AST, home: ast.AST, name: str) -> frozenset[str] | None:
        """The string keys `body` reads off `name`, a name of `home`, when every read of it there is a subscript by
        a string constant (`p["bias"]`); None when it is read any other way."""
        keys = set()
        for node in _walk_body(body):
            if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
                continue
            bindings = self.ix.lookup(name, self.ix.scope_at(node))
            if not bindings or bindings[0].scope.node is not home:
                continue
            up = self.ix.parent.get(id(node))
            if not (
                isinstance(up, ast.Subscript) and up.value is node and isinstance(up.ctx, ast.Load)
                and isinstance(up.slice, ast.Constant) and isinstance(up.slice.value, str)
            ):
                return None
            keys.add(up.slice.value)
        return frozenset(keys)

    def _static_reads_only(self, body: ast.AST, home: ast.AST, name: str) -> bool:
        """Whether `name` is the `self` of the method `home` and every read of it in `body` is an attribute the
        class declares static (`_static_fields`): `self.factor` with `factor: float = field(metadata=dict(
        static=True))` is aux data, never a batched leaf (golden clean/capture_static_field_of_batched_pytree_module)."""
        owner = self.ix.parent.get(id(home))
        params = [*home.args.posonlyargs, *home.args.args] if isinstance(home, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        if not isinstance(owner, ast.ClassDef) or not params or params[0].arg != name:
            return False
        static = _static_fields(owner)
        for node in _walk_body(body):
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
                up = self.ix.parent.get(id(node))
                if not (isinstance(up, ast.Attribute) and up.value is node and up.attr in static):
                    return False
        return True

    def _untraced_closure(self, body: ast.AST, home: ast.AST, wrappers=()) -> tuple[UnreadValue, ...]:
        """The SPMD910 record of a body closing over names of `home` (its parameters, `self`, its locals) when the
        walk of batched values cannot follow the chain from the vmapped function to `home` (`batched_walk` None:
        a callee it does not resolve, such as an instance made by a factory and passed on): whether the vmap
        batches them is not read, and a batched one makes JAX fail (SPMD003). Silent before (breaker6 r11: an
        nnx ensemble made by an `nnx.vmap`-decorated factory, `forward(model, x)` under `nnx.vmap(...,
        spmd_axis_name='data')`, its `__call__`'s body closing over `self.scale`: JAX raised `AssertionError:
        ManualAxisType(...)`). Names read only statically (`x.shape[0]`) do not count. Values bound to the body
        where it is built count as closed over, as `_bound_uses` reads them for a walk that follows: its
        parameter defaults, and the arguments of a `functools.partial` among `wrappers` built in `home`
        (fuzz/project.py seed 520019: `jax.jit(jax.shard_map(partial(body, w=w), ...))` in another module
        under a plain vmap whose call commits `w` to the Explicit mesh was silent)."""
        names: dict[str, ast.Name] = {}
        bound: list[ast.AST] = []
        if isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            bound += [*body.args.defaults, *(d for d in body.args.kw_defaults if d is not None)]
        for qname, call in wrappers:
            if qname in jaxapi.PARTIAL_NAMES and self.ix.enclosing_function(call) is home:
                bound += [*call.args[1:], *(k.value for k in call.keywords)]
        for node in [*_walk_body(body), *(n for expr in bound for n in ast.walk(expr))]:
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id in names:
                continue
            if in_static_context(node, self.ix.parent, self._qualname):
                continue
            up = self.ix.parent.get(id(node))
            if isinstance(up, ast.Call) and up.func is node:
                continue  # a callable closed over and called (`fn(b)`): what it reads is the walk's, not a capture
            bindings = self.ix.lookup(node.id, self.ix.scope_at(node))
            if bindings and bindings[0].scope.node is home:
                names[node.id] = node
        if not names:
            return ()
        first = min(names.values(), key=lambda n: (n.lineno, n.col_offset))
        listed = ", ".join(f"`{n}`" for n in names)
        owner = f"`{home.name}`" if isinstance(home, (ast.FunctionDef, ast.AsyncFunctionDef)) else "the lambda around it"
        what = (
            f"the shard_map body closes over {listed} of {owner}, and the way from the vmapped function to {owner} "
            "is not followed by the walk of batched values: whether the vmap batches them is not known; a batched "
            "value closed over makes JAX fail (SPMD003)"
        )
        return (UnreadValue(UnreadKind.CAPTURE_INPUT, self.span(first), what),)

    def committed_uses(
        self, fun, reached: ReachedSite, body: ast.AST | None, calls: VmapCalls | None, mesh: MeshInfo | None,
        seen: set[str], home: ast.AST | None = None, wrappers: list[tuple[str, ast.Call]] = (),
    ) -> tuple[Capture, ...]:
        """Values `body` closes over that come from an argument the vmap does not map which a call commits to
        the shard_map's `mesh` (`Capture.committed`), for a plain vmap over an input placed on that Explicit
        mesh with the batch dimension on no mesh axis (`P(None, 'x')`). Measured on jax 0.10.2
        (safety/measurements/plain_vmap_placed_spellings.py, part 5; fuzz seed 310000's form): such a closure
        (the value, a slice, a scalar reduced from it; the argument placed `P()`, `P(None)`, `P('y')`) fails
        with `NotImplementedError: Closing over inputs to shard_map where the input is sharded on Explicit
        axes`, eager and under jit, check_vma True and False; unplaced it runs. Names in `seen` are left out.
        `home` and `wrappers` as for `capture_facts`."""
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or calls is None:
            return ()
        home = self.ix.enclosing_function(body) if home is None else home
        found = self._unmapped_uses(fun, reached, body, home, calls, mesh, seen, True, wrappers)
        return tuple(self._with_reads(c, home, body) for c in found)

    def _with_reads(self, capture: Capture, home: ast.AST, body: ast.AST, wrappers=()) -> Capture:
        """`capture` with what its value is (`Capture.scalar`) and how the body reads it (`Capture.mixed_only`,
        `Capture.mixed_blocks`: `_mixed_only`)."""
        met = self._mixed_only(body, capture, wrappers)
        return replace(
            capture, scalar=self._reduced_local(home, capture.name), mixed_only=met is not None,
            mixed_blocks=met or (),
        )

    def _unmapped_uses(
        self, fun, reached: ReachedSite, body: ast.AST, home: ast.AST | None, calls: VmapCalls,
        mesh: MeshInfo | None, seen: set[str], placed: bool = False, wrappers: list[tuple[str, ast.Call]] = (),
    ) -> tuple[Capture, ...]:
        """Values of `home` the body closes over that come (back through plain positional calls:
        `BatchedValues.sources_through`) from an argument the vmap does not map (`in_axes=None`) and that a
        call commits to the shard_map's `mesh` (`VmapCall.unmapped_mesh`, any spec), for a way staged on a
        mesh of Explicit axes with the batch not proven placed on the spmd axes (`capture_facts`). Measured
        on jax 0.10.2, JAX refuses such a closure, `Closing over inputs to shard_map where the input is
        sharded on Explicit axes`, through `@jax.jit`, `jax.jit(shard_map(...))`, `jax.checkpoint` and
        `jax.lax.map`, eager and under jit, check_vma True and False, the value itself or a scalar reduced
        from it (`w.sum()`); from an unplaced argument it runs and matches
        (safety/measurements/capture_staged_explicit_unbatched_arg.py). Names in `seen` are left out.

        With `placed` (every call places the batch on the spmd axes of an Explicit mesh, the way staged or not)
        such values are kept as `committed` captures instead: JAX fails on them with `For primitive mul, context
        mesh ... should match the aval mesh` under all-replicated specs or check_vma=False, eager and under jit,
        directly and through `@jax.jit`, `jax.jit(shard_map(...))`, `jax.checkpoint`, `jax.lax.map`; with
        check_vma=True and specs naming an axis besides the spmd ones a scalar reduced from it runs
        (safety/measurements/capture_staged_spmd_placed_unbatched_arg.py; the rule reads which).

        A value bound to the body where it is built counts as closed over, as for a batched one (`_bound_uses`:
        a parameter default, the arguments of a `functools.partial` among `wrappers` built in `home`; fuzz seed
        390348: `partial(body, w=w)` fails as the closure does, golden
        refuse/capture_spmd_placed_unmapped_arg_committed_partial).

        With `placed`, the way may also pass through an inner `jax.vmap(block, in_axes)(x, w)` applied at once:
        the committed argument fails the same whether the inner vmap maps it or passes it whole (measured:
        safety/measurements/unmapped_committed_inner_vmap.py; fuzz seed 460044, silent before)."""
        hops = self.batched.plain_hops(fun, home, reached)
        if hops is None and placed:
            hops = self.batched.plain_hops(fun, home, reached, through_vmaps=True)
        scope = self.ix.own_scope(home) if home is not None else None
        if hops is None or scope is None or mesh is None:
            return ()
        names = set(scope.bindings) - seen
        uses = self._free_uses(body, home, names)
        exprs = [
            e
            for qname, call in wrappers
            if qname in jaxapi.PARTIAL_NAMES and self.ix.enclosing_function(call) is home
            for e in (*call.args[1:], *(k.value for k in call.keywords))
        ]
        args = body.args if isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else None
        uses += self._bound_uses(body, args, exprs, home, names, {c.name for c in uses})
        out = []
        for capture in uses:
            params = self.batched.sources_through(hops, home, capture.name)
            committed = params is not None and any(
                i < len(call.unmapped_mesh) and call.unmapped_mesh[i] == mesh.span for call in calls.calls for i in params
            )
            if committed and placed:
                out.append(replace(capture, params=params, committed=True))
            elif committed:
                out.append(replace(capture, params=params, off_spmd=True, unmapped=True))
        return tuple(out)

    def _placed_elsewhere(self, capture: Capture) -> UnreadValue:
        """The SPMD910 record of a batched capture staged on an Explicit mesh whose outcome the calls of an spmd
        vmap in another module decide (`capture_facts`'s `calls_elsewhere`)."""
        what = (
            f"`{capture.name}`, which the shard_map body closes over through a staging function on an Explicit "
            "mesh, holds a value the vmap with `spmd_axis_name` (in another module) batches: whether JAX refuses "
            "the capture depends on where that vmap's calls place the batch and the inputs, which are not followed "
            "into this module (it fails with the batch placed on the spmd axes or an input committed to the mesh "
            "off them, SPMD003, and runs with neither placed)"
        )
        return UnreadValue(UnreadKind.CAPTURE_INPUT, capture.use, what)

    def _unread_input(self, capture: Capture, home: ast.AST | None, hops) -> UnreadValue:
        """The SPMD910 record of a staged capture on an Explicit mesh whose inputs are not traced back to the
        vmap's arguments (`capture_facts`): it names the capture, and where and why the trace from the
        vmapped function's parameters stopped (`BatchedValues.untraced_step`, with the line of the call it
        stopped at)."""
        if home is None:
            why = "the function defining the shard_map body is not known"
        else:
            why, call = self.batched.untraced_step(hops, home, capture.name)
            if call is not None:
                why += f" (`{short(call.func)}(...)`, line {call.lineno})"
        what = (
            f"the placement of the input of `{capture.name}`, which the shard_map body closes over through a "
            f"staging function on an Explicit mesh, is not known: it is not traced back to the vmap's arguments, "
            f"{why}; JAX refuses the capture (`Closing over inputs to shard_map`) when that input is committed to "
            "the mesh off the spmd axes, and runs it when it is not placed"
        )
        return UnreadValue(UnreadKind.CAPTURE_INPUT, capture.use, what)

    def _batched(
        self, fun, in_axes, reached: ReachedSite, home, vmap, mesh: MeshInfo | None, placed: bool
    ) -> _Batched | None:
        """The batched names of `home` (`captures`); None when the chain cannot be followed there, or the way
        is staged on a mesh of Auto axes only (the capture runs). Staged on a mesh of Explicit axes with the
        batch not proven `placed` on the spmd axes, the names come with `off_spmd` set: only a capture whose
        input is committed to the mesh off the spmd axes fails there."""
        walk = self.batched.batched_walk(fun, in_axes, reached, home, vmap)
        if walk is None:
            return None
        types = mesh.axis_types if mesh is not None else AxisType.UNKNOWN
        if walk[1] and types is AxisType.AUTO:
            return None
        return _Batched(walk[0], walk[1] and types is AxisType.EXPLICIT and not placed)

    def _mixed_only(self, body: ast.AST, capture: Capture, wrappers=()) -> tuple[tuple[int, ...], ...] | None:
        """For each read of `capture` in `body`, the positions (among the body's positional parameters, which
        are the shard_map's operands) of the blocks the other operand varies with, when every read is an operand
        of `*`, `+`, `-` or `/` (or another measured step: `_mixed_partner`) whose other operand varies with one
        of the body's blocks (`_block_params`: `b *
        m`, `jnp.sin(b) * w`, `b * w + w`, `((b * 2.0) * w) * m`; not `jnp.exp(m) * b`, `m * 2.0 * b`,
        `b.shape[0] * m`, `jax.lax.psum(b, 'x') * m`); None otherwise (`Capture.mixed_only`,
        `Capture.mixed_blocks`). A capture bound as a parameter default (`def body(b, s=w)`) or by a `partial`
        keyword among `wrappers` (`partial(body, s=w)`) is read through that parameter. Measured to decide, for a
        value captured under a partial-manual shard_map with check_vma=True
        (safety/measurements/plain_vmap_unplaced_batch_scalar_partial_manual.py, parts 2-3): JAX inserts a
        `pvary` on the capture where it meets a value varying over the manual axes, which brings it into the
        shard_map's context mesh; any other operation on it first fails (`For primitive exp, context mesh ...
        should match the aval mesh`). Which blocks vary over the manual axes is the in_specs' to say (the rule
        reads them): a read meeting only a block under `P()` fails, one meeting a product of such a block and
        one under `P('x')` runs (safety/measurements/partial_manual_capture_replicated_operand.py)."""
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return None
        args = body.args
        positional = [*args.posonlyargs, *args.args]
        partials = [call for qname, call in wrappers if qname in jaxapi.PARTIAL_NAMES]
        if any(len(call.args) > 1 or any(k.arg is None for k in call.keywords) for call in partials):
            return None  # a positional (or unpacked) argument bound by a partial: not followed
        keywords = [k for call in partials for k in call.keywords]
        # the blocks: positional parameters without a default that no partial binds (those bind values), each at
        # its position among the operands
        bound_names = {k.arg for k in keywords}
        blocks = {
            a.arg: i for i, a in enumerate(positional[: len(positional) - len(args.defaults)]) if a.arg not in bound_names
        }
        params = set(blocks)
        defaults = [
            *((a.arg, d) for a, d in zip(positional[len(positional) - len(args.defaults) :], args.defaults)),
            *((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None),
            *((k.arg, k.value) for k in keywords),
        ]
        bound = [arg for arg, d in defaults if self.span(d).contains(capture.use)]
        if len(bound) == 1:
            name = bound[0]  # bound as a parameter default or a partial keyword: read through that parameter
        elif not bound and self.span(body).contains(capture.use):
            name = capture.name  # closed over: read by its own name
        else:
            return None
        # the reads where the body runs: a lambda's expression, a def's statements (not its defaults)
        roots = [body.body] if isinstance(body, ast.Lambda) else body.body
        nodes = (n for root in roots for n in ast.walk(root))
        loads = [n for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
        if not loads or not params or name in params:
            return None
        scope = self.ix.own_scope(body)
        met = []
        for load in loads:
            other = self._mixed_partner(load)
            if other is None:
                return None
            names = self._block_params(other, params, scope, frozenset())
            if not names:
                return None
            met.append(tuple(sorted(blocks[n] for n in names)))
        return tuple(met)

    def _mixed_partner(self, load: ast.Name) -> ast.AST | None:
        """The other operand of the binary step a read of a capture is an operand of, for the steps measured to
        bring it into a partial-manual body's context mesh when that operand varies with a manual block
        (safety/measurements/plain_vmap_unplaced_batch_scalar_partial_manual.py, part 3, every capture source):
        `*`, `+`, `-`, `/` either way; the exponent of `**` (`jnp.abs(b) ** w`), the right operand of `@` (`b @
        w + b`), the second argument of `jnp.maximum` (`jnp.maximum(b, w)`); None for any other read (`jnp.where(b
        > 0, w, 0.0)` fails for `w = x[:4]`: `ShardingTypeError: Mesh for all inputs should be equal`)."""
        parent = self.ix.parent.get(id(load))
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Mult, ast.Add, ast.Sub, ast.Div)):
            return parent.right if parent.left is load else parent.left
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Pow, ast.MatMult)) and parent.right is load:
            return parent.left
        if (
            isinstance(parent, ast.Call) and len(parent.args) == 2 and not parent.keywords and parent.args[1] is load
            and self._qualname(parent.func) == "jax.numpy.maximum"
        ):
            return parent.args[0]
        return None

    def _meets_block(self, expr: ast.AST, params: set[str], scope, following: frozenset[str]) -> bool:
        """`expr` varies with one of the shard_map body's blocks (`_block_params`)."""
        return bool(self._block_params(expr, params, scope, following))

    def _block_params(self, expr: ast.AST, params: set[str], scope, following: frozenset[str]) -> frozenset[str]:
        """The parameters of the body (among `params`) whose blocks `expr` varies with: it reads, as a value (not
        a static read such as `b.shape[0]`), such a parameter, or a local of the body every binding of which is
        such a parameter or an assignment of such a value (`b = jax.lax.dynamic_slice_in_dim(b, 0, n)`), through
        arithmetic, comparisons, indexing, and calls of `jax.numpy` functions or of `jax.lax` functions other
        than collectives (`_block_path`). A collective's result (`jax.lax.psum(b, 'x')`) no longer varies over
        the manual axis: measured to fail as an operand with a capture (parts 3 of
        safety/measurements/plain_vmap_unplaced_batch_scalar_partial_manual.py). A name being followed (in
        `following`) counts as varying with every block: its other bindings decide (`_varying_params`)."""
        found: set[str] = set()
        for node in ast.walk(expr):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
                continue
            if node.id in following:
                carried = frozenset(params)
            else:
                carried = self._varying_params(node.id, params, scope, following | {node.id})
            if carried and not in_static_context(node, self.ix.parent, self._qualname) and self._block_path(node, expr):
                found |= carried
        return frozenset(found)

    def _varying_params(self, name: str, params: set[str], scope, following: frozenset[str]) -> frozenset[str]:
        """The blocks `name`, read in the body whose own scope is `scope`, varies with whatever binding reached
        the read: those every one of its bindings there carries (a parameter in `params` carries its own block,
        an assignment the blocks its value varies with, `_block_params`); empty when a binding carries none or is
        of another kind."""
        bindings = scope.bindings.get(name) if scope is not None else None
        if not bindings:
            return frozenset()
        carried = frozenset(params)
        for binding in bindings:
            if binding.kind is BindingKind.PARAM and name in params:
                carried &= {name}
            elif binding.kind is BindingKind.ASSIGN:
                carried &= self._block_params(binding.node, params, scope, following)
            else:
                return frozenset()
            if not carried:
                return carried
        return carried

    def _block_path(self, node: ast.AST, top: ast.AST) -> bool:
        """Every expression from `node` up to `top` passes its value on element by element or by a local
        reduction (`_meets_block`)."""
        current = node
        while current is not top:
            parent = self.ix.parent.get(id(current))
            passes = isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare)) or (
                isinstance(parent, ast.Subscript) and parent.value is current
            )
            if not passes and isinstance(parent, ast.Call) and current in parent.args:
                qname = self._qualname(parent.func) or ""
                lax = qname.startswith("jax.lax.") and qname not in jaxapi.COLLECTIVE_AXIS_POSITION
                passes = qname.startswith("jax.numpy.") or lax and qname not in _NOT_BLOCKWISE_LAX
                passes = passes or self._blockwise_inner_vmap(parent)
            if not passes:
                return False
            current = parent
        return True

    def _blockwise_inner_vmap(self, call: ast.Call) -> bool:
        """`call` is `jax.vmap(lambda r: ...)(v)` (one argument, `jax.vmap` with the lambda alone) whose lambda's
        expression varies with `r` as `_meets_block` reads it: its result varies with the block when `v` does.
        Measured (safety/measurements/plain_vmap_unplaced_batch_scalar_partial_manual.py, part 3): `jax.vmap(lambda
        r: r * 2.0)(b) * w` and `jax.vmap(lambda r: r + jax.lax.psum(r, 'x'))(b) * w` run; `jax.vmap(lambda r:
        jax.lax.psum(r, 'x'))(b) * w` fails."""
        inner = call.func
        if len(call.args) != 1 or call.keywords or not isinstance(inner, ast.Call):
            return False
        if self._qualname(inner.func) not in jaxapi.JAX_VMAP_NAMES or inner.keywords or len(inner.args) != 1:
            return False
        lam = inner.args[0]
        if not isinstance(lam, ast.Lambda) or lam.args.defaults or lam.args.vararg or lam.args.kwonlyargs:
            return False
        params = {a.arg for a in (*lam.args.posonlyargs, *lam.args.args)}
        return len(params) == 1 and self._meets_block(lam.body, params, self.ix.own_scope(lam), frozenset())

    def _reduced_local(self, home: ast.AST, name: str) -> bool:
        """Local `name` of `home` is bound once, to a full reduction to a scalar (`_scalar_value`)."""
        scope = self.ix.own_scope(home)
        binding = self.ix.single_binding(name, scope) if scope is not None else None
        if binding is None or binding.kind is not BindingKind.ASSIGN or binding.scope is not scope:
            return False
        return self._scalar_value(binding.node, scope, Follow(ARRAY_VALUE))

    def _scalar_value(self, expr: ast.AST, scope, follow: Follow) -> bool:
        """True when `expr` is certainly a scalar: a number, a full reduction (`x.mean()`, `jnp.sum(x)`: no
        axis, no other argument), arithmetic of such, or a local bound once to one; False past
        `follow.ARRAY_VALUE` steps. Measured (safety/measurements/capture_reduced_placed_input.py): such a value
        computed from an input placed beyond its batch dimension is closed over by a check_vma=True body on an
        Explicit mesh and runs; a value keeping a dimension (`x.mean(axis=0)`, `x * 2.0`) fails."""
        if follow.spent:
            return False
        if isinstance(expr, ast.Constant):
            return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)
        if isinstance(expr, ast.UnaryOp):
            return self._scalar_value(expr.operand, scope, follow.deeper())
        if isinstance(expr, ast.BinOp):
            deeper = follow.deeper()
            return self._scalar_value(expr.left, scope, deeper) and self._scalar_value(expr.right, scope, deeper)
        if isinstance(expr, ast.Name):
            binding = self.ix.single_binding(expr.id, scope)
            ok = binding is not None and binding.kind is BindingKind.ASSIGN and binding.scope is scope
            return ok and self._scalar_value(binding.node, scope, follow.deeper())
        if not isinstance(expr, ast.Call) or expr.keywords:
            return False
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in _REDUCTIONS and not expr.args:
            return self.ix.qualname(expr.func, scope) is None  # a method of a value, not a module function
        qname = self.ix.qualname(expr.func, scope) or ""
        module, _, name = qname.rpartition(".")
        return module in _ARRAY_MODULES and name in _REDUCTIONS and len(expr.args) == 1

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

    def _free_uses(self, body: ast.AST, home: ast.AST, batched: set[str]) -> tuple[Capture, ...]:
        inner = self.ix.own_scope(body)
        if inner is None:
            return ()
        seen: dict[str, Span] = {}
        for node in _walk_body(body):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id not in batched:
                continue
            if in_static_context(node, self.ix.parent, self._qualname):
                continue  # `x.shape[0]`: a Python int under tracing, never the batched tracer
            bindings = self.ix.lookup(node.id, self.ix.scope_at(node))
            if bindings and bindings[0].scope.node is home and node.id not in seen:
                seen[node.id] = self.span(node)
        return tuple(Capture(n, s, CaptureKind.BATCHED, self._row(s)) for n, s in sorted(seen.items(), key=lambda kv: kv[1]))

    def _bound_uses(
        self, body: ast.AST, args: ast.arguments | None, exprs: list[ast.AST], home: ast.AST, batched: set[str],
        seen: set[str],
    ) -> tuple[Capture, ...]:
        """Batched values of `home` bound to the body where it is built: in the parameter defaults of `args`
        (the body's own), or in `exprs` (the arguments a `partial` wrapper binds, all but the function).
        Names in `seen` are left out."""
        if args is not None:
            exprs = [*exprs, *args.defaults, *(d for d in args.kw_defaults if d is not None)]
        found: dict[str, Span] = {}
        for expr in exprs:
            for node in ast.walk(expr):
                if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id not in batched:
                    continue
                if node.id in seen or node.id in found or in_static_context(node, self.ix.parent, self._qualname):
                    continue
                bindings = self.ix.lookup(node.id, self.ix.scope_at(node))
                if bindings and bindings[0].scope.node is home:
                    found[node.id] = self.span(node)
        return tuple(Capture(n, s, CaptureKind.BATCHED, self._row(s)) for n, s in found.items())

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
        for node in _walk_body(body):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id in skip:
                continue
            if node.id in seen or in_static_context(node, self.ix.parent, self._qualname) or self._fully_reduced(node):
                continue
            binding = self.ix.single_binding(node.id, self.ix.scope_at(node))
            where = self
            if binding is not None and binding.kind is BindingKind.IMPORT:
                # an array of another module of the project (`from pkg.config import W`): read there, as
                # `placed_arrays` does (fuzz/project.py seed 620089: config.py's `W = jnp.linspace(...)` closed
                # over in model.py's body was not an array here, so its rank record was lost: silent)
                binding, where = self._imported_binding(binding)
            if binding is None or binding.kind is not BindingKind.ASSIGN or self._inside(binding.scope.node, body):
                continue
            if where._array_value(binding.node, binding.scope, Follow(ARRAY_VALUE)):
                seen[node.id] = self.span(node)
        return tuple(Capture(n, s, CaptureKind.ARRAY, self._row(s)) for n, s in sorted(seen.items(), key=lambda kv: kv[1]))

    def module_attribute_arrays(
        self, construction: ast.AST, body: ast.AST | None
    ) -> tuple[tuple[ast.Attribute, str, str | None], ...]:
        """The arrays `body` closes over as an attribute of a module of the project (`config.W` after `from pkg
        import config`, `cfg.W` after `import pkg.config as cfg`), with the qualified name read and None for one
        bound there once to an array constructor (`unbatched_arrays`' test, read in that module), or why for one
        that may hold an array that module does not let spmdfix read (`_unread_bindings`: bound several times, to
        a call not read); in source order. The broadcast exemption that `unbatched_arrays`' arrays get (`ranks`)
        reads names only: for these the analysis gives an SPMD910 record, never a guessed SPMD003 (breaker11
        c27, c29: silent before; `config.W` rebound under a flag in config.py was silent too)."""
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or self.model.project is None:
            return ()
        if self.jit_wrapped(construction, body):
            return ()
        found: dict[str, tuple[ast.Attribute, str, str | None]] = {}
        for node in _walk_body(body):
            if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)):
                continue
            base = self.ix.single_binding(node.value.id, self.ix.scope_at(node))
            if base is None or base.kind is not BindingKind.IMPORT or in_static_context(node, self.ix.parent, self._qualname):
                continue
            qname = self.ix.qualname(node, self.ix.scope_at(node))
            # (a library's attribute, `jnp.sin`, is not looked for in the project: nothing is parsed for it)
            if not self.model.project.follows(qname) or qname in found or self._fully_reduced(node):
                continue
            target, where = self._project_binding(qname)
            if target is not None and target.kind is BindingKind.ASSIGN:
                if where._array_value(target.node, target.scope, Follow(ARRAY_VALUE)):
                    found[qname] = (node, qname, None)
                    continue
            up = self.ix.parent.get(id(node))
            if isinstance(up, ast.Call) and up.func is node:
                continue  # (`config.make(b)`: a callable, the reach walk's)
            defined = self.model.project.resolve(qname, whole=True)
            if defined is None or defined[1] is None:
                continue
            other = CaptureAnalysis(defined[0].model, BatchedValues(defined[0].model))
            bindings = other.ix.module_scope.bindings.get(defined[1], [])
            why = other._unread_bindings(defined[1], bindings, Follow(ARRAY_VALUE)) if bindings else None
            if why is not None:
                found[qname] = (node, qname, why)
        return tuple(sorted(found.values(), key=lambda f: (f[0].lineno, f[0].col_offset)))

    # --- values that may be arrays the analysis does not read -------------------------------------------
    def unread_arrays(self, construction: ast.AST, body: ast.AST | None, skip: set[str]) -> tuple[tuple[ast.Name, str], ...]:
        """The names `body` closes over whose value may be an array the analysis does not read, each with why
        (`_unread_array`): (the first read, the words), in source order. A read counts as `unbatched_arrays`
        counts one (a value: not static, not a full reduction), nor a call of the name; names in `skip` (the
        captures read already) are left out. The rule: a closed-over name is an array spmdfix reads only when
        bound once, to a constructor it reads (`unbatched_arrays`); bound several times (a rebinding under a
        flag or an `if W.ndim == 1:`, a second straight-line write, a local rebound after the shard_map is
        built, an imported name rebound by its importer or its re-exporter), bound to a call whose result it does
        not read (`jnp.atleast_2d(...)`, a function of the project), or given by a star import of the project,
        its shape is not known, and an unbatched array meeting the block runs or fails (ManualAxisType) by the
        ranks: an SPMD910 record, never a guessed finding nor silence (breaker11 c02, c05, c09, c11, c14, c17,
        c19, c21, l02: JAX failed, spmdfix said nothing)."""
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or self.jit_wrapped(construction, body):
            return ()
        found: dict[str, tuple[ast.Name, str]] = {}
        for node in _walk_body(body):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id in skip or node.id in found:
                continue
            if in_static_context(node, self.ix.parent, self._qualname) or self._fully_reduced(node):
                continue
            up = self.ix.parent.get(id(node))
            if isinstance(up, ast.Call) and up.func is node:
                continue  # (a callable closed over: what it reads is the reach walk's)
            why = self._unread_array(node, body)
            if why is not None:
                found[node.id] = (node, why)
        return tuple(sorted(found.values(), key=lambda f: (f[0].lineno, f[0].col_offset)))

    def imported_body_arrays(
        self, construction: ast.AST, expr: ast.AST | None, scope
    ) -> tuple[CaptureAnalysis, ast.AST, str, tuple[tuple[ast.AST, str], ...]] | None:
        """For a shard_map body written as a name of another module of the project bound there to a `def`
        (`body` after `from pkg.bodies import body`, `bodies.body` after `from pkg import bodies`): (that module's capture analysis, the def, its qualified
        name, the arrays it closes over: (the read, the name read), in source order); None for any other body.
        The arrays are those `unbatched_arrays`, `module_attribute_arrays` and `unread_arrays` find, read in
        that module: a module-level function closes over its module's names only, none of which the vmap
        batches. Their ranks are not read against the block across the modules, and lift-captures would edit
        the other module: the caller gives SPMD910 records (breaker11 l03, l06: silent while JAX failed)."""
        if not isinstance(expr, (ast.Name, ast.Attribute)) or self.model.project is None:
            return None
        if self.jit_wrapped(construction, expr):
            return None
        qname = self.ix.qualname(expr, scope)
        if not self.model.project.follows(qname):
            return None
        target, where = self._project_binding(qname)
        if target is None or target.kind is not BindingKind.DEF or where is self:
            return None
        body = target.node
        arrays = where.unbatched_arrays(construction, body, set())
        reads: list[tuple[ast.AST, str]] = [(where._load_of(body, c.name), c.name) for c in arrays]
        reads += [(node, qname) for node, qname, _ in where.module_attribute_arrays(construction, body)]
        reads += [(node, node.id) for node, _ in where.unread_arrays(construction, body, {c.name for c in arrays})]
        reads.sort(key=lambda r: (r[0].lineno, r[0].col_offset))
        return where, body, qname, tuple(reads)

    def _load_of(self, body: ast.AST, name: str) -> ast.Name:
        """The first read of `name` in `body` (one `unbatched_arrays` found)."""
        return min(
            (n for n in _walk_body(body) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)),
            key=lambda n: (n.lineno, n.col_offset),
        )

    def _unread_array(self, node: ast.Name, body: ast.AST) -> str | None:
        """Why the value the closed-over `node` reads may be an array whose shape is not read
        (`unread_arrays`), in words; None when it is not such a value (the body's own name, one bound once to
        what is no array, a builtin)."""
        bindings = self.ix.lookup(node.id, self.ix.scope_at(node))
        if not bindings:
            return self._star_array(node.id)
        if self._inside(bindings[0].scope.node, body):
            return None
        return self._unread_bindings(node.id, bindings, Follow(ARRAY_VALUE))

    def _where(self, scope) -> str:
        """Where a scope of this module is, in words: the function, or the module's path."""
        if isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return f"in `{scope.node.name}`"
        return f"in {relpath(self.ix.path)}" if self.ix.path else "in this module"

    def _unread_bindings(self, name: str, bindings, follow: Follow) -> str | None:
        """`_unread_array` for the bindings of `name` in one scope of this module."""
        if follow.spent:
            return None
        where = self._where(bindings[0].scope)
        if len(bindings) > 1:
            if not any(self._may_hold_array(b, follow.deeper()) for b in bindings):
                return None
            lines = ", ".join(str(n) for n in sorted({_line(b.node) for b in bindings}))
            return (
                f"`{name}` is bound {len(bindings)} times {where} (lines {lines}), so the shape of the value the "
                "shard_map body reads when it runs is not read"
            )
        binding = bindings[0]
        if binding.kind is BindingKind.IMPORT:
            found = self.model.project.resolve(binding.qname, whole=True) if self.model.project is not None else None
            if found is None or found[1] is None:
                return None
            other = CaptureAnalysis(found[0].model, BatchedValues(found[0].model))
            return other._unread_bindings(found[1], other.ix.module_scope.bindings.get(found[1], []), follow.deeper())
        if binding.kind is not BindingKind.ASSIGN or self._array_value(binding.node, binding.scope, Follow(ARRAY_VALUE)):
            return None  # (bound once to a constructor read: `unbatched_arrays`' array)
        if not self._maybe_array(binding.node, binding.scope, follow.deeper()):
            return None
        return (
            f"`{name}` is bound {where} (line {_line(binding.node)}) to `{short(binding.node)}`, whose shape "
            "spmdfix does not read"
        )

    def _star_array(self, name: str) -> str | None:
        """Why `name`, bound by no statement of this module, may be an array given by a star import of a module
        of the project that binds it (`from pkg.config import *`, breaker11 c11), in words; None otherwise."""
        if builtin_name(name) or self.model.project is None:
            return None
        for star in sorted(self.ix.star_imports(), key=lambda node: node.lineno):
            module = imported_module(self.ix, star)
            if module.startswith(".") or not self.model.project.follows(module):
                continue
            found = self.model.project.resolve(f"{module}.{name}", whole=True)
            if found is None or found[1] is None:
                continue
            other = CaptureAnalysis(found[0].model, BatchedValues(found[0].model))
            bindings = other.ix.module_scope.bindings.get(found[1], [])
            if any(other._may_hold_array(b, Follow(ARRAY_VALUE)) for b in bindings):
                spelled = "." * (star.level or 0) + (star.module or "")
                return (
                    f"`{name}` is bound by no statement of this module: it comes from `from {spelled} import *` "
                    f"(line {star.lineno}), whose names spmdfix does not read as arrays"
                )
        return None

    def _may_hold_array(self, binding, follow: Follow) -> bool:
        """One binding of a name may give it an array value (`_maybe_array`): an assignment of one, or an import
        of a module-level name of the project one of whose bindings may."""
        if follow.spent:
            return False
        if binding.kind is BindingKind.ASSIGN:
            return self._maybe_array(binding.node, binding.scope, follow.deeper())
        if binding.kind is not BindingKind.IMPORT or self.model.project is None:
            return False
        found = self.model.project.resolve(binding.qname, whole=True) if binding.qname else None
        if found is None or found[1] is None:
            return False
        other = CaptureAnalysis(found[0].model, BatchedValues(found[0].model))
        return any(other._may_hold_array(b, follow.deeper()) for b in other.ix.module_scope.bindings.get(found[1], []))

    def _maybe_array(self, expr: ast.AST, scope, follow: Follow) -> bool:
        """`expr` may build an array: one `_array_value` reads, a name one of whose bindings may hold one, a
        subscript, `.T`, array method or arithmetic of one, a call of a `numpy` / `jax.numpy` function other than
        those giving no array (`_NOT_ARRAY_RESULTS`; a dtype of what is no array, `array` of a number), or a call of a
        function of the project one of whose returns may be one. False past `follow.ARRAY_VALUE` steps."""
        if follow.spent:
            return False
        if self._array_value(expr, scope, Follow(ARRAY_VALUE)):
            return True
        deeper = follow.deeper()
        if isinstance(expr, ast.Name):
            return any(self._may_hold_array(b, deeper) for b in self.ix.lookup(expr.id, scope))
        if isinstance(expr, ast.Subscript) or isinstance(expr, ast.Attribute) and expr.attr == "T":
            return self._maybe_array(expr.value, scope, deeper)
        if isinstance(expr, ast.BinOp):
            return self._maybe_array(expr.left, scope, deeper) or self._maybe_array(expr.right, scope, deeper)
        if isinstance(expr, ast.UnaryOp):
            return self._maybe_array(expr.operand, scope, deeper)
        if not isinstance(expr, ast.Call):
            return False
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr in _ARRAY_METHODS and self.ix.qualname(func, scope) is None:
            return self._maybe_array(func.value, scope, deeper)
        qname = self.ix.qualname(func, scope)
        module, _, name = (qname or "").rpartition(".")
        if module in _ARRAY_MODULES:
            if name in _NOT_ARRAY_RESULTS:
                return False
            if name in _DTYPES:
                return bool(expr.args) and self._maybe_array(expr.args[0], scope, deeper)
            if name in ("array", "asarray"):
                return bool(expr.args) and not _number(expr.args[0])
            return True
        return self._returns_array(func, scope, deeper)

    def _returns_array(self, func: ast.AST, scope, follow: Follow) -> bool:
        """`func` names a function of this module, or of another module of the project, one of whose returns may
        be an array (`_maybe_array`, read in its module)."""
        if isinstance(func, ast.Name):
            binding = self.ix.single_binding(func.id, scope)
            if binding is not None and binding.kind is BindingKind.DEF:
                return any(self._maybe_array(r, self.ix.scope_at(r), follow) for r in returns(binding.node) or ())
        qname = self.ix.qualname(func, scope)
        if self.model.project is None or not self.model.project.follows(qname):
            return False
        target, where = self._project_binding(qname)
        if target is None or target.kind is not BindingKind.DEF or where is self:
            return False
        return any(where._maybe_array(r, where.ix.scope_at(r), follow) for r in returns(target.node) or ())

    # --- arrays placed on an Explicit mesh ---------------------------------------------------------------
    def placed_arrays(self, body: ast.AST | None, skip: set[str]) -> tuple[Capture, ...]:
        """Names `body` closes over that are bound (once, outside the body) to `jax.device_put(w,
        NamedSharding(mesh, spec))` with `mesh` a resolved mesh whose axes are all Explicit; names in `skip`
        are left out.

        Measured on jax 0.10.2 (safety/measurements/open_items_issue22_kind9.py, part A): such a closure fails
        whatever the spec (`P('x')`, `P(None)`) and check_vma: under the spmd vmap `For primitive
        broadcast_in_dim, context mesh ...`, under a plain vmap and without a vmap `NotImplementedError: Closing
        over inputs to shard_map where the input is sharded on Explicit axes`; unplaced, or on an Auto mesh, it
        runs.

        So is a name bound to an array a `jax.numpy` constructor or a `jax.random` sampler makes inside `with
        jax.set_mesh(mesh):` of a resolved mesh whose axes are all Explicit (or after a `jax.set_mesh(mesh)`
        statement of the same function: `PlacementAnalysis.context_mesh`): JAX commits it to that mesh
        (`NamedSharding(mesh, P(None,))`, `P()` for `jnp.asarray`) and refuses its capture as a `device_put`
        one's, `context mesh ...` with the batch placed on the mesh, `Closing over inputs to shard_map ...
        Explicit` with the batch dimension on no axis and without a vmap, eager and under jit, check_vma True
        and False (measured: safety/measurements/plain_vmap_inner_capture_staged.py, parts 2 and 3); made
        before the mesh is installed, or by numpy, it runs (`Capture.made_under_mesh`)."""
        if not isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return ()
        seen: dict[str, tuple[Span, bool]] = {}
        for node in _walk_body(body):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id in skip or node.id in seen:
                continue
            binding = self.ix.single_binding(node.id, self.ix.scope_at(node))
            where = self
            if binding is not None and binding.kind is BindingKind.IMPORT:
                # an array of another module of the project (`from pkg.config import W`): read there (fuzz/project.py
                # seed 540023, a placed `WP` of config.py closed over in model.py's body, silent)
                binding, where = self._imported_binding(binding)
            if binding is None or binding.kind is not BindingKind.ASSIGN or self._inside(binding.scope.node, body):
                continue
            if where._explicit_placement(binding.node, binding.scope):
                seen[node.id] = (self.span(node), False)
            elif where._made_under_explicit_mesh(binding.node, binding.scope):
                seen[node.id] = (self.span(node), True)
        return tuple(
            Capture(n, s, CaptureKind.PLACED, self._row(s), made_under_mesh=made)
            for n, (s, made) in sorted(seen.items(), key=lambda kv: kv[1][0])
        )

    def _imported_binding(self, binding):
        """(the single top-level binding a project import names, the capture analysis of its module), or
        (None, self) when it is not a module-level name of another module of the project the index loads."""
        return self._project_binding(binding.qname)

    def _project_binding(self, qname: str | None):
        """(the single top-level binding of the project name `qname`, the capture analysis of its module), or
        (None, self) when the index loads no such name (`_imported_binding`)."""
        project = self.model.project
        found = project.binding(qname) if project is not None else None
        if found is None:
            return None, self
        model, target = found
        return target, CaptureAnalysis(model, BatchedValues(model))

    def _made_under_explicit_mesh(self, value: ast.AST, scope) -> bool:
        """`value` is a call of a `jax.numpy` array constructor (`_ARRAY_CONSTRUCTORS`) or a `jax.random`
        sampler with a shape (`_RANDOM_SHAPE_POSITION`), run where `jax.set_mesh(mesh)` installs a resolved
        mesh whose axes are all Explicit (`placed_arrays`); or arithmetic with one (`jnp.ones(n) * 1.5`), one of
        its array methods (`.ravel()`), its `.T` or a subscript of it (measured the same: `jnp.eye(8)[0]`,
        `jnp.stack(...).ravel()`)."""
        if isinstance(value, ast.BinOp):
            return self._made_under_explicit_mesh(value.left, scope) or self._made_under_explicit_mesh(value.right, scope)
        if isinstance(value, ast.Subscript) or isinstance(value, ast.Attribute) and value.attr == "T":
            return self._made_under_explicit_mesh(value.value, scope)
        if not isinstance(value, ast.Call):
            return False
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr in _ARRAY_METHODS and self.ix.qualname(func, scope) is None:
            return self._made_under_explicit_mesh(func.value, scope)
        qname = self.ix.qualname(value.func, scope) or ""
        module, _, name = qname.rpartition(".")
        if qname not in _RANDOM_SHAPE_POSITION and not (module == "jax.numpy" and name in _ARRAY_CONSTRUCTORS):
            return False
        context = self.placements.context_mesh(value)
        if context is None:
            return False
        mesh = resolve_mesh(self.ev, context[0], context[1])
        return mesh is not None and mesh.axis_types is AxisType.EXPLICIT

    def _explicit_placement(self, value: ast.AST, scope) -> bool:
        """`jax.device_put(w, NamedSharding(mesh, spec))` (the sharding written there or a name bound to it)
        on a resolved mesh whose axes are all Explicit; or `jax.device_put(w, P(...))` where `jax.set_mesh`
        installs such a mesh (`PlacementAnalysis.context_mesh`)."""
        if not isinstance(value, ast.Call) or self.ix.qualname(value.func, scope) not in jaxapi.DEVICE_PUT_NAMES:
            return False
        sharding = argument(value, 1, "device")
        resolved = self.ev.resolve_name(sharding, scope) if sharding is not None else None
        if resolved is None or not isinstance(resolved[0], ast.Call):
            return False
        named, inner = resolved
        if self.ix.qualname(named.func, inner) in jaxapi.PARTITION_SPEC_NAMES:
            # `jax.device_put(w, P('y'))` under `jax.set_mesh(mesh)`: placed on the context mesh (breaker6:
            # refused like a NamedSharding placement, safety/trials/breaker6/measure_placed_bare_spec_capture.py)
            context = self.placements.context_mesh(value)
            mesh = resolve_mesh(self.ev, context[0], context[1]) if context is not None else None
            return mesh is not None and mesh.axis_types is AxisType.EXPLICIT
        if self.ix.qualname(named.func, inner) not in jaxapi.NAMED_SHARDING_NAMES:
            return False
        mesh_expr = argument(named, 0, "mesh")
        mesh = resolve_mesh(self.ev, mesh_expr, inner) if mesh_expr is not None else None
        return mesh is not None and mesh.axis_types is AxisType.EXPLICIT

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
        if qname in _RANDOM_SHAPE_POSITION:
            shape = argument(expr, _RANDOM_SHAPE_POSITION[qname], "shape")
            return isinstance(shape, (ast.Tuple, ast.List)) and bool(shape.elts)
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


@frozen(slots=True)
class _Batched:
    """The batched names of a function on the way (`CaptureAnalysis._batched`); off_spmd: the way is staged on
    a mesh of Explicit axes whose batch is not proven placed on the spmd axes."""

    names: set[str]
    off_spmd: bool = False


def _explicit(mesh: MeshInfo | None) -> bool:
    return mesh is not None and mesh.axis_types is AxisType.EXPLICIT


def _committed_off_spmd(
    capture: Capture, calls: VmapCalls | None, mesh: MeshInfo | None, through_vmaps: bool = False
) -> bool:
    """Some call of the vmap places an input of `capture`'s value (one of its `params`) on the shard_map's
    `mesh` with no mesh axis at its batch dimension (`facts.VmapCall.unbatched_mesh`); False when the inputs
    of the value are not known. Measured on jax 0.10.2, such a capture reached through a staging function
    fails with `Closing over inputs to shard_map where the input is sharded on Explicit axes`, and one from
    unplaced inputs runs (safety/measurements/capture_staged_explicit_placement.py). With `through_vmaps`, its
    inputs known back through an inner vmap count too (`capture_facts`)."""
    return input_committed(capture, calls, mesh, through_vmaps)


def _explicit_placed(mesh: MeshInfo | None, placed: bool) -> bool:
    """A mesh of Explicit axes with the batch `placed` on the spmd axes: there a `jax.jit(shard_map(...))`
    stages nothing away, its body's capture of a batched value fails as it does unjitted (measured on jax
    0.10.2, eager and under jit, free and default-bound: safety/measurements/capture_jit_of_shard_map_explicit.py;
    fuzz seeds 60501, 60518)."""
    return placed and mesh is not None and mesh.axis_types is AxisType.EXPLICIT


def batch_placed_on(calls: VmapCalls | None, spmd: set[str], mesh: MeshInfo | None) -> bool:
    """Every call of the vmap followed (the calls followed as written: `hazards.calls_stand`)
    places the batch dimension of every mapped argument on exactly the `spmd` axes of the shard_map's `mesh`
    (`facts.VmapCall.batch_axes`, `batch_mesh`)."""
    return (
        mesh is not None and bool(spmd) and calls_stand(calls)
        and all(c.batch_axes is not None and set(c.batch_axes) == spmd and c.batch_mesh == mesh.span for c in calls.calls)
    )


def _static_fields(cls: ast.ClassDef) -> set[str]:
    """The fields a pytree class declares static: a class-level annotated name whose default's call passes
    `static=True` or `pytree_node=False` (also inside `metadata=dict(...)`), and the string constants of a
    `meta_fields=[...]` its decorators pass (`register_dataclass`)."""
    static: set[str] = set()
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            for kw in (n for n in ast.walk(stmt.value) if isinstance(n, ast.keyword)):
                value = kw.value.value if isinstance(kw.value, ast.Constant) else None
                if (kw.arg == "static" and value is True) or (kw.arg == "pytree_node" and value is False):
                    static.add(stmt.target.id)
    for deco in cls.decorator_list:
        for kw in (n for n in ast.walk(deco) if isinstance(n, ast.keyword) and n.arg == "meta_fields"):
            if isinstance(kw.value, (ast.List, ast.Tuple)):
                static |= {e.value for e in kw.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return static


def _number(expr: ast.AST) -> bool:
    """A number literal, negated or not (`2.0`, `-1`)."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float)


def _line(node: ast.AST) -> int:
    """The line of a binding's node (an import statement, a value, a definition)."""
    return getattr(node, "lineno", 0)


def _walk_body(body: ast.AST):
    """The nodes of a shard_map body (a lambda or a `def`) that run when it is called: a lambda's expression; a
    def's statements, parameters (defaults, annotations) and return annotation, not its decorators (the
    `partial(jax.shard_map, in_specs=P(axis))` a decorated body is written under is evaluated outside it)."""
    if isinstance(body, ast.Lambda):
        return ast.walk(body.body)
    parts = [*body.body, body.args, *([body.returns] if body.returns is not None else [])]
    return (node for part in parts for node in ast.walk(part))
