"""What a bound-method shard_map body closes over through its `self` (`analysis.method_body`).

`jax.shard_map(self._block, ...)` hands JAX a bound method: its `self` is the instance the method was read off,
a value from outside the body like a closure's free variable. A read `self.w_in` in the body is a capture of
that instance's value; JAX fails on it when the vmap batches the instance (SPMD003: `jax.vmap(lambda m, x: m(x))
(models, xs)`, an nnx-style `forward(model, x)` mapped over stacked modules), and runs when it does not
(`jax.vmap(model, ...)(xs)` maps the call's arguments, not `model`). Whether it does is read as for a closure
over a name of the function applying the shard_map (`batched.BatchedValues.batched_walk`, with the staging and
mesh rules of `capture.CaptureAnalysis._batched`): the body's `self` is the name the method is read off there.

Proven: a body that does not read `self` closes over nothing of the instance; an instance the vmap does not
batch, on an Auto or unknown mesh with no placed batch, gives no batched capture when every step of the way is
a plain call whose receiver is a name (the walk taints names, not `Layer(x.mean())(x)`) and every attribute
the body reads is set only in `__init__` (`self.scale = x.mean()` in another traced method leaves `self`
untainted in the method applying the shard_map: measured, ManualAxisType). A batched instance whose reads
are all its data attributes gives a capture per attribute read (`self.w_in`). Anything else (the walk not
followed, a read of a method or `self` passed on, an Explicit mesh, a staging on one, a pytree whose static
fields are not read) is not proven: an SPMD910 record naming the read and a reason that keeps the fixes whose
safety relies on the body's captures unsafe (`plan.judgments.instance_unread`).

Pure, over one module's model.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from spmdfix.analysis.batched import mentions
from spmdfix.analysis.facts import Capture, UnreadValue
from spmdfix.analysis.kinds import AxisType, CaptureKind, UnreadKind
from spmdfix.analysis.members import attribute_writes
from spmdfix.analysis.method_body import MethodBody
from spmdfix.analysis.static import in_static_context
from spmdfix.analysis.uses import short
from spmdfix.perf import frozen

if TYPE_CHECKING:
    from spmdfix.analysis.capture import CaptureAnalysis
    from spmdfix.analysis.reach import ReachedSite
    from spmdfix.analysis.values import MeshInfo


@frozen(eq=False, repr=False)
class InstanceReads:
    """What a method body's reads of its instance give: captures (kind BATCHED, one per attribute read, named
    `self.w_in`), SPMD910 records, and `unproven` (why the fixes relying on the body's captures cannot be safe,
    "" when nothing is left unproven)."""

    captures: tuple[Capture, ...] = ()
    unread: tuple[UnreadValue, ...] = ()
    unproven: str = ""


def instance_reads(method: MethodBody, capture: CaptureAnalysis) -> list[ast.Name]:
    """The loads of the body's bound parameter (`self`) in the method, in order, static reads (`self.w.shape`)
    left out: each reads the instance."""
    ix = capture.ix
    name = method.instance
    found = []
    for node in ast.walk(method.func):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            if ix.single_binding(name, ix.scope_at(node)) is None:
                continue  # rebound in a nested function: another value
            if not in_static_context(node, ix.parent, capture._qualname):
                found.append(node)
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def method_instance_facts(
    method: MethodBody, capture: CaptureAnalysis, fun: ast.AST | None, in_axes: ast.AST | None,
    reached: ReachedSite, vmap: ast.AST | None, mesh: MeshInfo | None, placed: bool, plain: bool,
) -> InstanceReads:
    """The captures and records of `method`'s reads of its instance when the vmapped `fun` reaches the shard_map
    via `reached` (`vmap`: the vmap call or decorator; `mesh`: the shard_map's; `placed`: every call places the
    batch on the spmd axes; `plain`: a plain vmap over an Explicit placement, whose words differ)."""
    reads = instance_reads(method, capture)
    if not reads:
        return InstanceReads()
    first = capture.ix.parent.get(id(reads[0]))
    shown = first if isinstance(first, ast.Attribute) and first.value is reads[0] else reads[0]
    where = f"`{ast.unparse(shown)}` (line {shown.lineno})"
    if capture.jit_wrapped(reached.site.node, method.func) and not (placed and _explicit(mesh)):
        if not _explicit(mesh):
            return InstanceReads()  # `jax.jit(shard_map(...))`: the instance's leaves are jit operands
        return _unproven(method, capture, where, shown, "the shard_map is jitted on an Explicit mesh", plain)
    if method.home is None:
        # a module-level instance: made at import, nothing the vmap batches, unless a traced function sets one
        # of the attributes the body reads (`INST.prepare(x)` setting `self.scale`)
        why = next((w for w in (_set_elsewhere(method, capture, a) for a in _attributes(capture, reads)) if w), "")
        return _unproven(method, capture, where, shown, why, plain) if why else InstanceReads()
    walk = capture.batched.batched_walk(fun, in_axes, reached, method.home, vmap)
    if walk is None:
        return _unproven(method, capture, where, shown, "the way from the vmapped function to it is not followed", plain)
    capture.batched.static_skipped = False
    values = capture._batched(fun, in_axes, reached, method.home, vmap, mesh, placed)
    if values is None:
        return InstanceReads()  # staged on a mesh of Auto axes: the capture runs (`CaptureAnalysis._batched`)
    if values.off_spmd or _explicit(mesh) or (placed and mesh is not None and mesh.axis_types is not AxisType.AUTO):
        return _unproven(method, capture, where, shown, "the shard_map's mesh has Explicit axes, where a closure's outcome "
                         "depends on placements not read for an instance", plain)
    if capture.batched.static_skipped:
        return _unproven(method, capture, where, shown, "the instance's class may keep fields static, which are not read", plain)
    if method.owner not in values.names:
        # the walk does not batch the name the method is read off; proven only when no step on the way reads the
        # instance off an expression the walk does not taint (`Layer(x.mean())(x)`), and every attribute the
        # body reads is set only where the instance is made (`__init__`, the class body)
        why = _unbatched_unproven(method, capture, fun, in_axes, reached, vmap, reads)
        if why:
            return _unproven(method, capture, where, shown, why, plain)
        return InstanceReads()  # the vmap does not batch the instance
    attrs: dict[str, ast.Attribute] = {}
    for node in reads:
        up = capture.ix.parent.get(id(node))
        if not (isinstance(up, ast.Attribute) and up.value is node) or _method_attribute(method, capture, up.attr):
            shown_up = up if isinstance(up, ast.Attribute) else node
            what = (
                f"`{shown_up.attr}` is a method or is assigned several times" if isinstance(shown_up, ast.Attribute)
                else f"`{node.id}` itself is used"
            )
            return _unproven(
                method, capture, f"`{ast.unparse(shown_up)}` (line {shown_up.lineno})", shown_up,
                f"the vmap batches the instance, and {what}: which of its values the body meets is not read", plain,
            )
        attrs.setdefault(up.attr, up)
    return InstanceReads(tuple(
        Capture(f"{method.instance}.{attr}", capture.span(node), CaptureKind.BATCHED, node.lineno)
        for attr, node in attrs.items()
    ))


def _unbatched_unproven(
    method: MethodBody, capture: CaptureAnalysis, fun, in_axes, reached: ReachedSite, vmap, reads: list[ast.Name]
) -> str:
    """Why an instance the walk does not batch may still hold a batched value the body reads, in words; "" when
    none. The walk (`batched.BatchedValues`) taints names: a local assigned a construction from a batched value
    (`layer = Layer(x.mean())`) and a parameter given one are batched, and so is the `self` of a method that
    assigns `self.a = <batched>`; it does not taint the instance a call on the way is made on when that is an
    expression (`Layer(x.mean())(x)`: measured, JAX raises ManualAxisType), nor an attribute another traced
    method sets. So: every step from the vmapped function to the method applying the shard_map is a plain call
    (`plain_hops`), whose receiver, when not a name, mentions no batched name of its caller; and every attribute
    the body reads is assigned only by `self.a = ...` in `__init__` or the class body (no other `.a = ...` in
    the module, no other spelling: `members.ClassMembers.written_in_other_spelling`)."""
    batched = capture.batched
    hops = batched.plain_hops(fun, method.home, reached)
    if hops is None:
        return "the way from the vmapped function to it is not a chain of plain calls, whose receivers are read"
    for caller, call, _callee, bound in hops[1]:
        receiver = _receiver(capture, call) if bound else None
        if receiver is None or isinstance(receiver, ast.Name):
            continue
        walk = batched.batched_walk(fun, in_axes, reached, caller, vmap)
        if walk is None or mentions(receiver, walk[0], capture.ix.parent, capture._qualname):
            return f"the call `{short(call)}` (line {call.lineno}) is made on `{short(receiver)}`, which may hold a batched value"
    for attr in _attributes(capture, reads):
        why = _set_elsewhere(method, capture, attr)
        if why:
            return why
    for node in reads:
        up = capture.ix.parent.get(id(node))
        if not (isinstance(up, ast.Attribute) and up.value is node) or _method_attribute(method, capture, up.attr):
            # a method called on it, or `self` passed on: what that code reads of the instance is not followed
            shown = up if isinstance(up, ast.Attribute) else node
            return f"`{ast.unparse(shown)}` (line {shown.lineno}) runs code whose reads of the instance are not followed"
    return ""


def _attributes(capture: CaptureAnalysis, reads: list[ast.Name]) -> list[str]:
    """The attribute names the reads of the instance read (`self.scale` -> `scale`), in order, once each."""
    found: dict[str, None] = {}
    for node in reads:
        up = capture.ix.parent.get(id(node))
        if isinstance(up, ast.Attribute) and up.value is node:
            found.setdefault(up.attr, None)
    return list(found)


def _receiver(capture: CaptureAnalysis, call: ast.Call) -> ast.AST | None:
    """The object a chain step's call is made on: `recv` of `recv.m(...)`, the instance called in `recv(...)`,
    the callable's object in `jax.lax.map(recv.m, xs)`."""
    target = call.func
    if capture.batched._is_lax_map(call):
        target = call.args[0]
    return target.value if isinstance(target, ast.Attribute) else target


def _set_elsewhere(method: MethodBody, capture: CaptureAnalysis, attr: str) -> str:
    """Why attribute `attr` of the instance may be set other than where the instance is made, in words; "" when
    every `.attr = ...` of the module is a `self.attr = ...` of `__init__` of the class (or its body binds it)."""
    ix = capture.ix
    own = 0
    for node in ix.attribute_assigns:
        for target in node.targets:
            if not (isinstance(target, ast.Attribute) and target.attr == attr and isinstance(target.value, ast.Name)):
                continue
            func = ix.enclosing_function(node)
            if target.value.id == "self" and isinstance(func, ast.FunctionDef) and func.name == "__init__":
                if ix.parent.get(id(func)) is method.cls:
                    own += 1
                    continue
            return f"`.{attr}` is assigned at line {node.lineno}, not where the instance is made"
    if attribute_writes(ix.source, attr) != own:
        return f"`.{attr}` is assigned in this module other than in `{method.cls.name}.__init__`"
    other = capture.model.members.written_in_other_spelling(method.cls, attr)
    return f"`.{attr}` may be written: {other}" if other else ""


def _unproven(
    method: MethodBody, capture: CaptureAnalysis, where: str, node: ast.AST, why: str, plain: bool
) -> InstanceReads:
    """The record and the reason for a read of the instance whose batching is not proven (`why`)."""
    fails = (
        "a value the vmap batches while its batch dimension is placed on Explicit mesh axes, closed over, makes JAX "
        "fail" if plain else "a value the vmap with `spmd_axis_name` batches, closed over, makes JAX fail"
    )
    what = (
        f"the shard_map body {method.words()}, reads {where}, a value of the instance it is bound to, and whether "
        f"the vmap batches that instance is not read ({why}); {fails} (SPMD003)"
    )
    unproven = (
        f"the shard_map body {method.words()}, reads {where}, a value of the instance, which the vmap may batch "
        f"({why}): a batched value closed over still makes JAX fail after this fix"
    )
    return InstanceReads((), (UnreadValue(UnreadKind.CAPTURE_INPUT, capture.span(node), what),), unproven)


def _method_attribute(method: MethodBody, capture: CaptureAnalysis, attr: str) -> bool:
    """Whether `attr` of the instance may be a method (a `def` of its class or of a base of this module), or is
    not known as a data attribute (a value its class or methods assign, or a field its class body declares):
    calling it runs code whose reads of the instance are not followed here."""
    member = capture.model.members.member(method.cls, attr)
    if member is None:
        # a field declared without a default (`scale: jax.Array` of a dataclass): a value
        return not any(
            isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == attr
            for st in method.cls.body
        )
    return isinstance(member[0], (ast.FunctionDef, ast.AsyncFunctionDef))


def _explicit(mesh: MeshInfo | None) -> bool:
    return mesh is not None and mesh.axis_types is AxisType.EXPLICIT
