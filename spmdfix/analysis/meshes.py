"""Evaluation of mesh constructions: `Mesh(devices, names)` and `jax.make_mesh(shape, names)`, written here,
behind a name, in a helper that returns one, or in another module of the project, to a `values.MeshInfo`.

Also read here: the shape of a `Mesh`'s devices (`devices.reshape(2, 4)`, `np.reshape`, `create_device_mesh`,
a flat device array or the device list `jax.devices()[:n]` of a one-axis mesh) and its axis_types argument.
Spans point at the text add-axis would change. Facts mirror JAX 0.10.2 (docs/jax-behaviour.md, "The APIs
involved"): `Mesh` defaults to Auto axes, `jax.make_mesh` to Explicit ones. A mesh that is not visible in the
source gives None: spmdfix never guesses one.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from spmdfix import jaxapi
from spmdfix.analysis.bindings import BindingKind, Scope
from spmdfix.analysis.calls import argument, bind_arguments, returns, single_return
from spmdfix.analysis.follow import MESH, Follow
from spmdfix.analysis.kinds import AxisType, AxisTypesForm, MeshKind, ShapeForm
from spmdfix.analysis.values import AxisNames, AxisRef, BoundScope, Evaluator, MeshInfo
from spmdfix.paths import relpath

_RESHAPE_FUNCTIONS = frozenset({"numpy.reshape", "jax.numpy.reshape"})
_ARRAY_FUNCTIONS = frozenset({"numpy.array", "numpy.asarray"})


def resolve_mesh(ev: Evaluator, expr: ast.AST, scope: Scope, follow: Follow | None = None) -> MeshInfo | None:
    """Resolve a mesh expression to its construction, here or in another module of the project (see
    `mesh_site`), or to the constructions of a helper's several returns when they agree (`_several_returns`),
    or None."""
    follow = follow or Follow(MESH)
    found = mesh_site(ev, expr, scope, follow)
    if found is None:
        return _several_returns(ev, expr, scope, follow)
    home, call, scope = found
    qname = home.ix.qualname(call.func, scope)
    if qname in jaxapi.MESH_NAMES:
        return _mesh_ctor(home, call, scope)
    if qname in jaxapi.TEST_MESH_NAMES:
        return _test_mesh(home, call, scope)
    return _make_mesh(home, call, scope)


def mesh_axis_names(ev: Evaluator, expr: ast.AST, scope: Scope) -> AxisNames | None:
    """The axis names a mesh's `axis_names` gives where `expr` reads it: `mesh.axis_names` (every name, a
    tuple) or `mesh.axis_names[i]` (one, `i` an integer literal, negative counting from the end), the mesh
    resolved to its construction (`resolve_mesh`: `Mesh(devices, names)` and `jax.make_mesh(shape, names)`
    keep the names as given, in order; JAX 0.10.2). None for anything else, an index out of range, or a mesh
    not resolved. Each name's span is the expression's own (not the literal in the mesh's construction: a fix
    replaces the expression where it is written and never edits the mesh through it)."""
    index = None
    node = expr
    if isinstance(node, ast.Subscript):
        index = _int_literal(node.slice)
        if index is None:
            return None
        node = node.value
    if not (isinstance(node, ast.Attribute) and node.attr == "axis_names"):
        return None
    mesh = resolve_mesh(ev, node.value, scope)
    if mesh is None or not mesh.axis_names or not all(type(n) is str for n in mesh.axis_names):
        return None
    names = mesh.axis_names
    if index is not None:
        if not -len(names) <= index < len(names):
            return None
        names = (names[index],)
    span, text = ev.span(expr), ev.text(expr)
    return AxisNames(tuple(AxisRef(n, span, text) for n in names), span, index is None, False)


def _int_literal(node: ast.AST) -> int | None:
    """The value of an integer literal, maybe negated (`0`, `-1`); None for anything else (a bool too)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_literal(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def several_returns(
    ev: Evaluator, expr: ast.AST, scope: Scope
) -> tuple[Evaluator, ast.Call, Evaluator, ast.FunctionDef, BoundScope] | None:
    """When `expr` evaluates to a call of a project function with more than one `return` (jax's
    `jtu.create_mesh`: `Mesh(...)` in one branch, `make_mesh(...)` in the other) whose parameters can be bound
    to the call's arguments (`calls.bind_arguments`, defaults included): the evaluator of the call's module,
    the call, the evaluator of the function's module, the `def`, and the scope its returns are evaluated in
    for this call; else None."""
    followed = ev.follow(expr, scope)
    if followed is None or not isinstance(followed[1], ast.Call):
        return None
    home, call, where = followed
    made = home.function(call.func, where)
    if made is None:
        return None
    owner, func = made
    found = returns(func)
    inner = owner.ix.own_scope(func)
    if found is None or len(found) < 2 or inner is None:
        return None
    arguments = bind_arguments(home, call, where, owner, func)
    if arguments is None:
        return None
    return home, call, owner, func, BoundScope(inner.node, inner, {}, arguments)


def _several_returns(ev: Evaluator, expr: ast.AST, scope: Scope, follow: Follow) -> MeshInfo | None:
    """The mesh a helper with several returns builds for this call (`several_returns`), when every return
    resolves to a mesh (a construction, or a helper again, within `follow.MESH`) and all of them have the same
    axis names (issue 22: the `jtu.create_mesh` style). Sizes and axis types are kept per axis where every
    return agrees, else unknown (None, `AxisType.UNKNOWN`). No construction is the mesh's own: the spans add-axis
    would edit are None and `returns_span` names the helper. None when a return is not read or the axis names
    differ (the caller's SPMD910 record says so: `unknown_values`)."""
    if follow.spent:
        return None
    found = several_returns(ev, expr, scope)
    if found is None:
        return None
    home, call, owner, func, bound = found
    infos = []
    for returned in returns(func) or ():
        info = resolve_mesh(owner, returned, bound, follow.deeper())
        if info is None:
            return None
        infos.append(info)
    first = infos[0]
    if any(i.axis_names != first.axis_names for i in infos):
        return None
    count = len(first.axis_names)
    sizes = tuple(
        first.sizes[k] if all(len(i.sizes) == count and i.sizes[k] == first.sizes[k] for i in infos) else None
        for k in range(count)
    )
    types = tuple(
        t if all(len(i.types) == len(first.types) and i.types[k] == t for i in infos) else AxisType.UNKNOWN
        for k, t in enumerate(first.types)
    )
    overall = first.axis_types if all(i.axis_types == first.axis_types for i in infos) else AxisType.UNKNOWN
    return replace(
        first,
        span=home.span(call),
        names_span=None,
        sizes=sizes,
        shape_span=None,
        shape_form=None,
        axis_types=overall,
        axis_types_span=None,
        axis_types_form=None,
        axis_types_first=None,
        repeat_span=None,
        repeat_count=None,
        flat_devices=None,
        numpy_name=None,
        types=types,
        names_parameter=None,
        returns_span=owner.span(func),
    )


def mesh_call(ev: Evaluator, expr: ast.AST, scope: Scope) -> tuple[ast.Call, Scope] | None:
    """The `Mesh(...)` / `jax.make_mesh(...)` call a mesh expression evaluates when it is written in this
    module, with its scope, or None (see `mesh_site`)."""
    found = mesh_site(ev, expr, scope)
    if found is None or found[0] is not ev:
        return None
    return found[1], found[2]


def mesh_site(
    ev: Evaluator, expr: ast.AST, scope: Scope, follow: Follow | None = None
) -> tuple[Evaluator, ast.Call, Scope] | None:
    """The `Mesh(...)` / `jax.make_mesh(...)` call a mesh expression evaluates, with the evaluator of the
    module it is written in and its scope, or None.

    Resolved: a name bound (module or enclosing scope, or imported from another module of the project)
    to such a call, directly or through a function whose one return value is one (a function of this
    module may take arguments: its parameters resolve to what every call passes; one of another module
    called with arguments: to this call's, `Evaluator.called`). A parameter of the checked function itself
    is not resolved. `follow`: the walk so far (`follow.MESH`).
    """
    follow = follow or Follow(MESH)
    if follow.spent:
        return None
    followed = ev.follow(expr, scope)
    if followed is None or not isinstance(followed[1], ast.Call):
        return None
    home, call, scope = followed
    if home is not ev:
        return mesh_site(home, call, scope, follow.deeper())
    qname = ev.ix.qualname(call.func, scope)
    if qname in jaxapi.MESH_NAMES or qname in jaxapi.MAKE_MESH_NAMES or qname in jaxapi.TEST_MESH_NAMES:
        return ev, call, scope
    made = _function(ev, call.func, scope)
    # A helper that builds the mesh: without arguments (here or in another module), or with arguments
    # when it is defined here. Its parameters then resolve to the value every call of it in this module
    # passes (`ModuleIndex.argument_for`: `build_mesh(dp=2, tp=4)` called once gives `(2, 4)`; callers
    # that disagree leave the sizes unknown).
    if made is not None and (made[0] is ev or (not call.args and not call.keywords)):
        home, func = made
        returned = single_return(func)
        inner = home.ix.own_scope(func)
        if returned is not None and inner is not None:
            return mesh_site(home, returned, inner, follow.deeper())
        return None
    # A helper of another module called with arguments (`config.build_mesh(2, 4)`): its parameters are this
    # call's arguments (`Evaluator.called`: calls elsewhere in the project may pass other values, so not
    # its module's calls). add-axis's edit of the helper changes every call of it: each is the mesh for
    # the judgement (`analysis.importers`, a function returning the mesh).
    bound = ev.called(call, scope) if made is not None else None
    if bound is not None:
        home, returned, inner = bound
        return mesh_site(home, returned, inner, follow.deeper())
    return None


def _function(ev: Evaluator, expr: ast.AST, scope: Scope) -> tuple[Evaluator, ast.AST] | None:
    """The `def` a called name refers to, here or imported from another module of the project."""
    if isinstance(expr, ast.Name):
        binding = ev.ix.single_binding(expr.id, scope)
        if binding is not None and binding.kind is BindingKind.DEF:
            return ev, binding.node
        qname = binding.qname if binding is not None and binding.kind is BindingKind.IMPORT else None
    elif isinstance(expr, ast.Attribute):
        qname = ev.ix.qualname(expr, scope)
    else:
        return None
    if ev.project is None or not ev.project.follows(qname):
        return None
    found = ev.project.binding(qname)
    if found is None or found[1].kind is not BindingKind.DEF:
        return None
    return found[0].ev, found[1].node


def _mesh_ctor(ev: Evaluator, call: ast.Call, scope: Scope) -> MeshInfo | None:
    devices = argument(call, 0, "devices")
    names_expr = argument(call, 1, "axis_names")
    if devices is None or names_expr is None:
        return None
    names = ev.axis_names(names_expr, scope)
    if names is None:
        return None
    sizes, shape_span, shape_form = _device_shape(ev, devices, scope, len(names.axes))
    info = _mesh_info(
        ev, call, scope, MeshKind.MESH, names, names_expr, sizes, shape_span, shape_form, AxisType.AUTO, devices
    )
    if shape_form is ShapeForm.LIST:
        numpy = "np" if ev.ix.qualname(ast.Name("np", ast.Load()), scope) == "numpy" else None
        return replace(info, flat_devices=ev.text(devices), numpy_name=numpy)
    return replace(info, flat_devices=ev.text(devices)) if shape_form is ShapeForm.FLAT else info


def _make_mesh(ev: Evaluator, call: ast.Call, scope: Scope) -> MeshInfo | None:
    shape_expr = argument(call, 0, "axis_shapes")
    names_expr = argument(call, 1, "axis_names")
    if shape_expr is None or names_expr is None:
        return None
    names = ev.axis_names(names_expr, scope)
    if names is None:
        return None
    shape = ev.int_tuple(shape_expr, scope)
    sizes = shape if shape is not None else (None,) * len(names.axes)
    shape_span = ev.span(shape_expr) if isinstance(shape_expr, (ast.Tuple, ast.List)) else None
    form = ShapeForm.SEQ if shape_span else None
    return _mesh_info(
        ev, call, scope, MeshKind.MAKE_MESH, names, names_expr, sizes, shape_span, form, AxisType.EXPLICIT, shape_expr
    )


def _test_mesh(ev: Evaluator, call: ast.Call, scope: Scope) -> MeshInfo | None:
    """`jtu.create_mesh(mesh_shape, axis_names, iota_order=False, axis_types=None)`: its axis names, sizes and
    types (Auto unless `axis_types` is given: `jaxapi.TEST_MESH_NAMES`). Nothing of it is editable: the spans
    add-axis would extend are None (it refuses the kind)."""
    shape_expr = argument(call, 0, "mesh_shape")
    names_expr = argument(call, 1, "axis_names")
    if shape_expr is None or names_expr is None:
        return None
    names = ev.axis_names(names_expr, scope)
    if names is None:
        return None
    shape = ev.int_tuple(shape_expr, scope)
    sizes = shape if shape is not None and len(shape) == len(names.axes) else (None,) * len(names.axes)
    types_expr = argument(call, jaxapi.TEST_MESH_AXIS_TYPES_POSITION, "axis_types")
    types: tuple[AxisType, ...] = (AxisType.AUTO,) * len(names.names)
    overall = AxisType.AUTO
    if types_expr is not None and not ev.is_none(types_expr, scope):
        overall = _axis_types(ev, types_expr, scope)[0]
        types = _per_axis_types(ev, types_expr, scope, len(names.names))
    quote = next((a.text[0] for a in names.axes if a.text[:1] in ("'", '"')), None) or ev.ix.quote()
    return MeshInfo(
        span=ev.span(call),
        kind=MeshKind.TEST_MESH,
        axis_names=names.names,
        names_span=None,
        sizes=tuple(sizes),
        shape_span=None,
        shape_form=None,
        axis_types=overall,
        axis_types_span=None,
        axis_types_form=None,
        axis_types_first=None,
        repeat_span=None,
        repeat_count=None,
        quote=quote,
        types=types,
    )


def _device_shape(ev: Evaluator, devices, scope, rank):
    """Sizes and editable shape of a Mesh's devices: `x.reshape(2, 4)`, `np.reshape(x, (2, 4))`,
    `create_device_mesh((2, 4))`, directly or through a name; or, for a one-axis mesh over a flat
    `np.array(jax.devices()...)`, the devices argument itself (form FLAT: add-axis reshapes it in place,
    `devs` -> `devs.reshape(1, -1)`, so nothing else that reads the array changes); or, for a one-axis mesh
    over the device list `jax.devices()` / `jax.devices()[:n]` itself, that argument (form LIST: a list
    has no `reshape`, add-axis makes it 2-D where it is passed; measured,
    safety/measurements/add_axis_device_list_mesh.py)."""
    unknown = ((None,) * rank, None, None)
    resolved = ev.resolve_name(devices, scope)
    if resolved is not None and rank == 1:
        listed = _device_list_size(ev, *resolved)
        if listed is not False:
            return (listed,), ev.span(devices), ShapeForm.LIST
    if resolved is None or not isinstance(resolved[0], ast.Call):
        return unknown
    call, scope = resolved
    qname = ev.ix.qualname(call.func, scope)
    if rank == 1 and qname in _ARRAY_FUNCTIONS and call.args:
        flat = _device_list_size(ev, call.args[0], scope)
        if flat is not False:
            return (flat,), ev.span(devices), ShapeForm.FLAT
    if qname in _RESHAPE_FUNCTIONS:
        shape = argument(call, 1, "newshape") or argument(call, 1, "shape")
        return _shape_display(ev, shape, scope) or unknown
    if isinstance(call.func, ast.Attribute) and call.func.attr == "reshape" and qname is None and call.args:
        # The array method: `devices.reshape(2, 4)` or `devices.reshape((2, 4))`.
        if len(call.args) == 1 and isinstance(call.args[0], (ast.Tuple, ast.List)):
            return _shape_display(ev, call.args[0], scope) or unknown
        if len(call.args) == 1 and ev.int_value(call.args[0], scope) is None:
            # One argument that is not a known int: a shape through a name (`reshape(SHAPE)`,
            # `reshape(cfg.shape)`) or an int not read. Inserting a leading `1, ` would make `reshape(1, SHAPE)`,
            # a TypeError for a tuple: not an editable shape (breaker4, p11_config_instance_axes).
            return unknown
        if not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args):
            return tuple(ev.int_value(a, scope) for a in call.args), ev.span(call), ShapeForm.ARGS
        return unknown
    if qname in jaxapi.CREATE_DEVICE_MESH_NAMES:
        return _shape_display(ev, argument(call, 0, "mesh_shape"), scope) or unknown
    return unknown


def _device_list_size(ev: Evaluator, expr: ast.AST, scope: Scope) -> int | None | bool:
    """`jax.devices()` (size unknown: None) or `jax.devices()[:n]` / `[a:b]` (its size when literal);
    False for anything else."""
    if isinstance(expr, ast.Call) and not expr.args and ev.ix.qualname(expr.func, scope) in jaxapi.DEVICES_NAMES:
        return None
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice) and expr.slice.step is None:
        if _device_list_size(ev, expr.value, scope) is not None:
            return False
        lower = ev.int_value(expr.slice.lower, scope) if expr.slice.lower is not None else 0
        upper = ev.int_value(expr.slice.upper, scope) if expr.slice.upper is not None else None
        if lower is not None and lower >= 0 and upper is not None and upper > lower:
            return upper - lower
        return None
    return False


def _extendable_names(display: ast.Tuple | ast.List, names) -> bool:
    """Whether the display an axis names constant is bound to can take a new name in front: one element per
    axis name read, each a string literal or a name or attribute the reading resolved to one (`(DATA,
    MODEL)` with `DATA = "data"`: the elements stay as written, only a literal is inserted)."""
    elts = display.elts
    if len(elts) != len(names.names) or not all(isinstance(n, str) for n in names.names):
        return False
    return all(
        (isinstance(e, ast.Constant) and isinstance(e.value, str)) or isinstance(e, (ast.Name, ast.Attribute))
        for e in elts
    )


def _shape_display(ev: Evaluator, shape, scope):
    if isinstance(shape, (ast.Tuple, ast.List)):
        return tuple(ev.int_value(e, scope) for e in shape.elts), ev.span(shape), ShapeForm.SEQ
    return None


def _mesh_info(
    ev: Evaluator, call, scope, kind, names, names_expr, sizes, shape_span, shape_form, default_types, shape_expr=None
):
    types_expr = argument(call, 2, "axis_types")
    axis_types, form, first, repeat_span, repeat_count = default_types, None, None, None, None
    types = (default_types,) * len(names.names)
    if types_expr is not None and not ev.is_none(types_expr, scope):
        axis_types, form, first, repeat_span, repeat_count = _axis_types(ev, types_expr, scope)
        types = _per_axis_types(ev, types_expr, scope, len(names.names))
    quote = next((a.text[0] for a in names.axes if a.text[:1] in ("'", '"')), None) or ev.ix.quote()
    names_span = ev.span(names_expr) if isinstance(names_expr, (ast.Tuple, ast.List)) else None
    names_constant = types_constant = None
    types_span = ev.span(types_expr) if types_expr is not None else None
    named = module_constant(ev, names_expr, scope) if names_span is None else None
    if named is not None and _extendable_names(named[1], names):
        # `AXES = ("data", "model")` (or `(DATA, MODEL)`, names of string constants) passed by name: add-axis
        # extends the constant (its other uses are judged)
        names_span, names_constant = named[0].span(named[1]), named[2]
        if form is None and _repeats_len_of(ev, types_expr, scope, named[1]):
            form = AxisTypesForm.REPEAT_LEN  # `(AxisType.Auto,) * len(AXES)`: grows with AXES
    if form is None and types_expr is not None and not ev.is_none(types_expr, scope):
        typed = module_constant(ev, types_expr, scope)
        if typed is not None and typed[1].elts:
            # `AXIS_TYPES = (AxisType.Auto, AxisType.Auto)` passed by name: extended by a copy of its first element
            form, first, types_span, types_constant = AxisTypesForm.SEQ, typed[0].text(typed[1].elts[0]), typed[0].span(typed[1]), typed[2]
    names_parameter = _names_parameter(ev, names_expr, ev.ix.scope_at(call), Follow(MESH))
    return MeshInfo(
        not_extendable=_not_extendable(ev, scope, kind, shape_expr, shape_span, names_expr, names_span),
        names_constant=names_constant,
        types_constant=types_constant,
        names_parameter=names_parameter,
        span=ev.span(call),
        kind=kind,
        axis_names=names.names,
        names_span=names_span,
        sizes=tuple(sizes),
        shape_span=shape_span,
        shape_form=shape_form,
        axis_types=axis_types,
        axis_types_span=types_span,
        axis_types_form=form,
        axis_types_first=first,
        repeat_span=repeat_span,
        repeat_count=repeat_count,
        quote=quote,
        types=types,
    )


def _not_extendable(ev: Evaluator, scope: Scope, kind: MeshKind, shape_expr, shape_span, names_expr, names_span) -> str | None:
    """Which of a mesh construction's shape and axis names add-axis cannot extend, and where each is written
    (`MeshInfo.not_extendable`), or None when both can be: newuser11's trial was told "the mesh's shape or axis
    names are not literals" of `jax.make_mesh(MESH_SHAPE, AXES, ...)`, its `MESH_SHAPE = (2, 4)` in config.py."""
    parts = []
    if shape_span is None and shape_expr is not None:
        what = "devices" if kind is MeshKind.MESH else "shape"
        text = f"its {what} `{ev.text(shape_expr)}` ({_place(ev, shape_expr)})"
        bound = module_constant(ev, shape_expr, scope)
        if bound is not None:
            text += f", a name for `{bound[0].text(bound[1])}` ({_place(bound[0], bound[1])})"
        if kind is MeshKind.MESH:
            text += ", not an array reshaped there to literal sizes (`devices.reshape(2, 4)`)"
        else:
            text += ", not a tuple written at the construction"
        parts.append(text)
    if names_span is None and names_expr is not None:
        parts.append(
            f"its axis names `{ev.text(names_expr)}` ({_place(ev, names_expr)}), neither a tuple written there nor "
            "a module constant bound once to one"
        )
    if not parts:
        return None
    return "the mesh cannot be extended where it is built: " + "; ".join(parts)


def _place(ev: Evaluator, node: ast.AST) -> str:
    """`src/pkg/config.py line 8` (the module of `ev`, relative to the working directory), or `line 8`."""
    return f"{relpath(ev.ix.path)} line {node.lineno}" if ev.ix.path else f"line {node.lineno}"


def module_constant(ev: Evaluator, expr: ast.AST | None, scope: Scope) -> tuple[Evaluator, ast.Tuple | ast.List, str] | None:
    """The tuple or list display a mesh argument written as a name is, when that name is a module-level constant
    bound once by a plain `NAME = (...)` (here, or in another module of the project it is imported from:
    `AXES`, `config.AXES`), with the evaluator of its module and the constant's name; None otherwise (through
    another name, a parameter, an attribute of a class, an annotated or unpacking assignment)."""
    if not isinstance(expr, (ast.Name, ast.Attribute)):
        return None
    followed = ev.follow(expr, scope)
    if followed is None or not isinstance(followed[1], (ast.Tuple, ast.List)):
        return None
    home, display, _ = followed
    stmt = home.ix.parent.get(id(display))
    if not (isinstance(stmt, ast.Assign) and stmt.value is display and len(stmt.targets) == 1):
        return None
    target = stmt.targets[0]
    if not isinstance(target, ast.Name) or home.ix.scope_at(stmt) is not home.ix.module_scope:
        return None
    binding = home.ix.single_binding(target.id, home.ix.module_scope)
    if binding is None or binding.node is not display:
        return None
    return home, display, target.id


def _repeats_len_of(ev: Evaluator, types_expr: ast.AST | None, scope: Scope, display: ast.AST) -> bool:
    """Whether `types_expr` is `(A,) * len(X)` with `X` the module constant bound to `display`."""
    if not (isinstance(types_expr, ast.BinOp) and isinstance(types_expr.op, ast.Mult)):
        return False
    seq, count = types_expr.left, types_expr.right
    if not (isinstance(seq, (ast.Tuple, ast.List)) and len(seq.elts) == 1):
        return False
    if not (isinstance(count, ast.Call) and len(count.args) == 1 and not count.keywords):
        return False
    if not (isinstance(count.func, ast.Name) and count.func.id == "len") or ev.ix.lookup("len", scope):
        return False  # (the builtin: no binding of `len` in the module)
    found = module_constant(ev, count.args[0], scope)
    return found is not None and found[1] is display


def _names_parameter(ev: Evaluator, expr: ast.AST, scope: Scope, follow: Follow) -> str | None:
    """The parameter of an enclosing function that a name written in a mesh's axis names argument is, or is
    bound to through local names (`(first, MODEL)` in `def build_mesh(dp, tp, first=DATA)`), else None. The
    axis names are read for one call (its arguments, or the one value every call of the module passes); another
    call, here or in another module, may pass other names, among them the one add-axis would give its new axis
    (measured: `Mesh(devs.reshape(1, 4, 2), ('batch', 'batch', 'model'))` builds, and a shard_map over it with
    `P('batch')` raises DuplicateSpecError; golden/refuse/tree_mesh_helper_axis_name_parameter)."""
    if follow.spent:
        return None
    for node in ast.walk(expr):
        if not isinstance(node, ast.Name):
            continue
        for binding in ev.ix.lookup(node.id, scope):
            if binding.kind is BindingKind.PARAM:
                return binding.name
            if binding.kind is BindingKind.ASSIGN and binding.scope is not ev.ix.module_scope:
                found = _names_parameter(ev, binding.node, binding.scope, follow.deeper())
                if found is not None:
                    return found
    return None


def _per_axis_types(ev: Evaluator, expr: ast.AST, scope: Scope, count: int) -> tuple[AxisType, ...]:
    """One type per axis of an axis_types argument (`(A, B)` or `(A,) * n`, or a name bound to one: `AXIS_TYPES`,
    here or in another module); UNKNOWN for every axis when the argument is not one of these or its length
    differs from the number of axes. `n` may be any int the evaluator reads (`len(MESH_AXES)`)."""
    followed = _types_display(ev, expr, scope)
    if followed is not None and followed[1] is not expr:
        return _per_axis_types(*followed, count)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        seq, n = expr.left, ev.int_value(expr.right, scope)
        if isinstance(seq, (ast.Tuple, ast.List)) and len(seq.elts) == 1 and n is not None:
            elts = list(seq.elts) * n
        else:
            elts = []
    elif isinstance(expr, (ast.Tuple, ast.List)):
        elts = list(expr.elts)
    else:
        elts = []
    if len(elts) != count:
        return (AxisType.UNKNOWN,) * count
    return tuple(_type_kinds(ev, [e], scope) for e in elts)


def _axis_types(ev: Evaluator, expr: ast.AST, scope: Scope):
    """Classify an axis_types argument: (kind, form, first element text, repeat span, repeat count). A name
    bound to a display (`axis_types=AXIS_TYPES`), or a repeat whose count is not a literal
    (`(AxisType.Auto,) * len(MESH_AXES)`), gives its kind with no form: add-axis does not extend it there
    (breaker5's q13, q40: their Auto meshes were read as of unknown types)."""
    followed = _types_display(ev, expr, scope)
    if followed is not None and followed[1] is not expr:
        return _axis_types(*followed)[0], None, None, None, None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        seq, count = expr.left, expr.right
        if isinstance(seq, (ast.Tuple, ast.List)) and len(seq.elts) == 1 and isinstance(count, ast.Constant):
            kind = _type_kinds(ev, seq.elts, scope)
            return kind, AxisTypesForm.REPEAT, ev.text(seq.elts[0]), ev.span(count), count.value
        if isinstance(seq, (ast.Tuple, ast.List)) and len(seq.elts) == 1 and ev.int_value(count, scope) is not None:
            return _type_kinds(ev, seq.elts, scope), None, None, None, None
        return AxisType.UNKNOWN, None, None, None, None
    if isinstance(expr, (ast.Tuple, ast.List)) and expr.elts:
        return _type_kinds(ev, expr.elts, scope), AxisTypesForm.SEQ, ev.text(expr.elts[0]), None, None
    return AxisType.UNKNOWN, None, None, None, None


def _types_display(ev: Evaluator, expr: ast.AST, scope: Scope) -> tuple[Evaluator, ast.AST, Scope] | None:
    """The display a name (or module attribute) passed as `axis_types` is bound to, with the evaluator and
    scope to read it in (`Evaluator.follow`); None when `expr` is no name or is not bound to a tuple, list or
    repeat."""
    if not isinstance(expr, (ast.Name, ast.Attribute)):
        return None
    followed = ev.follow(expr, scope)
    if followed is None or not isinstance(followed[1], (ast.Tuple, ast.List, ast.BinOp)):
        return None
    return followed


def _type_kinds(ev: Evaluator, elts: list[ast.expr], scope: Scope) -> AxisType:
    kinds = set()
    for elt in elts:
        qname = ev.ix.qualname(elt, scope)
        if qname in jaxapi.AXIS_TYPE_AUTO:
            kinds.add(AxisType.AUTO)
        elif qname in jaxapi.AXIS_TYPE_EXPLICIT:
            kinds.add(AxisType.EXPLICIT)
        else:
            kinds.add(AxisType.UNKNOWN)
    if AxisType.UNKNOWN in kinds:
        return AxisType.UNKNOWN
    return kinds.pop() if len(kinds) == 1 else AxisType.MIXED

