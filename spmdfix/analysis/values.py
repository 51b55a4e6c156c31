"""Static evaluation of the few values spmdfix reasons about, with the source span behind each.

Values: mesh axis names (`'x'`, `('x', 'y')`, names bound to them), PartitionSpecs and pytrees of them,
integer shapes, and mesh constructions (`Mesh(devices.reshape(...), names)`, `jax.make_mesh(shape, names)`).
Every function returns None (or marks the part unresolved) when the value is not a literal visible in the
module: spmdfix never guesses a value it cannot see.

Spans point at the text an edit would change: an axis string literal, a spec entry as written inside
`P(...)`, the `reshape(...)` call of a mesh's devices. Facts mirror JAX 0.10.2 (docs/jax-behaviour.md, "The
APIs involved"): `Mesh` defaults to Auto axes, `jax.make_mesh` to Explicit ones.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from spmdfix import jaxapi
from spmdfix.analysis.calls import argument
from spmdfix.analysis.follow import MESH, SPEC_TREE, VALUE, Follow
from spmdfix.analysis.kinds import AxisType, AxisTypesForm, MeshKind, ShapeForm
from spmdfix.analysis.members import class_attribute
from spmdfix.analysis.scopes import BindingKind, ModuleIndex, Scope
from spmdfix.analysis.uses import Use
from spmdfix.model import Span

if TYPE_CHECKING:
    from spmdfix.analysis.index import ProjectLink

_RESHAPE_FUNCTIONS = frozenset({"numpy.reshape", "jax.numpy.reshape"})
_ARRAY_FUNCTIONS = frozenset({"numpy.array", "numpy.asarray"})


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class AxisRef:
    """One mesh axis name as written: the string literal's span and its source text."""

    name: str
    span: Span
    text: str


@dataclass(frozen=True, slots=True, eq=False, repr=False)
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


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class SpecEntry:
    """One positional entry of a PartitionSpec: None, an axis, a tuple of axes, or something unknown."""

    span: Span
    value: AxisNames | None  # None for a `None` entry or an entry that names no axis
    known: bool


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Spec:
    """A `PartitionSpec(...)` call with its entries."""

    span: Span
    entries: tuple[SpecEntry, ...]


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class SpecTree:
    """All PartitionSpecs found in an in_specs/out_specs pytree, and the parts that could not be read."""

    specs: tuple[Spec, ...]
    unresolved: tuple[Span, ...]

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


@dataclass(frozen=True, slots=True, eq=False, repr=False)
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


class Evaluator:
    """Evaluates expressions of one module (`ModuleIndex`) in a given scope."""

    def __init__(self, index: ModuleIndex, project: ProjectLink | None = None) -> None:
        self.ix = index
        self.project = project

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
        while not step.spent:
            step = step.deeper()
            if isinstance(expr, ast.Name):
                binding = ev.ix.single_binding(expr.id, scope)
                if binding is None:
                    return None
                if binding.kind is BindingKind.ASSIGN:
                    expr, scope = binding.node, binding.scope
                    continue
                if binding.kind is BindingKind.PARAM:
                    passed = ev.ix.argument_for(binding)  # every call site passes the same value
                    if passed is None:
                        return None
                    expr, scope = passed
                    continue
                if binding.kind is not BindingKind.IMPORT:
                    return None
                far = ev._imported(binding.qname)
            elif isinstance(expr, ast.Attribute):
                qname = ev.ix.qualname(expr, scope)
                ours = qname is None or (ev.project is not None and ev.project.follows(qname))
                far = ev._imported(qname) if qname is not None and ours else None
                if far is None and ours:
                    far = class_attribute(ev, expr, scope)  # a class attribute, a dataclass default (`members`)
                if far is None:
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

    def _imported(self, qname: str | None) -> tuple[Evaluator, ast.AST, Scope] | None:
        """The assigned value of a module-level name of another project module (None without an index)."""
        if self.project is None or not self.project.follows(qname):
            return None
        found = self.project.binding(qname)
        if found is None or found[1].kind is not BindingKind.ASSIGN:
            return None
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
        followed = self.follow(expr, scope)
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

    def _ref(self, node: ast.Constant) -> AxisRef:
        return AxisRef(node.value, self.span(node), self.text(node))

    def is_none(self, expr: ast.AST, scope: Scope) -> bool:
        followed = self.follow(expr, scope)
        return followed is not None and isinstance(followed[1], ast.Constant) and followed[1].value is None

    # --- PartitionSpecs ---------------------------------------------------------------------------
    def is_partition_spec(self, func: ast.AST, scope: Scope) -> bool:
        return self.ix.qualname(func, scope) in jaxapi.PARTITION_SPEC_NAMES

    def spec_tree(self, expr: ast.AST | None, scope: Scope) -> SpecTree:
        """Every PartitionSpec in a specs pytree (a spec, tuple/list/dict of them, names bound to them)."""
        specs: list[Spec] = []
        unresolved: list[Span] = []
        if expr is not None:
            self._collect_specs(expr, scope, specs, unresolved, Follow(SPEC_TREE))
        return SpecTree(tuple(specs), tuple(unresolved))

    def sharding_tree(self, expr: ast.AST | None, scope: Scope) -> SpecTree:
        """Every PartitionSpec in a shardings pytree, as `jax.jit`'s `in_shardings` / `out_shardings` take it:
        `NamedSharding(mesh, P(...))` (its spec), a bare `P(...)` (under a context mesh), `None`, and
        tuples/lists/dicts of them and names bound to them. Any other sharding (a call spmdfix does not
        model, a parameter, `SingleDeviceSharding(...)`) is in `unresolved`."""
        specs: list[Spec] = []
        unresolved: list[Span] = []
        if expr is not None:
            self._collect_specs(expr, scope, specs, unresolved, Follow(SPEC_TREE), shardings=True)
        return SpecTree(tuple(specs), tuple(unresolved))

    def _collect_specs(self, expr, scope, specs, unresolved, follow: Follow, shardings: bool = False) -> None:
        if follow.spent:
            unresolved.append(self.span(expr))
            return
        if isinstance(expr, (ast.Name, ast.Subscript)) or (
            isinstance(expr, ast.Attribute) and self.ix.qualname(expr, scope) not in jaxapi.INFER_NAMES
        ):
            followed = self.follow(expr, scope)
            if followed is None or followed[1] is expr:
                unresolved.append(self.span(expr))
                return
            ev, value, inner = followed
            ev._collect_specs(value, inner, specs, unresolved, follow.deeper(), shardings)
        elif isinstance(expr, (ast.Tuple, ast.List)):
            for elt in expr.elts:
                self._collect_specs(elt, scope, specs, unresolved, follow.deeper(), shardings)
        elif isinstance(expr, ast.Dict):
            for value in expr.values:
                self._collect_specs(value, scope, specs, unresolved, follow.deeper(), shardings)
        elif isinstance(expr, ast.Constant) and expr.value is None:
            return
        elif shardings and isinstance(expr, ast.Call) and self.ix.qualname(expr.func, scope) in jaxapi.NAMED_SHARDING_NAMES:
            spec = argument(expr, 1, "spec")
            if spec is None or any(isinstance(a, ast.Starred) for a in expr.args) or any(k.arg is None for k in expr.keywords):
                unresolved.append(self.span(expr))
            else:
                self._collect_specs(spec, scope, specs, unresolved, follow.deeper())
        elif isinstance(expr, ast.Call) and self.is_partition_spec(expr.func, scope):
            spec = self._spec(expr, scope)
            if spec is None:
                unresolved.append(self.span(expr))
            else:
                specs.append(spec)
        elif self.ix.qualname(expr, scope) in jaxapi.INFER_NAMES:
            return
        else:
            unresolved.append(self.span(expr))

    def _spec(self, call: ast.Call, scope: Scope) -> Spec | None:
        if call.keywords:
            return None
        args: list[ast.AST] = []
        for arg in call.args:
            if not isinstance(arg, ast.Starred):
                args.append(arg)
                continue
            # `P(*['x', None])`, `P(*ENTRIES)`: the entries of a display of this module, edited in place there.
            followed = self.follow(arg.value, scope)
            if followed is None or followed[0] is not self or not isinstance(followed[1], (ast.Tuple, ast.List)):
                return None
            if any(isinstance(e, ast.Starred) for e in followed[1].elts):
                return None
            args.extend(followed[1].elts)
        entries = []
        for arg in args:
            if self.is_none(arg, scope):
                entries.append(SpecEntry(self.span(arg), None, True))
                continue
            value = self.axis_names(arg, scope)
            if value is None:
                # P.UNCONSTRAINED and other non-axis entries name no axis; anything else is unknown.
                known = isinstance(arg, ast.Attribute) and arg.attr == "UNCONSTRAINED"
                entries.append(SpecEntry(self.span(arg), None, known))
            else:
                entries.append(SpecEntry(self.span(arg), value, True))
        return Spec(self.span(call), tuple(entries))

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
        return None

    def int_tuple(self, expr: ast.AST, scope: Scope) -> tuple[int | None, ...] | None:
        followed = self.follow(expr, scope)
        if followed is None or not isinstance(followed[1], (ast.Tuple, ast.List)):
            return None
        ev, value, inner = followed
        return tuple(ev.int_value(e, inner) for e in value.elts)

    # --- meshes -----------------------------------------------------------------------------------
    def mesh(self, expr: ast.AST, scope: Scope) -> MeshInfo | None:
        """Resolve a mesh expression to its construction, here or in another module of the project, or
        None (see `mesh_site`)."""
        found = self.mesh_site(expr, scope)
        if found is None:
            return None
        ev, call, scope = found
        if ev.ix.qualname(call.func, scope) in jaxapi.MESH_NAMES:
            return ev._mesh_ctor(call, scope)
        return ev._make_mesh(call, scope)

    def mesh_call(self, expr: ast.AST, scope: Scope) -> tuple[ast.Call, Scope] | None:
        """The `Mesh(...)` / `jax.make_mesh(...)` call a mesh expression evaluates when it is written in this
        module, with its scope, or None (see `mesh_site`)."""
        found = self.mesh_site(expr, scope)
        if found is None or found[0] is not self:
            return None
        return found[1], found[2]

    def mesh_site(
        self, expr: ast.AST, scope: Scope, follow: Follow | None = None
    ) -> tuple[Evaluator, ast.Call, Scope] | None:
        """The `Mesh(...)` / `jax.make_mesh(...)` call a mesh expression evaluates, with the evaluator of the
        module it is written in and its scope, or None.

        Resolved: a name bound (module or enclosing scope, or imported from another module of the project)
        to such a call, directly or through a function whose one return value is one (a function of this
        module may take arguments: its parameters resolve to what every call passes). A parameter of the
        checked function itself is not resolved. `follow`: the walk so far (`follow.MESH`).
        """
        follow = follow or Follow(MESH)
        if follow.spent:
            return None
        followed = self.follow(expr, scope)
        if followed is None or not isinstance(followed[1], ast.Call):
            return None
        ev, call, scope = followed
        if ev is not self:
            return ev.mesh_site(call, scope, follow.deeper())
        qname = self.ix.qualname(call.func, scope)
        if qname in jaxapi.MESH_NAMES or qname in jaxapi.MAKE_MESH_NAMES:
            return self, call, scope
        made = self._function(call.func, scope)
        # A helper that builds the mesh: without arguments (here or in another module), or with arguments
        # when it is defined here. Its parameters then resolve to the value every call of it in this module
        # passes (`ModuleIndex.argument_for`: `build_mesh(dp=2, tp=4)` called once gives `(2, 4)`; callers
        # that disagree leave the sizes unknown). A helper of another module is not: calls elsewhere in the
        # project may pass other values.
        if made is not None and (made[0] is self or (not call.args and not call.keywords)):
            ev, func = made
            returned = single_return(func)
            inner = ev.ix.own_scope(func)
            if returned is not None and inner is not None:
                return ev.mesh_site(returned, inner, follow.deeper())
        return None

    def _function(self, expr: ast.AST, scope: Scope) -> tuple[Evaluator, ast.AST] | None:
        """The `def` a called name refers to, here or imported from another module of the project."""
        if isinstance(expr, ast.Name):
            binding = self.ix.single_binding(expr.id, scope)
            if binding is not None and binding.kind is BindingKind.DEF:
                return self, binding.node
            qname = binding.qname if binding is not None and binding.kind is BindingKind.IMPORT else None
        elif isinstance(expr, ast.Attribute):
            qname = self.ix.qualname(expr, scope)
        else:
            return None
        if self.project is None or not self.project.follows(qname):
            return None
        found = self.project.binding(qname)
        if found is None or found[1].kind is not BindingKind.DEF:
            return None
        return found[0].ev, found[1].node

    def _mesh_ctor(self, call: ast.Call, scope: Scope) -> MeshInfo | None:
        devices = argument(call, 0, "devices")
        names_expr = argument(call, 1, "axis_names")
        if devices is None or names_expr is None:
            return None
        names = self.axis_names(names_expr, scope)
        if names is None:
            return None
        sizes, shape_span, shape_form = self._device_shape(devices, scope, len(names.axes))
        info = self._mesh_info(call, scope, MeshKind.MESH, names, names_expr, sizes, shape_span, shape_form, AxisType.AUTO)
        if shape_form is ShapeForm.LIST:
            numpy = "np" if self.ix.qualname(ast.Name("np", ast.Load()), scope) == "numpy" else None
            return replace(info, flat_devices=self.text(devices), numpy_name=numpy)
        return replace(info, flat_devices=self.text(devices)) if shape_form is ShapeForm.FLAT else info

    def _make_mesh(self, call: ast.Call, scope: Scope) -> MeshInfo | None:
        shape_expr = argument(call, 0, "axis_shapes")
        names_expr = argument(call, 1, "axis_names")
        if shape_expr is None or names_expr is None:
            return None
        names = self.axis_names(names_expr, scope)
        if names is None:
            return None
        shape = self.int_tuple(shape_expr, scope)
        sizes = shape if shape is not None else (None,) * len(names.axes)
        shape_span = self.span(shape_expr) if isinstance(shape_expr, (ast.Tuple, ast.List)) else None
        form = ShapeForm.SEQ if shape_span else None
        return self._mesh_info(
            call, scope, MeshKind.MAKE_MESH, names, names_expr, sizes, shape_span, form, AxisType.EXPLICIT
        )

    def _device_shape(self, devices, scope, rank):
        """Sizes and editable shape of a Mesh's devices: `x.reshape(2, 4)`, `np.reshape(x, (2, 4))`,
        `create_device_mesh((2, 4))`, directly or through a name; or, for a one-axis mesh over a flat
        `np.array(jax.devices()...)`, the devices argument itself (form FLAT: add-axis reshapes it in place,
        `devs` -> `devs.reshape(1, -1)`, so nothing else that reads the array changes); or, for a one-axis mesh
        over the device list `jax.devices()` / `jax.devices()[:n]` itself, that argument (form LIST: a list
        has no `reshape`, add-axis makes it 2-D where it is passed; measured,
        safety/measurements/add_axis_device_list_mesh.py)."""
        unknown = ((None,) * rank, None, None)
        resolved = self.resolve_name(devices, scope)
        if resolved is not None and rank == 1:
            listed = self._device_list_size(*resolved)
            if listed is not False:
                return (listed,), self.span(devices), ShapeForm.LIST
        if resolved is None or not isinstance(resolved[0], ast.Call):
            return unknown
        call, scope = resolved
        qname = self.ix.qualname(call.func, scope)
        if rank == 1 and qname in _ARRAY_FUNCTIONS and call.args:
            flat = self._device_list_size(call.args[0], scope)
            if flat is not False:
                return (flat,), self.span(devices), ShapeForm.FLAT
        if qname in _RESHAPE_FUNCTIONS:
            shape = argument(call, 1, "newshape") or argument(call, 1, "shape")
            return self._shape_display(shape, scope) or unknown
        if isinstance(call.func, ast.Attribute) and call.func.attr == "reshape" and qname is None and call.args:
            # The array method: `devices.reshape(2, 4)` or `devices.reshape((2, 4))`.
            if len(call.args) == 1 and isinstance(call.args[0], (ast.Tuple, ast.List)):
                return self._shape_display(call.args[0], scope) or unknown
            if not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args):
                return tuple(self.int_value(a, scope) for a in call.args), self.span(call), ShapeForm.ARGS
            return unknown
        if qname in jaxapi.CREATE_DEVICE_MESH_NAMES:
            return self._shape_display(argument(call, 0, "mesh_shape"), scope) or unknown
        return unknown

    def _device_list_size(self, expr: ast.AST, scope: Scope) -> int | None | bool:
        """`jax.devices()` (size unknown: None) or `jax.devices()[:n]` / `[a:b]` (its size when literal);
        False for anything else."""
        if isinstance(expr, ast.Call) and not expr.args and self.ix.qualname(expr.func, scope) in jaxapi.DEVICES_NAMES:
            return None
        if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice) and expr.slice.step is None:
            if self._device_list_size(expr.value, scope) is not None:
                return False
            lower = self.int_value(expr.slice.lower, scope) if expr.slice.lower is not None else 0
            upper = self.int_value(expr.slice.upper, scope) if expr.slice.upper is not None else None
            if lower is not None and lower >= 0 and upper is not None and upper > lower:
                return upper - lower
            return None
        return False

    def _shape_display(self, shape, scope):
        if isinstance(shape, (ast.Tuple, ast.List)):
            return tuple(self.int_value(e, scope) for e in shape.elts), self.span(shape), ShapeForm.SEQ
        return None

    def _mesh_info(self, call, scope, kind, names, names_expr, sizes, shape_span, shape_form, default_types):
        types_expr = argument(call, 2, "axis_types")
        axis_types, form, first, repeat_span, repeat_count = default_types, None, None, None, None
        types = (default_types,) * len(names.names)
        if types_expr is not None and not self.is_none(types_expr, scope):
            axis_types, form, first, repeat_span, repeat_count = self._axis_types(types_expr, scope)
            types = self._per_axis_types(types_expr, scope, len(names.names))
        quote = next((a.text[0] for a in names.axes if a.text[:1] in ("'", '"')), "'")
        names_span = self.span(names_expr) if isinstance(names_expr, (ast.Tuple, ast.List)) else None
        return MeshInfo(
            span=self.span(call),
            kind=kind,
            axis_names=names.names,
            names_span=names_span,
            sizes=tuple(sizes),
            shape_span=shape_span,
            shape_form=shape_form,
            axis_types=axis_types,
            axis_types_span=self.span(types_expr) if types_expr is not None else None,
            axis_types_form=form,
            axis_types_first=first,
            repeat_span=repeat_span,
            repeat_count=repeat_count,
            quote=quote,
            types=types,
        )

    def _per_axis_types(self, expr: ast.AST, scope: Scope, count: int) -> tuple[AxisType, ...]:
        """One type per axis of an axis_types argument (`(A, B)` or `(A,) * n`); UNKNOWN for every axis when
        the argument is not one of these displays or its length differs from the number of axes."""
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
            seq, n = expr.left, expr.right
            if isinstance(seq, (ast.Tuple, ast.List)) and len(seq.elts) == 1 and isinstance(n, ast.Constant):
                elts = list(seq.elts) * n.value if type(n.value) is int else []
            else:
                elts = []
        elif isinstance(expr, (ast.Tuple, ast.List)):
            elts = list(expr.elts)
        else:
            elts = []
        if len(elts) != count:
            return (AxisType.UNKNOWN,) * count
        return tuple(self._type_kinds([e], scope) for e in elts)

    def _axis_types(self, expr: ast.AST, scope: Scope):
        """Classify an axis_types argument: (kind, form, first element text, repeat span, repeat count)."""
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
            seq, count = expr.left, expr.right
            if isinstance(seq, (ast.Tuple, ast.List)) and len(seq.elts) == 1 and isinstance(count, ast.Constant):
                kind = self._type_kinds(seq.elts, scope)
                return kind, AxisTypesForm.REPEAT, self.text(seq.elts[0]), self.span(count), count.value
            return AxisType.UNKNOWN, None, None, None, None
        if isinstance(expr, (ast.Tuple, ast.List)) and expr.elts:
            return self._type_kinds(expr.elts, scope), AxisTypesForm.SEQ, self.text(expr.elts[0]), None, None
        return AxisType.UNKNOWN, None, None, None, None

    def _type_kinds(self, elts: list[ast.expr], scope: Scope) -> AxisType:
        kinds = set()
        for elt in elts:
            qname = self.ix.qualname(elt, scope)
            if qname in jaxapi.AXIS_TYPE_AUTO:
                kinds.add(AxisType.AUTO)
            elif qname in jaxapi.AXIS_TYPE_EXPLICIT:
                kinds.add(AxisType.EXPLICIT)
            else:
                kinds.add(AxisType.UNKNOWN)
        if AxisType.UNKNOWN in kinds:
            return AxisType.UNKNOWN
        return kinds.pop() if len(kinds) == 1 else AxisType.MIXED


def single_return(func: ast.AST) -> ast.AST | None:
    """The expression of a function's only `return` statement (nested functions ignored), or None."""
    returns: list[ast.Return] = []
    stack = list(getattr(func, "body", []))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return):
            returns.append(node)
        stack.extend(ast.iter_child_nodes(node))
    if len(returns) == 1 and returns[0].value is not None:
        return returns[0].value
    return None
