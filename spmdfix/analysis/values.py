"""Static evaluation of the few values spmdfix reasons about, with the source span behind each: the value
records, and the evaluator core that follows names to their values.

Records: mesh axis names (`AxisRef`, `AxisNames`), PartitionSpecs and pytrees of them (`SpecEntry`, `Spec`,
`SpecTree`, evaluated by `analysis.specs`), and mesh constructions (`MeshInfo`, evaluated by
`analysis.meshes`). The `Evaluator` follows an expression to the value it stands for (names assigned once,
parameters every call passes the same value, dict items, names imported from another module of the project)
and reads axis names and integers. Every function returns None (or marks the part unresolved) when the value
is not a literal visible in the module: spmdfix never guesses a value it cannot see.

Spans point at the text an edit would change: an axis string literal, a spec entry as written inside
`P(...)`, the `reshape(...)` call of a mesh's devices.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from spmdfix.analysis.bindings import Binding, BindingKind, BoundScope, Scope, param_default
from spmdfix.analysis.calls import bind_arguments, single_return
from spmdfix.analysis.follow import VALUE, Follow
from spmdfix.analysis.kinds import AxisType, AxisTypesForm, MeshKind, ShapeForm
from spmdfix.analysis.members import ClassMembers, class_attribute, function_rewritten
from spmdfix.analysis.scopes import ModuleIndex
from spmdfix.analysis.uses import Use
from spmdfix.analysis.writes import container_write, own_name_write
from spmdfix.model import Span
from spmdfix.perf import record

if TYPE_CHECKING:
    from spmdfix.analysis.index import ProjectLink

# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@record(frozen=True)
class AxisRef:
    """One mesh axis name as written: the string literal's span and its source text."""

    name: str
    span: Span
    text: str


@record(frozen=True)
class AxisNames:
    """An evaluated axis-name argument (spmd_axis_name, a spec entry).

    span: the expression as written at the use site. literal: that expression is itself a string or a
    tuple/list of strings (so its members can be edited in place); otherwise it is a name bound elsewhere.
    """

    axes: tuple[AxisRef, ...]
    span: Span
    is_tuple: bool
    literal: bool

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.axes)


@record(frozen=True)
class SpecEntry:
    """One positional entry of a PartitionSpec: None, an axis, a tuple of axes, or something unknown."""

    span: Span
    value: AxisNames | None  # None for a `None` entry or an entry that names no axis
    known: bool


@record(frozen=True)
class Spec:
    """A `PartitionSpec(...)` call with its entries."""

    span: Span
    entries: tuple[SpecEntry, ...]


@record(frozen=True)
class SpecTree:
    """All PartitionSpecs found in an in_specs/out_specs pytree, and the parts that could not be read.

    helpers: the calls of project functions the tree was read through (`rows()` returning `P('x')`): a spec
    written in such a function is shared by every call of it, so an edit of it reaches them all."""

    specs: tuple[Spec, ...]
    unresolved: tuple[Span, ...]
    helpers: tuple[Span, ...] = ()
    # (span, why in words) of each part of the tree (`unresolved`) and each `P(...)` entry that could not be
    # read, for SPMD910 records on a reached shard_map (`specs.spec_tree`; `unknown_values`)
    lost: tuple[tuple[Span, str], ...] = ()
    # the leaves of the tree that hold no spec (`None`, an inferred one), which `specs` leaves out
    empty: tuple[Span, ...] = ()

    def axes(self) -> set[str]:
        return {a.name for s in self.specs for e in s.entries if e.value for a in e.value.axes}

    def entries_naming(self, names: set[str]) -> Iterator[tuple[SpecEntry, list[str]]]:
        """Each entry that names one of `names`, with those of its axes (in entry order)."""
        for spec in self.specs:
            for entry in spec.entries:
                if entry.value is not None:
                    hit = [a for a in entry.value.names if a in names]
                    if hit:
                        yield entry, hit


@record(frozen=True)
class MeshInfo:
    """A mesh construction that the analysis resolved.

    kind: its constructor (`MeshKind`). sizes: one int per axis when the shape is literal, else None entries.
    shape_span / shape_form: where a new leading axis size goes (`ShapeForm`: the arguments of a `reshape(2,
    4)` call, a tuple/list display such as `(2, 4)`, or the devices argument of a one-axis `Mesh`, a flat
    array of devices, reshaped where it is passed); None when the shape is not editable. axis_types: the type
    of its axes together (`AxisType`: AUTO, EXPLICIT, MIXED or UNKNOWN). axis_types_span/form: how the
    argument is written (`AxisTypesForm`: a tuple display, extended by a copy of its first element, or `(A,)
    * n`, with repeat_span on `n`), or None when the argument is absent. types: AUTO, EXPLICIT or UNKNOWN per
    axis (a mixed mesh's axes differ; JAX decides per axis, e.g. whether a capture runs:
    safety/measurements/capture_explicit_mesh.py).
    """

    span: Span
    kind: MeshKind
    axis_names: tuple[str, ...]
    names_span: Span | None
    sizes: tuple[int | None, ...]
    shape_span: Span | None
    shape_form: ShapeForm | None
    axis_types: AxisType
    axis_types_span: Span | None
    axis_types_form: AxisTypesForm | None
    axis_types_first: str | None
    repeat_span: Span | None
    repeat_count: int | None
    quote: str
    flat_devices: str | None = None  # the devices argument's text, for shape_form FLAT and LIST
    # shape_form LIST: `np` when that name is numpy where the mesh is built (the edit then spells
    # `np.array(devices).reshape(1, -1)`), else None (it spells `[devices]`: no import to add)
    numpy_name: str | None = None
    # Uses of the mesh, and reads of the device array behind it, that add-axis's allowlist does not cover
    # (`spmdfix.analysis.mesh_uses`); filled in by the linter.
    reads: tuple[Use, ...] = ()
    device_reads: tuple[Use, ...] = ()
    types: tuple[AxisType, ...] = ()
    # A parameter of the function building the mesh that one of its axis names is read from (`def
    # build_mesh(dp, tp, first=DATA): return Mesh(..., (first, MODEL))`), or None: another call of the function
    # may pass the name add-axis would give the new axis (`meshes._names_parameter`).
    names_parameter: str | None = None
    # The helper whose several returns each build the mesh, every one with the same axis names for the call's
    # arguments (`meshes._several_returns`: jax's `jtu.create_mesh`): its `def`, or None (one construction).
    # No single construction to edit: the spans above are None, and add-axis refuses.
    returns_span: Span | None = None
    # The module constants add-axis edits in place of a literal at the call (leftovers7, breaker6 r21/r22): the
    # axis names (`AXES = ("data", "model")`; `names_span` is then that tuple) and the axis types
    # (`AXIS_TYPES = (AxisType.Auto, AxisType.Auto)`; `axis_types_span` is that tuple), by name, or None; and
    # every use of them off add-axis's allowlist in the project (`shard_map_facts`), filled in by the linter
    names_constant: str | None = None
    types_constant: str | None = None
    constant_reads: tuple[Use, ...] = ()
    # Which of the shape and axis names add-axis cannot extend (their spans above are None), said with where each
    # is written (`meshes._not_extendable`), or None
    not_extendable: str | None = None

    def type_of(self, axis: str) -> AxisType:
        """The type of mesh axis `axis`: AUTO, EXPLICIT, or UNKNOWN (not an axis of this mesh, or a type that
        is not a literal `AxisType.*`)."""
        if axis in self.axis_names and len(self.types) == len(self.axis_names):
            return self.types[self.axis_names.index(axis)]
        return AxisType.UNKNOWN

    def size_of(self, axis: str) -> int | None:
        if axis in self.axis_names:
            i = self.axis_names.index(axis)
            return self.sizes[i] if i < len(self.sizes) else None
        return None


def bound_for(scope: Scope | None, home: Scope | None = None) -> BoundScope | None:
    """The `BoundScope` of the function whose own scope is `home` on `scope`'s chain of parents: `scope` is
    that bound scope, or a scope nested in it as the walk sees it (`reach.Reacher._scope_in`: a lambda or
    `def` inside a function read for one call); None when no call binds `home` there. Without `home`, the
    innermost `BoundScope` on the chain (a call written in a function read for one call, or nested in one)."""
    while scope is not None:
        if type(scope) is BoundScope and (home is None or same_scope(scope.parent, home)):
            return scope
        scope = scope.parent
    return None


def same_scope(scope: Scope | None, home: Scope | None) -> bool:
    """Whether `scope` is `home` or a view of it (`reach.Reacher._scope_in`: a copy of a function's scope whose
    parent is a `BoundScope` of the function around it; same node, same bindings). A `BoundScope` of a function
    nested in a function read for one call has such a view for its parent (a decorator another module's factory
    returns, its parameter bound to the decorated `def` and the factory's to the decorator call: leftovers8)."""
    if scope is home:
        return True
    return scope is not None and home is not None and scope.node is home.node and scope.bindings is home.bindings


class Evaluator:
    """Evaluates expressions of one module (`ModuleIndex`) in a given scope: follows them to their values
    (`follow`), and reads axis names and integers. PartitionSpecs are read by `analysis.specs`, meshes by
    `analysis.meshes`, both through this evaluator. `members`: the module's class members
    (`members.ClassMembers`), for `self.NAME` inside a method; made here when not given. `elsewhere`: asked
    before a parameter is read from this module's calls (`ModuleIndex.argument_for`, `module_model._elsewhere`)."""

    def __init__(
        self,
        index: ModuleIndex,
        project: ProjectLink | None = None,
        members: ClassMembers | None = None,
        elsewhere: Callable[[str], bool] | None = None,
    ) -> None:
        self.ix = index
        self.project = project
        self.members = members if members is not None else ClassMembers(index, elsewhere)
        self.elsewhere = elsewhere

    def span(self, node: ast.AST) -> Span:
        return self.ix.lines.span_of_ast(node)

    def text(self, node: ast.AST) -> str:
        s = self.span(node)
        return self.ix.source[s.start : s.end]

    def resolve_name(self, expr: ast.AST, scope: Scope) -> tuple[ast.AST, Scope] | None:
        """Follow a Name to the one value it is assigned (module or enclosing scope); None otherwise. Past the
        budget of names (`follow.VALUE`) the name reached is given as it is."""
        follow = Follow(VALUE)
        while isinstance(expr, ast.Name) and not follow.spent:
            binding = self.ix.single_binding(expr.id, scope)
            if binding is None or binding.kind is not BindingKind.ASSIGN:
                return None
            expr, scope = binding.node, binding.scope
            follow = follow.deeper()
        return expr, scope

    def follow(self, expr: ast.AST, scope: Scope) -> tuple[Evaluator, ast.AST, Scope] | None:
        """The value `expr` stands for, with the evaluator of the module it is written in: through names
        assigned once, subscripts of dict displays (`SPECS['act']`), and (with a project index) names
        imported from another module of the project (`from .config import BATCH`, `config.BATCH`). None
        when a step is not a value visible in the source, or past the budget of steps (`follow.VALUE`)."""
        ev: Evaluator = self
        step = Follow(VALUE)
        made = None  # an attribute read through a parameter's argument (`_field_of_argument`)
        while not step.spent:
            step = step.deeper()
            if isinstance(expr, ast.Name):
                if isinstance(scope, BoundScope) and expr.id in scope.arguments and _bound_once(ev, scope, expr.id):
                    ev, expr, scope = scope.arguments[expr.id]  # a parameter of a call evaluated (`called`)
                    continue
                binding = ev.ix.single_binding(expr.id, scope)
                if binding is None:
                    return None
                if binding.kind is BindingKind.ASSIGN:
                    if binding.scope.parent is None and ev.module_name_written(expr.id) is not None:
                        return None  # `globals()[...]`, `global NAME`, `model.DATA = ...` in an importer
                    # A local of a call evaluated (`called`) is evaluated in that call: its parameters stay
                    # bound to the call's arguments (`spec = P(ax); return spec` called as `rows('data')`)
                    bound = bound_for(scope, binding.scope) if binding.scope.parent is not None else None
                    if bound is not None and expr.id in ev.ix.declared_names():
                        return None  # (a `global`/`nonlocal` statement may rebind it when the call runs: breaker18 h22)
                    expr, scope = binding.node, bound if bound is not None else binding.scope
                    continue
                if binding.kind is BindingKind.PARAM:
                    passed = ev._parameter_value(expr.id, binding, scope)
                    if passed is None:
                        return None
                    ev, expr, scope = passed
                    continue
                if binding.kind is not BindingKind.IMPORT:
                    return None
                far = ev._imported(binding.qname)
            elif isinstance(expr, ast.Attribute):
                qname = ev.ix.qualname(expr, scope)
                ours = qname is None or (ev.project is not None and ev.project.follows(qname))
                far = ev._imported(qname) if qname is not None and ours else None
                if far is None and ours and qname is None:
                    far = ev._self_attribute(expr, scope)  # `self.AXIS` inside a method of the class
                if far is None and ours:
                    far = class_attribute(ev, expr, scope)  # a class attribute, a dataclass default (`members`)
                if far is None and qname is None:
                    far = ev._field_of_argument(expr, scope)  # `cfg.data` in `def rows(cfg=CFG)`: `CFG.data`
                    if far is not None:
                        made = far[1]
                        ev, expr, scope = far
                        continue
                if far is None:
                    if expr is made:
                        return None  # (the node `_field_of_argument` made is no place in the source)
                    return (ev, expr, scope) if not ours or qname is None else None
            elif isinstance(expr, ast.Subscript):
                item = ev._dict_item(expr, scope)
                if item is None:
                    return ev, expr, scope
                ev, expr, scope = item
                continue
            else:
                return ev, expr, scope
            if far is None:
                return None
            ev, expr, scope = far
        return None

    def _parameter_value(self, name: str, binding: Binding, scope: Scope) -> tuple[Evaluator, ast.AST, Scope] | None:
        """One step of `follow` from the parameter `name` (its `binding`) read in `scope`: the argument of the
        call being read when `scope` is nested in a function read for one call (`reach.Reacher._scope_in`),
        else the one value every call of its module passes (`ModuleIndex.argument_for`; none in another
        module: `module_model._elsewhere`), else the one value every call of the project passes
        (`ProjectLink.passed_elsewhere`): the expression with the evaluator of the module it is written in and
        its scope; None when that is not known."""
        bound = bound_for(scope, binding.scope)
        if bound is not None and name in bound.arguments:
            if name in self.ix.declared_names():
                return None  # (`nonlocal i` in a nested def may rebind it first: breaker18 h16)
            return bound.arguments[name]
        passed = self.ix.argument_for(binding, self.elsewhere)
        if passed is None:
            # no call of its module, or others may call it: every call of the project
            return self.project.passed_elsewhere(binding) if self.project is not None else None
        return self, passed[0], passed[1]

    def _field_of_argument(self, expr: ast.Attribute, scope: Scope) -> tuple[Evaluator, ast.AST, Scope] | None:
        """`cfg.data` where `cfg` is a parameter (`def rows(cfg=CFG): return P(cfg.data, None)`) whose value
        `_parameter_value` knows and is a name or a dotted name (`CFG`, `config.CFG`, the default when the
        call passes none): the attribute read off that value where it is written (`CFG.data` in the module
        holding the default or the argument), a node made here for `follow` to read on (never a span: `follow`
        gives it back to no caller). Only for a parameter whose default is a name (the configuration-default
        pattern): reading every `config.field` of a parameter without one searched the project for its calls
        (maxtext's `def f(config)` everywhere: the corpus's cold run 1.3 -> 1.8 s of CPU). None when the base is
        no such parameter (a method's is not read here), or
        its value is another expression (`Cfg()` built at the call: the attribute of an instance built there is
        not read)."""
        base = expr.value
        if not isinstance(base, ast.Name):
            return None
        binding = self.ix.single_binding(base.id, scope)
        if binding is None or binding.kind is not BindingKind.PARAM:
            return None
        if not isinstance(param_default(binding), (ast.Name, ast.Attribute)):
            return None
        if binding.scope.parent is not None and binding.scope.parent.is_class:
            return None  # a method's (`self.axis`: `_self_attribute` and `members` read those, with the class's rules)
        if isinstance(scope, BoundScope) and base.id in scope.arguments and _bound_once(self, scope, base.id):
            passed = scope.arguments[base.id]
        else:
            passed = self._parameter_value(base.id, binding, scope)
        if passed is None or not isinstance(passed[1], (ast.Name, ast.Attribute)):
            return None
        ev, value, where = passed
        return ev, ast.Attribute(value=value, attr=expr.attr, ctx=ast.Load()), where

    def module_name_written(self, name: str) -> str | None:
        """Why this module's top-level `name`, bound once to a value, may hold another where it is read, in
        words (`writes`: its own text writing `globals()`, declaring `global name`, storing into its
        container; with a project, a module importing this one writing it: `ProjectLink.own_name_writer`);
        None when nothing may write it."""
        told = own_name_write(self.ix.source, name) or container_write(self.ix.source, name)
        if told is not None:
            return f"this module {told}"
        return self.project.own_name_writer(name) if self.project is not None else None

    def _self_attribute(self, expr: ast.Attribute, scope: Scope) -> tuple[Evaluator, ast.AST, Scope] | None:
        """`self.NAME` (or `cls.NAME`) read inside a method: the one value the class gives it
        (`ClassMembers.self_value`), evaluated here; None when that is not known."""
        found = self.members.self_value(expr, scope)
        return None if found is None else (self, found[0], found[1])

    def called(self, call: ast.Call, scope: Scope) -> tuple[Evaluator, ast.AST, BoundScope] | None:
        """The value a call of a project function returns: the expression of its one `return`, in a
        `BoundScope` that binds its parameters to this call's arguments (defaults included), with the
        evaluator of the module defining it (here, or another module of the project). None when the callee
        is not such a function, has no single return, or the call cannot be bound (`*args`, `**kwargs`, an
        argument the function does not take)."""
        found = self.function(call.func, scope)
        if found is None:
            return None
        home, func = found
        if function_rewritten(home, self) is not None or self._rebound(call.func, scope):
            # (`pick.__defaults__ = (2,)`, `helpers.pick = lambda ...` in a third module: the call does not run the
            # `def` as written: breaker18 h23-h26)
            return None
        returned = single_return(func)
        inner = home.ix.own_scope(func)
        if returned is None or inner is None:
            return None
        arguments = bind_arguments(self, call, scope, home, func)
        if arguments is None:
            return None
        return home, returned, BoundScope(inner.node, inner, {}, arguments)

    def _rebound(self, func: ast.AST, scope: Scope) -> bool:
        """Whether the name a call spells its callee by may be bound to another function where the call runs:
        this module's top-level name written otherwise (`module_name_written`: `globals()`, `global`, an
        importer's `main.pick = ...`), or a name of another module of the project that a module writes
        (`ProjectLink.name_writer`: `helpers.pick = ...`). Asked by `called` only: a wrapper's `def` that
        `function` finds for the vmap sites stays found (a record there would be a silence)."""
        if isinstance(func, ast.Name):
            binding = self.ix.single_binding(func.id, scope)
            if binding is None:
                return False
            if binding.kind is BindingKind.IMPORT:
                qname = binding.qname
            else:
                return binding.scope.parent is None and self.module_name_written(func.id) is not None
        else:
            qname = self.ix.qualname(func, scope)
        return self.project is not None and self.project.follows(qname) and self.project.name_writer(qname) is not None

    def function(
        self, expr: ast.AST, scope: Scope, follow: Follow | None = None
    ) -> tuple[Evaluator, ast.FunctionDef] | None:
        """The module-level `def` (not a method) a called name refers to, here or imported from another
        module of the project, with the evaluator of its module; through aliases, names bound once to such a
        name (`batched = helpers.batched`, `batched = _batched`, here or in the module imported from), within
        the budget of names (`follow.VALUE`)."""
        follow = follow or Follow(VALUE)
        if follow.spent:
            return None
        if isinstance(expr, ast.Name):
            binding = self.ix.single_binding(expr.id, scope)
            if binding is not None and binding.kind is BindingKind.DEF:
                if isinstance(binding.node, ast.FunctionDef) and not binding.scope.is_class:
                    return self, binding.node
                return None
            if binding is not None and binding.kind is BindingKind.ASSIGN and _alias(binding.node):
                return self.function(binding.node, binding.scope, follow.deeper())
            qname = binding.qname if binding is not None and binding.kind is BindingKind.IMPORT else None
        elif isinstance(expr, ast.Attribute):
            qname = self.ix.qualname(expr, scope)
        else:
            return None
        if self.project is None or not self.project.follows(qname):
            return None
        found = self.project.binding(qname)
        if found is not None and found[1].kind is BindingKind.ASSIGN and _alias(found[1].node):
            return found[0].ev.function(found[1].node, found[1].scope, follow.deeper())
        if found is None or found[1].kind is not BindingKind.DEF or not isinstance(found[1].node, ast.FunctionDef):
            return None
        return found[0].ev, found[1].node

    def _imported(self, qname: str | None) -> tuple[Evaluator, ast.AST, Scope] | None:
        """The assigned value of a module-level name of another project module (None without an index, and
        for an attribute of such a name: `config.CFG.axis` is not `CFG`'s value, `members.class_attribute`
        reads it)."""
        if self.project is None or not self.project.follows(qname):
            return None
        found = self.project.binding(qname, whole=True)
        if found is None or found[1].kind is not BindingKind.ASSIGN:
            return None
        if self.project.name_writer(qname) is not None:
            return None  # written elsewhere in another spelling (`config.DATA = ...`, `vars(config)`: writes10)
        model, binding = found
        return model.ev, binding.node, binding.scope

    def _dict_item(self, expr: ast.Subscript, scope: Scope) -> tuple[Evaluator, ast.AST, Scope] | None:
        """`D['key']` where `D` is a dict display with that string key written once."""
        key = expr.slice
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        followed = self.follow(expr.value, scope)
        if followed is None or not isinstance(followed[1], ast.Dict):
            return None
        ev, display, inner = followed
        values = [v for k, v in zip(display.keys, display.values) if isinstance(k, ast.Constant) and k.value == key.value]
        if len(values) != 1 or None in display.keys:
            return None
        return ev, values[0], inner

    # --- axis names -------------------------------------------------------------------------------
    def axis_names(self, expr: ast.AST, scope: Scope) -> AxisNames | None:
        """A string, a tuple/list of strings, or a name bound to one (here, or in another module of the
        project); None when not a literal."""
        span = self.span(expr)
        followed = self._evaluated(self.follow(expr, scope))
        if followed is None:
            return None
        ev, value, _ = followed
        literal = value is expr
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return AxisNames((ev._ref(value),), span, False, literal)
        if isinstance(value, (ast.Tuple, ast.List)):
            refs = []
            for elt in value.elts:
                item = ev.follow(elt, followed[2]) if isinstance(elt, (ast.Name, ast.Attribute)) else (ev, elt, None)
                if item is None or not (isinstance(item[1], ast.Constant) and isinstance(item[1].value, str)):
                    return None
                if literal and item[1] is not elt:
                    # A constant written in a tuple at the use site (`(DP, 'model')`): the ref points at the
                    # name as written there, so an edit replaces it there and leaves the constant, which other
                    # code may read, alone.
                    refs.append(AxisRef(item[1].value, self.span(elt), self.text(elt)))
                else:
                    refs.append(item[0]._ref(item[1]))
            return AxisNames(tuple(refs), span, True, literal)
        return None

    def _evaluated(self, followed: tuple[Evaluator, ast.AST, Scope] | None) -> tuple[Evaluator, ast.AST, Scope] | None:
        """An axis name's value `follow` stopped at, read further where it is a call of a project function with
        one return (`called`: `pick(('x', 'y'), 0)` with `def pick(names, i): return names[i]`) or an item of a
        tuple display at an integer index (`NAMES[0]`, `names[i]` with `i` bound to `0`), within the budget of
        steps (`follow.VALUE`); as it was where neither reads it (None past the budget). Only for axis names: a
        tuple cannot change, and `follow`'s other readers (meshes, callables) take a call as it is written."""
        step = Follow(VALUE)
        while followed is not None and not step.spent:
            ev, value, inner = followed
            if isinstance(value, ast.Call):
                bound = ev.called(value, inner)
                if bound is None:
                    return followed
                followed = bound[0].follow(bound[1], bound[2])
            elif isinstance(value, ast.Subscript):
                item = ev._tuple_item(value, inner)
                if item is None:
                    return followed
                followed = item[0].follow(item[1], item[2])
            else:
                return followed
            step = step.deeper()
        return None

    def _tuple_item(self, expr: ast.Subscript, scope: Scope) -> tuple[Evaluator, ast.AST, Scope] | None:
        """`T[i]` where `T` is a tuple display with no starred element and `i` an integer (`int_value`:
        through names; negative counts from the end) within its length; None otherwise (a list may change)."""
        index = self.int_value(expr.slice, scope)
        followed = self.follow(expr.value, scope)
        if index is None or followed is None or not isinstance(followed[1], ast.Tuple):
            return None
        ev, display, inner = followed
        if any(isinstance(e, ast.Starred) for e in display.elts) or not -len(display.elts) <= index < len(display.elts):
            return None
        return ev, display.elts[index], inner

    def sliced_display(self, expr: ast.Subscript, scope: Scope) -> tuple[Evaluator, list[ast.AST], Scope] | None:
        """`T[a:b]` or `T[a:b:c]`: the items of the tuple or list display `T` (through names, as `follow` reads
        it; no starred element) that the slice takes, each bound, and the step, omitted or an integer
        (`int_value`: a literal, negative counting from the end, or a name bound to one); Python's own slice
        arithmetic picks them. With the evaluator of the display's module and its scope; None when `expr` is
        no slice, a bound is not known, or the step is 0. (For `P(*AXES[:1])`, newuser15 m05: where
        `P(*AXES)` is read, a part of the same display is read alike.)"""
        cut = expr.slice
        if not isinstance(cut, ast.Slice):
            return None
        bounds = []
        for bound in (cut.lower, cut.upper, cut.step):
            value = None if bound is None else self.int_value(bound, scope)
            if bound is not None and value is None:
                return None
            bounds.append(value)
        if bounds[2] == 0:
            return None
        followed = self.follow(expr.value, scope)
        if followed is None or not isinstance(followed[1], (ast.Tuple, ast.List)):
            return None
        ev, display, inner = followed
        if any(isinstance(e, ast.Starred) for e in display.elts):
            return None
        return ev, list(display.elts[slice(*bounds)]), inner

    def _ref(self, node: ast.Constant) -> AxisRef:
        return AxisRef(node.value, self.span(node), self.text(node))

    def is_none(self, expr: ast.AST, scope: Scope) -> bool:
        followed = self.follow(expr, scope)
        return followed is not None and isinstance(followed[1], ast.Constant) and followed[1].value is None

    def truth(self, expr: ast.AST, scope: Scope, depth: int = 0) -> bool | None:
        """Whether a condition is true, when it is decided by values the evaluator reads: a constant (`True`,
        `0`, `None`, a string), a name or parameter bound to one (every call passing the same value), `not`
        of such, `X is None` / `X is not None`; None when it is not decided (spmdfix never guesses a branch)."""
        if depth > 8:
            return None
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            inner = self.truth(expr.operand, scope, depth + 1)
            return None if inner is None else not inner
        if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and isinstance(expr.ops[0], (ast.Is, ast.IsNot)):
            right = expr.comparators[0]
            if isinstance(right, ast.Constant) and right.value is None:
                left = self.follow(expr.left, scope)
                if left is None or not isinstance(left[1], ast.Constant):
                    return None
                return (left[1].value is None) is isinstance(expr.ops[0], ast.Is)
            return None
        followed = self.follow(expr, scope)
        if followed is None:
            return None
        ev, value, inner = followed
        if isinstance(value, ast.Constant):
            return bool(value.value)
        if value is not expr and isinstance(value, (ast.UnaryOp, ast.Compare)):
            return ev.truth(value, inner, depth + 1)
        return None

    # --- integers ---------------------------------------------------------------------------------
    def int_value(self, expr: ast.AST, scope: Scope) -> int | None:
        followed = self.follow(expr, scope)
        if followed is None:
            return None
        ev, value, inner = followed
        if isinstance(value, ast.Constant) and type(value.value) is int:
            return value.value
        if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
            negated = ev.int_value(value.operand, inner)
            return -negated if negated is not None else None
        return ev._len_of_display(value, inner)

    def _len_of_display(self, value: ast.AST, scope: Scope) -> int | None:
        """`len(NAMES)` of a tuple or list display with no starred element (through names: `MESH_AXES =
        ("data", "model")`), with the builtin `len` (not a name the module binds), else None."""
        if not (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "len"
            and len(value.args) == 1 and not value.keywords and not self.ix.lookup("len", scope)
        ):
            return None
        followed = self.follow(value.args[0], scope)
        if followed is None or not isinstance(followed[1], (ast.Tuple, ast.List)):
            return None
        if any(isinstance(e, ast.Starred) for e in followed[1].elts):
            return None
        return len(followed[1].elts)

    def int_tuple(self, expr: ast.AST, scope: Scope) -> tuple[int | None, ...] | None:
        followed = self.follow(expr, scope)
        if followed is None or not isinstance(followed[1], (ast.Tuple, ast.List)):
            return None
        ev, value, inner = followed
        return tuple(ev.int_value(e, inner) for e in value.elts)


def _bound_once(ev: Evaluator, scope: BoundScope, name: str) -> bool:
    """Whether the parameter `name` of the call `scope` evaluates is bound nowhere else in its function: a
    parameter the body assigns again (`if axis_types is None: axis_types = ...`, jax's `jtu.create_mesh`) may
    hold another value than the argument where it is read (`follow` then finds two bindings: not known); nor
    named by a `nonlocal` (or `global`) statement of its module (`ev`'s), whose function, nested in the one
    called, may rebind it before the read and which the function's own bindings do not show (breaker18 h16)."""
    own = scope.parent.bindings.get(name, ()) if scope.parent is not None else ()
    return len(own) <= 1 and name not in ev.ix.declared_names()


def _alias(value: ast.AST) -> bool:
    """Whether an assigned value is another name for a callable: a name or a dotted name (`helpers.batched`)."""
    return isinstance(value, ast.Name) or (isinstance(value, ast.Attribute) and isinstance(value.value, (ast.Name, ast.Attribute)))

