"""Evaluation of PartitionSpecs: a `P(...)` call, and the pytrees of them that in_specs/out_specs and
`jax.jit`'s shardings take, with the span behind each entry.

Each function takes the `values.Evaluator` of the module the expression is written in, and follows names
through it (here, or into another module of the project). What cannot be read is listed in the tree's
`unresolved` spans, never guessed: spmdfix reports it (SPMD910).
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.bindings import Scope
from spmdfix.analysis.calls import argument
from spmdfix.analysis.follow import SPEC_TREE, Follow
from spmdfix.analysis.meshes import mesh_axis_names
from spmdfix.analysis.unknown_values import why_unknown
from spmdfix.analysis.uses import short
from spmdfix.analysis.values import Evaluator, Spec, SpecEntry, SpecTree
from spmdfix.model import Span


def is_partition_spec(ev: Evaluator, func: ast.AST, scope: Scope) -> bool:
    """Whether `func` names `PartitionSpec` (or an alias of it) where it is written."""
    return ev.ix.qualname(func, scope) in jaxapi.PARTITION_SPEC_NAMES


def spec_tree(ev: Evaluator, expr: ast.AST | None, scope: Scope) -> SpecTree:
    """Every PartitionSpec in a specs pytree (a spec, tuple/list/dict of them, names bound to them)."""
    specs: list[Spec] = []
    unresolved: list[Span] = []
    helpers: list[Span] = []
    lost: list[tuple[Span, str]] = []
    empty: list[Span] = []
    if expr is not None:
        _collect_specs(ev, expr, scope, specs, unresolved, Follow(SPEC_TREE), helpers=helpers, lost=lost, empty=empty)
    return SpecTree(tuple(specs), tuple(unresolved), tuple(helpers), tuple(lost), tuple(empty))


def sharding_tree(ev: Evaluator, expr: ast.AST | None, scope: Scope) -> SpecTree:
    """Every PartitionSpec in a shardings pytree, as `jax.jit`'s `in_shardings` / `out_shardings` take it:
    `NamedSharding(mesh, P(...))` (its spec), a bare `P(...)` (under a context mesh), `None`, and
    tuples/lists/dicts of them and names bound to them. Any other sharding (a call spmdfix does not
    model, a parameter, `SingleDeviceSharding(...)`) is in `unresolved`, and with why in `lost` (a reshard's
    spec is an SPMD910 record where the batch is placed on Explicit axes: `unread_matters.records`)."""
    specs: list[Spec] = []
    unresolved: list[Span] = []
    helpers: list[Span] = []
    lost: list[tuple[Span, str]] = []
    if expr is not None:
        _collect_specs(ev, expr, scope, specs, unresolved, Follow(SPEC_TREE), shardings=True, helpers=helpers, lost=lost)
    return SpecTree(tuple(specs), tuple(unresolved), tuple(helpers), tuple(lost))


def logical_constraint_tree(ev: Evaluator, call: ast.Call) -> SpecTree:
    """The spec of a Flax logical-axis constraint (`nn.with_logical_constraint(x, ('batch', 'embed'))`,
    `jaxapi.LOGICAL_CONSTRAINT_NAMES`), never read: its logical names become mesh axes by the rules in force when
    it runs (`nn.logical_axis_rules(...)` around the call, or its `rules=`), so whether it names the spmd axis
    is not known statically. The whole argument is in `unresolved`, with why in `lost` (an SPMD910 record)."""
    names = argument(call, 1, "logical_axis_resources")
    where = ev.span(names if names is not None else call)
    shown = f"`{short(names)}`" if names is not None else "its logical axis names"
    why = (
        f"the logical axes {shown} of `{short(call.func)}(...)` are not known as mesh axes: the logical axis "
        "rules in force when it runs (`nn.logical_axis_rules(...)`, or its `rules=`) map them, and spmdfix does "
        "not read those"
    )
    return SpecTree((), (where,), (), ((where, why),))


def partitioned_param_tree(ev: Evaluator, call: ast.Call, scope: Scope, spmd: frozenset[str], logical: bool) -> SpecTree | None:
    """The names of a parameter annotated for the mesh inside the vmapped function (`nn.with_partitioning(init,
    ('data', None))`, `nnx.with_partitioning(...)`, the logical `nn.with_logical_partitioning(...)`:
    `jaxapi.PARTITIONED_PARAM_NAMES`), as an unread tree (an SPMD910 record) when they may name an axis of
    `spmd`: flax constrains the parameter to them when a mesh is set where it runs, which is not known
    statically. None when every name is read and none is an spmd axis (a logical one: every entry None)."""
    names = argument(call, 1, "sharding" if "nnx" in (ev.ix.qualname(call.func, scope) or "") else "names")
    if names is None:
        return None
    followed = ev.follow(names, scope)
    value = followed[1] if followed is not None else None
    hit: list[str] = []
    named = False  # (a logical name: any entry not None)
    unread = not isinstance(value, (ast.Tuple, ast.List))
    if not unread:
        far, inner = followed[0], followed[2]
        for elt in value.elts:
            if far.is_none(elt, inner):
                continue
            named = True
            read = None if logical else far.axis_names(elt, inner)
            if read is None and not logical:
                unread = True
            elif read is not None:
                hit += [n for n in read.names if n in spmd]
    if not unread and not hit and not (logical and named):
        return None
    where = ev.span(names)
    shown = f"`{short(names)}` of `{short(call.func)}(...)`"
    if logical and not unread:
        why = f"the logical axes {shown} become mesh axes by the logical axis rules in force when it runs"
    elif hit:
        why = f"the parameter's sharding names {shown} name the spmd axis `{hit[0]!r}`"
    else:
        why = f"the parameter's sharding names {shown} are not known"
    why += (
        ": created inside the vmap, flax constrains the parameter to them when a mesh is set (`jax.set_mesh`), "
        "and JAX raises SPMD005's error where they name the spmd axis and the value is batched (an initializer "
        "reading the vmapped key); whether a mesh is set where it runs is not known"
    )
    return SpecTree((), (where,), (), ((where, why),))


def _collect_specs(
    ev: Evaluator, expr, scope, specs, unresolved, follow: Follow, shardings: bool = False,
    helpers: list[Span] | None = None, lost: list[tuple[Span, str]] | None = None, empty: list[Span] | None = None,
) -> None:
    """Add the PartitionSpecs of `expr` to `specs`, the spans of what cannot be read to `unresolved` (and to
    `lost` with why, in words, for SPMD910: `unknown_values`), and the calls of project functions read
    through (`Evaluator.called`) to `helpers`."""
    helpers = [] if helpers is None else helpers
    lost = [] if lost is None else lost
    empty = [] if empty is None else empty

    def unread(why: str) -> None:
        unresolved.append(ev.span(expr))
        lost.append((ev.span(expr), f"the spec `{short(expr)}` is not known: {why}"))

    if follow.spent:
        unread("it is reached through more names or nested pytrees than spmdfix follows")
        return
    if isinstance(expr, (ast.Name, ast.Subscript)) or (
        isinstance(expr, ast.Attribute) and ev.ix.qualname(expr, scope) not in jaxapi.INFER_NAMES
    ):
        followed = ev.follow(expr, scope)
        if followed is None or followed[1] is expr:
            unread(why_unknown(ev, expr, scope))
            return
        far, value, inner = followed
        _collect_specs(far, value, inner, specs, unresolved, follow.deeper(), shardings, helpers, lost, empty)
    elif isinstance(expr, (ast.Tuple, ast.List)):
        for elt in expr.elts:
            _collect_specs(ev, elt, scope, specs, unresolved, follow.deeper(), shardings, helpers, lost, empty)
    elif isinstance(expr, ast.Dict):
        for value in expr.values:
            _collect_specs(ev, value, scope, specs, unresolved, follow.deeper(), shardings, helpers, lost, empty)
    elif isinstance(expr, ast.Constant) and expr.value is None:
        empty.append(ev.span(expr))
    elif shardings and isinstance(expr, ast.Call) and ev.ix.qualname(expr.func, scope) in jaxapi.NAMED_SHARDING_NAMES:
        spec = argument(expr, 1, "spec")
        if spec is None or any(isinstance(a, ast.Starred) for a in expr.args) or any(k.arg is None for k in expr.keywords):
            unread("its spec is not a plain argument")
        else:
            _collect_specs(ev, spec, scope, specs, unresolved, follow.deeper(), helpers=helpers, lost=lost, empty=empty)
    elif isinstance(expr, ast.Call) and is_partition_spec(ev, expr.func, scope):
        spec = _spec(ev, expr, scope, lost)
        if spec is None:
            unread("its entries are passed by keyword or unpacked from a value that is not a display of its module")
        else:
            specs.append(spec)
    elif ev.ix.qualname(expr, scope) in jaxapi.INFER_NAMES:
        empty.append(ev.span(expr))
    elif not shardings and isinstance(expr, ast.Call) and (called := ev.called(expr, scope)) is not None:
        # `rows()`, `spec('x')`: a project function that returns the specs, its parameters bound to this call.
        # (Not yet for jit's shardings: a sharding a helper returns stays unresolved there, an SPMD910 record
        # under an spmd vmap (`unread_matters.records`), and a fix that relies on it stays unsafe, as golden
        # rename/unsafe_jit_sharding_unreadable pins. README, "Helpers with arguments", says which forms.)
        helpers.append(ev.span(expr))
        far, value, inner = called
        _collect_specs(far, value, inner, specs, unresolved, follow.deeper(), shardings, helpers, lost, empty)
    else:
        unread(why_unknown(ev, expr, scope))


def _spec(ev: Evaluator, call: ast.Call, scope: Scope, lost: list[tuple[Span, str]]) -> Spec | None:
    """The entries of one `P(...)` call, or None when its entries cannot be listed (keywords, a starred
    argument that is not a display of this module); each entry that cannot be read is added to `lost` with
    why (`unknown_values`)."""
    if call.keywords:
        return None
    args: list[ast.AST] = []
    for arg in call.args:
        if not isinstance(arg, ast.Starred):
            args.append(arg)
            continue
        # `P(*['x', None])`, `P(*ENTRIES)`: the entries of a display of this module, edited in place there;
        # `P(*AXES[:1])`: those of a slice of one (`Evaluator.sliced_display`)
        followed = ev.follow(arg.value, scope)
        if followed is not None and isinstance(followed[1], ast.Subscript):
            cut = followed[0].sliced_display(followed[1], followed[2])
            if cut is None or cut[0] is not ev:
                return None
            args.extend(cut[1])
            continue
        if followed is None or followed[0] is not ev or not isinstance(followed[1], (ast.Tuple, ast.List)):
            return None
        if any(isinstance(e, ast.Starred) for e in followed[1].elts):
            return None
        args.extend(followed[1].elts)
    entries = []
    for arg in args:
        if ev.is_none(arg, scope):
            entries.append(SpecEntry(ev.span(arg), None, True))
            continue
        value = ev.axis_names(arg, scope) or mesh_axis_names(ev, arg, scope)  # (`P(mesh.axis_names[0])`)
        if value is None:
            # P.UNCONSTRAINED and other non-axis entries name no axis; anything else is unknown.
            known = isinstance(arg, ast.Attribute) and arg.attr == "UNCONSTRAINED"
            entries.append(SpecEntry(ev.span(arg), None, known))
            if not known:
                lost.append((ev.span(arg), f"the PartitionSpec entry `{short(arg)}` is not known: {why_unknown(ev, arg, scope)}"))
        else:
            entries.append(SpecEntry(ev.span(arg), value, True))
    return Spec(ev.span(call), tuple(entries))

