"""Transform `add-axis`: add a size-1 mesh axis and make it the spmd_axis_name.

Measured (docs/jax-behaviour.md, docs/safety.md): a size-1 axis partitions nothing, so values equal
those of a plain vmap, with any batch size and with collectives over the data axes. Safe on Auto meshes;
on Explicit ones (the `jax.make_mesh` default) eager callers must place the batch dimension on the new
axis. Shard_maps that pass `axis_names` must list the new axis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.hazards import has_h2
from spmdfix.analysis.kinds import AxisType, AxisTypesForm, BatchPlacement, MeshKind, ShapeForm, UnreadKind
from spmdfix.analysis.uses import listed
from spmdfix.fixes import edits as c
from spmdfix.fixes import placement
from spmdfix.model import EditKind, Fix, FixId, NodeEdit, Refusal, Transform

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.facts import VmapFacts
    from spmdfix.analysis.values import MeshInfo

TRANSFORM = Transform.ADD_AXIS


def new_axis_name(existing: tuple[str, ...], base: str) -> str:
    """`base`, or `base_1`, `base_2`, ... — the first name the mesh does not have yet."""
    name, n = base, 0
    while name in existing:
        n += 1
        name = f"{base}_{n}"
    return name


def _renamed(name: str, base: str) -> str:
    """What the title says when the new axis cannot have the name asked for (`--new-axis`, `new-axis`)."""
    return "" if name == base else f" (`'{base}'` is already an axis of the mesh)"


def mesh_use_reasons(mesh: MeshInfo) -> list[str]:
    """Why the mesh's other readers may see a change: each use outside add-axis's allowlist, with its line
    (`spmdfix.analysis.mesh_uses`; docs/safety.md lists the allowlist and the measurement behind it)."""
    reasons = []
    if mesh.reads:
        uses = listed(u.describe() for u in mesh.reads)
        reasons.append(f"the mesh is also read by {uses}, which the new axis may change")
    if mesh.device_reads and mesh.shape_span is not None and not mesh.span.contains(mesh.shape_span):
        uses = listed(u.describe() for u in mesh.device_reads)
        reasons.append(f"the device array behind the mesh is also read by {uses}: its new shape changes those uses")
    return reasons


def _explicit_calls_unproven(vmap: VmapFacts) -> str | None:
    """Why add-axis on an Explicit mesh may break a caller, or None when every call is proven fine.

    Measured (docs/safety.md, add-axis on Explicit meshes): after the fix a call runs when it is traced under
    `jax.jit` and its vmapped input is placed with `None` at the batch dimension; an eager call, or an input
    whose batch dimension is placed on an Explicit axis, raises.
    """
    calls = vmap.calls
    if calls is None or not calls.calls:
        return "no call of the vmapped function is visible in this module"
    if calls.unfollowed:
        return f"the vmapped function is also used by {calls.unfollowed[0].describe()}"
    for call in calls.calls:
        if not call.under_jit:
            return f"the call at {call.where} is not traced under jax.jit"
        if call.batch_placement is not BatchPlacement.NONE:
            return f"the input of the call at {call.where} is not visibly placed with `None` at the batch dimension"
    return None


def _safe_reason(mesh: MeshInfo) -> str:
    """Why add-axis keeps the values when no reason makes it unsafe, in words true of the mesh's axis types: safe
    only on an Auto mesh, or on an Explicit one whose every call `_explicit_calls_unproven` proves (before, the
    reason said "on an Auto mesh" of `jax.make_mesh`'s Explicit meshes too: breaker10 t01, t02)."""
    if mesh.axis_types is AxisType.EXPLICIT:
        return (
            "a size-1 axis partitions nothing, and on this Explicit mesh every call of the vmap is traced under "
            "`jax.jit` with its batch dimension placed `None`, which runs after the fix"
        )
    return "a size-1 axis on an Auto mesh partitions nothing"


def _replaced_members(vmap: VmapFacts, meshes: list[MeshInfo]) -> set[str]:
    """The spmd axes the new axis replaces: only the conflicting ones when every call's batch is proven
    divisible by the sizes of the members that stay (they keep placing the batch); else all of them (a lone
    size-1 axis divides every batch)."""
    conflicting = {a.name for a in c.conflicting_axes(vmap)}
    kept = [n for n in vmap.spmd.names if n not in conflicting]
    if kept and c.batch_divisibility(vmap, kept, meshes) == (None, False):
        return conflicting
    return set(vmap.spmd.names)


def plan(vmap: VmapFacts, base_name: str) -> Fix | Refusal:
    """The add-axis fix of one vmap site, or why it is not offered.

    Offered when every reached shard_map uses the same resolved mesh construction whose shape, axis names
    and axis types are literals. The new axis is prepended (device order is unchanged by a leading size-1
    axis: docs/jax-behaviour.md).
    """
    if not c.conflicting_axes(vmap):
        if not vmap.reached and c.jits_naming_spmd_axes(vmap):
            return Refusal(TRANSFORM, c.no_mesh_reason(vmap))  # (no mesh to add an axis to: the real block)
        return Refusal(TRANSFORM, c.nothing_conflicting_reason(vmap, "a new axis cures nothing"))
    meshes = c.resolved_meshes(vmap)
    if not meshes:
        return Refusal(TRANSFORM, c.no_mesh_reason(vmap))
    mesh = meshes[0]
    if any(m.span != mesh.span for m in meshes):
        return Refusal(TRANSFORM, "the reached shard_maps use different mesh constructions")
    if mesh.kind is MeshKind.TEST_MESH:
        return Refusal(TRANSFORM, "the mesh is built by jax's test utility `create_mesh`, which this transform does not edit")
    if mesh.returns_span is not None:
        return Refusal(
            TRANSFORM,
            "the mesh is built by a helper with several returns, each its own construction (no single construction "
            "to extend, and other calls of the helper share it)",
        )
    if mesh.shape_span is None or mesh.names_span is None:
        return Refusal(
            TRANSFORM, mesh.not_extendable or "the mesh's shape or axis names are not literals this transform can extend"
        )
    name = new_axis_name(mesh.axis_names, base_name)
    if mesh.shape_form is ShapeForm.FLAT:
        # The devices argument is a name or a call (meshes._device_shape): no parentheses needed.
        shape_edit = NodeEdit(mesh.shape_span, EditKind.REPLACE, f"{mesh.flat_devices}.reshape(1, -1)")
    elif mesh.shape_form is ShapeForm.LIST:
        # A list of devices has no reshape: made a 1 x n array where it is passed, with numpy when the module
        # has it as `np`, else as a nested list (both measured to keep the device order and the values:
        # safety/measurements/add_axis_device_list_mesh.py). Nothing else that reads the list changes.
        wrapped = f"{mesh.numpy_name}.array({mesh.flat_devices}).reshape(1, -1)" if mesh.numpy_name else f"[{mesh.flat_devices}]"
        shape_edit = NodeEdit(mesh.shape_span, EditKind.REPLACE, wrapped)
    else:
        shape_edit = NodeEdit(mesh.shape_span, EditKind.INSERT, "1", 0)
    edits = [shape_edit, NodeEdit(mesh.names_span, EditKind.INSERT, c.quoted(name, mesh.quote), 0)]
    if mesh.axis_types_span is not None:
        if mesh.axis_types_form is AxisTypesForm.SEQ and mesh.axis_types_first:
            edits.append(NodeEdit(mesh.axis_types_span, EditKind.INSERT, mesh.axis_types_first, 0))
        elif mesh.axis_types_form is AxisTypesForm.REPEAT and isinstance(mesh.repeat_count, int) and mesh.repeat_span:
            edits.append(NodeEdit(mesh.repeat_span, EditKind.REPLACE, str(mesh.repeat_count + 1)))
        elif mesh.axis_types_form is AxisTypesForm.REPEAT_LEN and mesh.names_constant:
            pass  # `(A,) * len(AXES)`: one more with the axis names constant, which the edit above extends
        else:
            return Refusal(TRANSFORM, "the mesh's `axis_types` is not a literal this transform can extend")
    names_edits = c.axis_names_edits(vmap, [name])
    if isinstance(names_edits, str):
        return Refusal(TRANSFORM, names_edits)
    reasons = []
    if mesh.axis_types is not AxisType.AUTO:
        why = _explicit_calls_unproven(vmap) if mesh.axis_types is AxisType.EXPLICIT else "its axis types are not all known"
        if why:
            reasons.append(
                f"the mesh has Explicit (or unknown) axis types and {why}: eager callers must place the batch "
                f"dimension on `'{name}'` (calls under jax.jit with the batch dimension unplaced work)"
            )
    reasons += mesh_use_reasons(mesh)
    if mesh.constant_reads:
        # (the constant the edit extends in place of a literal at the call: every other read of it sees the new
        # axis; breaker6 r21, `out / len(AXES)` in train.py)
        named = " and ".join(f"`{n}`" for n in (mesh.names_constant, mesh.types_constant) if n)
        uses = listed(u.describe() for u in mesh.constant_reads)
        reasons.append(f"the mesh's {named}, which the fix extends, is also read by {uses}, which the new axis changes")
    if mesh.names_parameter:
        reasons.append(
            f"an axis name of the mesh is the parameter `{mesh.names_parameter}` of the function building it: "
            f"another call may pass `'{name}'`, which the new axis would repeat"
        )
    reasons += c.body_shardings(vmap)
    reasons += c.shared_reasons(vmap)
    # A collective whose axis is not read may name every mesh axis (an axis tuple computed from the mesh at
    # run time), the new one too: then it reduces over the spmd axis. Not proven either way: unsafe.
    unread = [w for r in vmap.reached if (w := c.unread_what(r.shard_map, UnreadKind.COLLECTIVE))]
    if unread:
        reasons.append(f"{unread[0]}: it may name the new axis `'{name}'`")
    if has_h2(vmap):
        reasons.append("hazard H2 remains")
    else:
        reasons += c.h2_call_reasons(vmap, "add_axis") or c.h2_unread_reasons(vmap)
    reasons += c.replica_reasons(vmap)
    replaced = _replaced_members(vmap, meshes)
    edits += c.spmd_replace_edits(vmap, replaced, name, vmap.quote) + names_edits
    # the spmd axes after the fix: the new size-1 axis where the replaced members were, the others kept
    after = tuple(dict.fromkeys(name if n in replaced else n for n in vmap.spmd.names))
    return c.classified_fix(
        FixId(TRANSFORM, vmap.site),
        f"Add mesh axis `'{name}'` of size 1 and use it as `spmd_axis_name`" + _renamed(name, base_name),
        reasons,
        _safe_reason(mesh),
        edits,
        c.edited_sites(vmap, vmap.site, edits),
        isolation=vmap.site,  # one rewrite of the vmap's spmd_axis_name a pass (rename, add-axis, drop)
        placement=placement.changed(vmap, after, {name: 1}),
    )
