"""Does a shard_map body keep its values when axes are stripped from its specs? An allowlist of uses.

Stripping an axis `'x'` from a shard_map's specs hands the body the whole array along the dimensions that
named `'x'` instead of one block of it. The body then computes the same values only when everything it does
with a block is elementwise along those dimensions *and* every other operand it combines with the block is a
scalar or a block of the same layout. This module proves that with an allowlist; any other use is refused
with the use, its text and its line (docs/safety.md, "strip"):

- values: the body's parameters (a *block* when its in_spec names a stripped axis, *fixed* when it names
  none; a default other than a number is refused: a parameter the shard_map does not pass is no block),
  locals assigned from allowed expressions, Python numbers and names bound to numeric literals (not one a
  `global` / `nonlocal` statement names), attributes of jax, numpy or math such as `jnp.float32` or `jnp.pi`;
- operations: the arithmetic operators but `@`, comparisons, unary operators, the elementwise functions and
  methods of `jaxapi.ELEMENTWISE_NAMES` / `ELEMENTWISE_METHODS`, and `psum`/`pmean`/`pmax`/`pmin` over axes
  that are not stripped (they combine equal positions of equal-shaped blocks; except over an axis sharing a
  tuple spec entry with a stripped axis written before it, which `fixes.strip_spec_entries.
  shared_dimension_collectives` makes unsafe: each block then holds other elements of that dimension);
- combination: an operation's array operands are all blocks of the same stripped layout, or all fixed;
- outputs: a block leaves through an out_spec whose entries naming stripped axes equal its in_spec's (same
  dimensions, same axes in the same order: `layout_of`), a fixed or scalar value through one that names none
  of them.

Refused, because measured to change values or to fail once stripped: a closure array shaped for one block
(`W = jnp.array([1., 2.])`, body `b * W`: after the strip it broadcasts against the whole array or the
shapes no longer match), reductions, scans, indexing and `.shape` reads (the block shape changes), and
any function not on the list. The measurements are the programs under `safety/strip_*`.
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.follow import NAMED_SPECS, NUMERIC, SPEC_ASSIGNS, Follow
from spmdfix.analysis.importers import imported_uses, in_module, module_path
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.specs import spec_tree
from spmdfix.analysis.uses import UseIndex
from spmdfix.analysis.values import SpecTree
from spmdfix.model import Span
from spmdfix.paths import relpath
from spmdfix.perf import frozen

# Collectives that combine equal positions of the blocks of other devices: elementwise along any dimension
# that does not name their axes (measured: golden strip/collective_other_axis).
_POSITIONAL_COLLECTIVES = frozenset({"jax.lax.psum", "jax.lax.pmean", "jax.lax.pmax", "jax.lax.pmin"})
_ARRAY_BUILDERS = frozenset({"jax.numpy.array", "jax.numpy.asarray"})
# The modules whose attributes a body may read as constants (`jnp.pi`, `jnp.float32`, `math.e`): none of them
# holds an array shaped for a block.
_CONSTANT_LIBRARIES = frozenset({"jax", "numpy", "math"})
_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv, ast.Mod)
SCALAR = "scalar"
FIXED = "fixed"


class _Refused(Exception):
    """A use outside the allowlist; the message names it and its line."""


@frozen(slots=True)
class _Block:
    """A value shaped like the mapped block; `layout` holds, per dimension, its spec entry when that names a
    stripped axis (`layout_of`); `rank` its number of dimensions, or the name of the parameter it comes from
    when that is not known (`StripBodyCheck.check`'s `ranks`). Broadcasting lines dimensions up from the right,
    so two blocks of one layout but of different ranks combine other elements once stripped: `u + w` with
    `u` (2,) under `P('x')` and `w` (4, 2) under `P('x', None)` adds `u[k]` to row block k before the strip and
    `u[j]` to column j after (safety/trials/breaker14 s01, s02: values differ)."""

    layout: tuple[tuple[str, ...], ...]
    rank: int | str


def layout_of(tree: SpecTree, stripped: set[str]) -> tuple[tuple[str, ...], ...] | None:
    """Per dimension of a single-spec tree, its whole entry (every axis, in order) when it names a stripped
    axis, else `()` (trailing empty dims dropped); None otherwise.

    The whole entry, not only its stripped members: within one entry the order of the axes decides which block
    a device holds (`P(('x', 'y'))` splits by `'x'` first), and the axes besides the stripped ones decide how
    many blocks the dimension is cut into. Two blocks line up after the strip only when their entries were
    equal: an out_spec `P(('y', 'x'))` over an in_spec `P(('x', 'y'))` moves blocks that the stripped
    `P('y')` / `P('y')` no longer move, and an out_spec `P('x')` over `P(('x', 'y'))` (check_vma=False) keeps
    the `'y'` index 0 block of each `'x'` block, not the first `'y'` block of the whole dimension (measured,
    safety/trials/breaker12 s42-s44: values differ)."""
    if tree.unresolved or len(tree.specs) != 1:
        return None
    dims = []
    for e in tree.specs[0].entries:
        names = tuple(e.value.names) if e.value else ()
        dims.append(names if any(a in stripped for a in names) else ())
    while dims and not dims[-1]:
        dims.pop()
    return tuple(dims)


class StripBodyCheck:
    """Checks one body against the strip allowlist. Pure: AST and evaluated specs in, a reason or "" out.

    Input: the module's `ModuleModel`."""

    def __init__(self, model: ModuleModel) -> None:
        self.ix = model.ix
        self.ev = model.ev
        self._instance: str | None = None  # the bound `self` of a method body while `check` runs

    def check(
        self,
        func: ast.AST,
        in_specs: ast.AST | None,
        out_specs: ast.AST | None,
        scope: Scope,
        stripped: set[str],
        ranks: dict[str, int] | None = None,
        bound: int = 0,
    ) -> str:
        """"" when stripping `stripped` from the specs keeps the body's values, else why not.

        func: the mapped function (a `def` or `lambda` of this module); in_specs/out_specs: the shard_map's
        arguments as written, evaluated in `scope`; ranks: the rank of the operand each parameter receives,
        where it is known (`analysis.ranks.RankAnalysis.body_ranks`). Blocks of two parameters combine only
        when both ranks are known and equal. bound: how many leading parameters of `func` are bound before the
        shard_map passes its operands (a bound method's `self`: `analysis.method_body`). The in_specs line up
        with the parameters after those; a bound one is no block nor fixed operand: a use of it (a read
        `self.w` of the instance) is refused.
        """
        self._instance = None
        try:
            params = self._param_kinds(func, in_specs, scope, stripped, ranks or {}, bound)
            outputs = self._body_outputs(func, params)
            self._match_outputs(outputs, out_specs, scope, stripped)
        except _Refused as why:
            return str(why)
        return ""

    # --- parameters and outputs -------------------------------------------------------------------
    def _param_kinds(self, func, in_specs, scope, stripped, ranks: dict[str, int], bound: int = 0) -> dict[str, object]:
        args = func.args
        if args.vararg or args.kwarg or args.kwonlyargs:
            raise _Refused("the body takes *args, **kwargs or keyword-only parameters")
        names = [a.arg for a in [*args.posonlyargs, *args.args]]
        self._check_defaults(func, names, scope)
        if bound:
            # (the bound `self`: a use of it is refused by `_kind` / `_free`, naming the read)
            self._instance = names[0]
            names = names[bound:]
        specs = self._leaves(in_specs, scope, len(names), "in_specs")
        kinds: dict[str, object] = {}
        for name, tree in zip(names, specs):
            layout = layout_of(tree, stripped)
            if layout is None:
                raise _Refused(f"the in_spec of parameter `{name}` is not one PartitionSpec written here")
            kinds[name] = _Block(layout, ranks.get(name, name)) if layout else FIXED
        return kinds

    def _check_defaults(self, func, names: list[str], scope: Scope) -> None:
        """Refuses a parameter whose default is not a number. A shard_map passes the body only the arguments it
        is applied to; a parameter left out takes its default, which is then a value from outside the body,
        not a block, whatever the in_specs say (`lambda b, w=W: b * w` applied to `(v)`: a single in_spec
        covers only `v`). After the strip it meets the whole array (measured, safety/trials/breaker12 s04,
        s36, s37: `mul got incompatible shapes for broadcasting: (8,), (4,)`). A number stays a number."""
        defaults = func.args.defaults
        outer = self.ix.scope_at(func)
        for name, default in zip(names[len(names) - len(defaults):], defaults):
            if not self._numeric(default, outer, Follow(NUMERIC)):
                raise _Refused(
                    f"the body's parameter `{name}` defaults to {self._where(default)}, a value from outside it "
                    "that is not a number: where the shard_map does not pass it, it meets the whole array "
                    "after the strip instead of one block"
                )

    def _leaves(self, specs: ast.AST | None, scope: Scope, count: int, what: str) -> list[SpecTree]:
        """One spec tree per parameter (or output): a single spec applies to all of them."""
        if specs is None:
            raise _Refused(f"the shard_map has no {what}")
        resolved = self.ev.resolve_name(specs, scope)
        if resolved is None:
            raise _Refused(f"{what} is not written in this module")
        node, node_scope = resolved
        if isinstance(node, (ast.Tuple, ast.List)):
            if len(node.elts) != count:
                raise _Refused(f"{what} does not pair one spec with each {'parameter' if what == 'in_specs' else 'output'}")
            return [spec_tree(self.ev, e, node_scope) for e in node.elts]
        return [spec_tree(self.ev, node, node_scope)] * count

    def _body_outputs(self, func, params: dict[str, object]) -> list[tuple[object, object]]:
        inner = self.ix.own_scope(func) or self.ix.scope_at(func)
        env = dict(params)
        if isinstance(func, ast.Lambda):
            return self._returned(func.body, env, inner)
        for i, stmt in enumerate(func.body):
            if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # docstring
            if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
                kind = self._kind(stmt.value, env, inner)
                for target in stmt.targets:
                    env[target.id] = kind
            elif isinstance(stmt, ast.Return) and stmt.value is not None and i == len(func.body) - 1:
                return self._returned(stmt.value, env, inner)
            else:
                raise _Refused(f"the body has a `{type(stmt).__name__}` statement (line {stmt.lineno})")
        raise _Refused("the body does not end in a `return` of a value")

    def _returned(self, value: ast.AST, env, scope) -> list[tuple[object, object]]:
        """(key, kind) per output: positions of a returned tuple, keys of a returned dict display."""
        if isinstance(value, ast.Tuple):
            return [(i, self._kind(e, env, scope)) for i, e in enumerate(value.elts)]
        if isinstance(value, ast.Dict):
            if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in value.keys):
                raise _Refused(f"the body returns {self._where(value)}, a dict whose keys are not string literals")
            return [(k.value, self._kind(v, env, scope)) for k, v in zip(value.keys, value.values)]
        return [(0, self._kind(value, env, scope))]

    def _out_trees(self, out_specs, scope, keys: list[object]) -> list[SpecTree]:
        """The out_spec tree of each output: a single spec for all, a tuple by position, a dict by key."""
        resolved = self.ev.resolve_name(out_specs, scope) if out_specs is not None else None
        if resolved is not None and isinstance(resolved[0], ast.Dict):
            node, node_scope = resolved
            by_key = {
                k.value: v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)
            }
            if len(by_key) != len(node.keys) or sorted(map(str, by_key)) != sorted(map(str, keys)):
                raise _Refused("out_specs does not pair one spec with each output")
            return [spec_tree(self.ev, by_key[k], node_scope) for k in keys]
        return self._leaves(out_specs, scope, len(keys), "out_specs")

    def _match_outputs(self, outputs: list[tuple[object, object]], out_specs, scope, stripped) -> None:
        trees = self._out_trees(out_specs, scope, [k for k, _ in outputs])
        for (i, kind), tree in zip(outputs, trees):
            layout = layout_of(tree, stripped)
            if layout is None:
                raise _Refused(f"out_specs of output {i} is not one PartitionSpec written here")
            if isinstance(kind, _Block) and kind.layout != layout:
                raise _Refused(
                    f"output {i} is a block whose out_spec does not name the stripped axes at the same dimensions "
                    "as its in_spec: its shape or values change"
                )
            if not isinstance(kind, _Block) and layout:
                raise _Refused(f"output {i} does not come from a stripped block but its out_spec names a stripped axis")

    # --- expressions ------------------------------------------------------------------------------
    def _where(self, node: ast.AST) -> str:
        return f"`{ast.unparse(node)}` (line {node.lineno})"

    def _kind(self, expr: ast.AST, env: dict[str, object], scope: Scope) -> object:
        if isinstance(expr, ast.Constant):
            return SCALAR
        if isinstance(expr, ast.Name):
            if expr.id in env:
                return env[expr.id]
            return self._free(expr, scope)
        if isinstance(expr, ast.BinOp):
            if not isinstance(expr.op, _OPS):
                raise _Refused(f"the body uses {self._where(expr)}, an operator that is not elementwise")
            return self._combine(expr, [expr.left, expr.right], env, scope)
        if isinstance(expr, ast.UnaryOp):
            return self._kind(expr.operand, env, scope)
        if isinstance(expr, ast.Compare):
            return self._combine(expr, [expr.left, *expr.comparators], env, scope)
        if isinstance(expr, ast.Attribute):
            if isinstance(expr.value, ast.Name) and expr.value.id == self._instance and expr.value.id not in env:
                raise _Refused(self._instance_refusal(expr))
            qname = self.ix.qualname(expr, scope)
            if qname is not None and qname.split(".")[0] in _CONSTANT_LIBRARIES:
                return SCALAR  # a library's constant: jnp.pi, jnp.float32, math.e
            if qname is not None:
                # a value of a module of the project (`config.W`): an array shaped for one block breaks after
                # the strip (breaker12 s33: `mul got incompatible shapes for broadcasting: (8,), (4,)`)
                raise _Refused(
                    f"the body uses {self._where(expr)}, a value of another module that is not read here: "
                    "after the strip it meets the whole array instead of one block"
                )
            raise _Refused(f"the body reads {self._where(expr)}: the block's shape or layout changes with the strip")
        if isinstance(expr, ast.Call):
            return self._call(expr, env, scope)
        if isinstance(expr, (ast.List, ast.Tuple)):
            raise _Refused(f"the body builds an array from {self._where(expr)}, shaped independently of the block")
        if isinstance(expr, ast.Subscript):
            raise _Refused(self._subscript_refusal(expr, env, scope))
        raise _Refused(f"the body has {self._where(expr)}, which is not on the strip allowlist")

    def _subscript_refusal(self, expr: ast.Subscript, env: dict[str, object], scope: Scope) -> str:
        """Why a subscript in the body is refused, saying what is subscripted: a lookup in a value from outside
        the body (`SIZES[DATA]`, a table of the project: newuser11's trial was told "the body indexes an array
        at `SIZES[DATA]`"), whose item the allowlist does not evaluate, or an index of a value of the body,
        whose shape the strip changes."""
        base = expr.value
        outside = (isinstance(base, ast.Name) and base.id not in env) or (
            isinstance(base, ast.Attribute) and self.ix.qualname(base, scope) is not None
        )
        if not outside:
            return f"the body indexes {self._where(expr)}: the block's shape changes with the strip"
        shown = ast.unparse(base)
        origin = ""
        if isinstance(base, ast.Name):
            binding = self.ix.single_binding(base.id, scope)
            if binding is not None and binding.kind is BindingKind.IMPORT and binding.qname:
                origin = f", imported as `{binding.qname}`"
            elif binding is not None and binding.kind is BindingKind.ASSIGN:
                origin = f", bound at line {binding.node.lineno}"
        return (
            f"the body reads {self._where(expr)}, an item of `{shown}`{origin}: a lookup in a value from outside "
            "the body, whose item the strip does not evaluate (an array shaped for one block would meet the whole "
            "array after the strip)"
        )

    def _instance_refusal(self, node: ast.AST) -> str:
        """Why a use of the bound instance (`self.w_in`, `self` passed on) in a method body is refused: what it
        holds is not read, and an array shaped for one block meets the whole array after the strip."""
        return (
            f"the body reads {self._where(node)}, a value of the instance the method is bound to, which the strip "
            "does not read: an array shaped for one block would meet the whole array after the strip"
        )

    def _free(self, name: ast.Name, scope: Scope) -> object:
        """A value from outside the body: allowed only when it is a number written in this module."""
        if name.id == self._instance:
            raise _Refused(self._instance_refusal(name))
        if self._declared(name.id):
            raise _Refused(
                f"the body uses `{name.id}` (line {name.lineno}), which a `global` or `nonlocal` statement of the "
                "module names: a function may rebind it to an array, which after the strip meets the whole array"
            )
        binding = self.ix.single_binding(name.id, scope)
        assigned = binding is not None and binding.kind is BindingKind.ASSIGN
        if assigned and self._numeric(binding.node, binding.scope, Follow(NUMERIC)):
            return SCALAR
        raise _Refused(
            f"the body uses `{name.id}` (line {name.lineno}), a value from outside it that is not a number: "
            "after the strip it meets the whole array instead of one block"
        )

    def _numeric(self, expr: ast.AST, scope: Scope, follow: Follow) -> bool:
        """A number literal, arithmetic on numbers, or a name bound once to one (`follow.NUMERIC` steps deep)."""
        if follow.spent:
            return False
        deeper = follow.deeper()
        if isinstance(expr, ast.Constant):
            return isinstance(expr.value, (int, float, complex))  # bool is an int
        if isinstance(expr, ast.UnaryOp):
            return self._numeric(expr.operand, scope, deeper)
        if isinstance(expr, ast.BinOp):
            return self._numeric(expr.left, scope, deeper) and self._numeric(expr.right, scope, deeper)
        if isinstance(expr, ast.Name):
            if self._declared(expr.id):
                return False
            binding = self.ix.single_binding(expr.id, scope)
            return binding is not None and binding.kind is BindingKind.ASSIGN and self._numeric(binding.node, binding.scope, deeper)
        return False

    def _declared(self, name: str) -> bool:
        """Whether a `nonlocal` or `global` statement of the module names `name`: the function declaring it may
        rebind it, which its scope's one binding does not show (`SCALE = 1.0`, then `global SCALE; SCALE =
        jnp.arange(1.0, 5.0)` in a setup function: breaker12 s41, the strip then raised)."""
        return name in self.ix.declared_names()

    def _call(self, call: ast.Call, env, scope) -> object:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            raise _Refused(f"the body calls {self._where(call)} with unpacked arguments")
        args = [*call.args, *(k.value for k in call.keywords)]
        qname = self.ix.qualname(call.func, scope)
        if qname is None and isinstance(call.func, ast.Attribute) and call.func.attr in jaxapi.ELEMENTWISE_METHODS:
            return self._combine(call, [call.func.value, *args], env, scope)
        if qname in _ARRAY_BUILDERS:
            if any(k.arg == "ndmin" for k in call.keywords) or len(call.args) > 4:
                # (`ndmin` adds leading dimensions, which the out_specs then split: breaker12 s03)
                raise _Refused(f"the body calls {self._where(call)} with `ndmin`: it changes the block's rank")
            return self._combine(call, args, env, scope)
        if qname in jaxapi.ELEMENTWISE_NAMES:
            return self._combine(call, args, env, scope)
        if qname in _POSITIONAL_COLLECTIVES and call.args:
            return self._kind(call.args[0], env, scope)
        name = qname or ast.unparse(call.func)
        raise _Refused(f"the body calls `{name}` (line {call.lineno}), which is not on the strip allowlist")

    def _combine(self, node: ast.AST, operands, env, scope) -> object:
        kinds = [self._kind(o, env, scope) for o in operands]
        arrays = {k for k in kinds if k != SCALAR}
        if not arrays:
            return SCALAR
        if len(arrays) > 1 and all(isinstance(k, _Block) for k in arrays) and len({k.layout for k in arrays}) == 1:
            found = sorted({k.rank for k in arrays if isinstance(k.rank, int)})
            ranks = f"of ranks {' and '.join(map(str, found))}" if len(found) > 1 else "whose ranks are not known to be equal"
            raise _Refused(
                f"the body combines blocks of two operands {ranks} at {self._where(node)}: broadcasting lines their "
                "dimensions up from the right, so once stripped they may combine other elements"
            )
        if len(arrays) > 1:
            raise _Refused(
                f"the body combines values of different layouts at {self._where(node)}: once stripped, a block "
                "no longer lines up with an operand whose spec is not stripped the same way"
            )
        return arrays.pop()


class SpecUses:
    """The other uses of the spec values a strip edits (the spec entity of strip's allowlist).

    A strip edits the `P(...)` calls its entries are written in. When such a call is reached through a name
    (`ACT = P('x', 'y')`; `in_specs=ACT`), every other read of that name sees the edit too: another
    shard_map, a `NamedSharding` placing an input, a sharding constraint. The only allowed uses are the
    stripped shard_map's own `in_specs` / `out_specs` arguments, directly or inside a tuple/list/dict that is
    itself used only there. Uses are found by scope (`spmdfix.analysis.uses`), not by name. Input: the
    module's `ModuleModel`.
    """

    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.ix = model.ix
        self.uses = model.uses

    def foreign_uses(self, roots: list[ast.AST], scope: Scope, edited: list[Span]) -> list[str]:
        """Descriptions (`\\`...\\` (line n)`) of uses outside `roots` of named values holding an edited span;
        a module-level one's reads in the modules of the project importing it are all such uses
        (`\\`...\\` (pkg/m.py line n)`: the stripped shard_map's own specs are in this module)."""
        found: list[str] = []
        allow = self._allow(roots, Follow(SPEC_ASSIGNS))
        exported: set[str] = set()
        for root in roots:
            for value in self._named_values(root, scope, edited, Follow(NAMED_SPECS), exported):
                found += [u.describe() for u in self.uses.disallowed(value, allow)]
        return sorted(set(found)) + [u for name in sorted(exported) for u in self._imported(name)]

    def unfollowed_spans(self, roots: list[ast.AST], scope: Scope, edited: list[Span]) -> list[Span]:
        """The edited spans whose holder `foreign_uses` does not search: neither inside `roots` (the specs as the
        stripped shard_map writes them) nor inside a value `_named_values` finds (a name bound to a spec or a
        container of specs, whose every use is searched). Such a spec is reached through something else: a
        class attribute (`Specs.rows`), a dataclass field's default read off an instance (`SPECS.rows` with
        `rows: P = P('x')`), a value of another module (`config.SPECS.rows`); their other reads are not
        searched, and were measured to see the strip (safety/trials/breaker12 s23, s25, k05: another
        shard_map reducing per block returned other values)."""
        here = module_path(self.model)
        holders = [self.ix.lines.span_of_ast(r) for r in roots]
        exported: set[str] = set()
        for root in roots:
            holders += [
                self.ix.lines.span_of_ast(v)
                for v in self._named_values(root, scope, edited, Follow(NAMED_SPECS), exported)
            ]
        return [e for e in edited if (e.path and e.path != here) or not any(h.contains(e) for h in holders)]

    def _imported(self, name: str) -> list[str]:
        """The reads of this module's top-level spec value `name` in the modules importing it, and the sites that
        may reach it unseen (`analysis.importers`), described."""
        project = self.model.project
        found = imported_uses(project.index, self.model, name) if project is not None else None
        if found is None:
            if project is None:
                return []  # (no project: no module can import this one)
            where = relpath(module_path(self.model))
            why = project.index.importers_unknown_why()
            return [f"the modules that may import `{name}` of {where} ({why}: not searched)"]
        out = [u.describe() for u in found.sites]
        for importer, ends in found.reads:
            out += [in_module(importer.uses.use(e), module_path(importer), importer).describe() for e in ends]
        return out

    def _named_values(
        self, expr: ast.AST, scope: Scope, edited: list[Span], follow: Follow, exported: set[str]
    ) -> list[ast.AST]:
        """The values the names inside `expr` are bound to, transitively (`follow.NAMED_SPECS` steps), that hold
        an edited span themselves or through a name they use (spec constants, spec containers); the names
        among them bound at module level are added to `exported` (other modules may import them)."""
        if follow.spent:
            return []
        out = []
        for node in ast.walk(expr):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                binding = self.ix.single_binding(node.id, self.ix.scope_at(node) if follow.depth else scope)
                if binding is None or binding.kind is not BindingKind.ASSIGN:
                    continue
                inner = self._named_values(binding.node, binding.scope, edited, follow.deeper(), exported)
                span = self.ix.lines.span_of_ast(binding.node)
                if inner or any(span.contains(e) for e in edited):
                    out += [binding.node, *inner]
                    if binding.scope is self.ix.module_scope:
                        exported.add(binding.name)
        return out

    def _allow(self, roots: list[ast.AST], follow: Follow):
        """The allowlist of the uses of a spec value: inside `roots`, or in a tuple/list/dict display that is,
        or assigned to a name whose own uses are (that many assignments deep: `follow.SPEC_ASSIGNS`)."""

        def allow(use: ast.expr, index: UseIndex) -> bool:
            node: ast.AST = use
            while True:
                if any(node is r for r in roots):
                    return True
                up = index.parent(node)
                if isinstance(up, (ast.Tuple, ast.List, ast.Dict)):
                    node = up
                    continue
                if any(self._inside(node, r) for r in roots):
                    return True
                if isinstance(up, ast.Assign) and up.value is node and not follow.spent:
                    return not index.disallowed(node, self._allow(roots, follow.deeper()))
                return False

        return allow

    def _inside(self, node: ast.AST, root: ast.AST) -> bool:
        return any(a is root for a in self.ix.ancestors(node))
