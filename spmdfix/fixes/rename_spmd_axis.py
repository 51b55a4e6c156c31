"""Transform `rename`: point spmd_axis_name at a free axis of the same mesh.

Measured (docs/jax-behaviour.md, docs/safety.md): values are kept when the target exists in the
mesh, appears in no reached spec, with_sharding_constraint, body collective or `in_shardings` / `out_shardings`
of a jax.jit applied inside the vmapped function, is in `axis_names` where one is given, and its size divides
the batch. Collectives over the *old* axis are fine: it becomes a data axis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.hazards import has_h2
from spmdfix.analysis.kinds import AxisType
from spmdfix.fixes import edits as c
from spmdfix.fixes import placement
from spmdfix.model import Fix, FixId, Refusal, Transform

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.facts import VmapFacts

TRANSFORM = Transform.RENAME


def plan(vmap: VmapFacts) -> Fix | Refusal:
    """The rename fix of one vmap site, or why it is not offered.

    Offered when every reached mesh is resolved and has a free axis per conflicting spmd axis (in mesh
    order, those whose size divides every visible batch first). An axis is not free when spmd_axis_name, a
    reached spec, a sharding constraint, a body collective or the shardings of a jit inside the vmapped
    function (`JitShardings`: measured, the rename then raises `DuplicateSpecError`) name it. Safe when every
    call's batch is visible in the module and divisible by the new spmd axes' sizes (`batch_divisibility`), the
    mesh is Auto, and every spec, constraint, collective and jit sharding on the way could be read; unsafe
    otherwise. Never edits a constant: a name in spmd_axis_name is replaced where it is written, by the
    constant visible there that holds the new axis name, else by a literal (`spmdfix.fixes.edits.spmd_edits`).
    """
    meshes = c.resolved_meshes(vmap)
    if not meshes:
        return Refusal(TRANSFORM, c.no_mesh_reason(vmap))
    conflicting = c.conflicting_axes(vmap)
    if not conflicting:
        return Refusal(TRANSFORM, c.nothing_conflicting_reason(vmap, "renaming it cures nothing"))
    used = set(vmap.spmd.names) | c.spec_axes(c.spec_trees(vmap)) | set(vmap.constraint_axes)
    # nor one a reshard inside the vmapped function names (not measured as a target; a reshard naming the axis
    # the batch ends up placed on raises `DuplicateSpecError`: safety/measurements/reshard_inside_vmap.py)
    used |= {a for u in vmap.reshards for a in u.specs.axes()}
    for r in vmap.reached:
        used |= r.shard_map.body.collective_axes
    common = [a for a in meshes[0].axis_names if all(a in m.axis_names for m in meshes)]
    jitted = {a for j in vmap.jit_shardings for a in j.specs.axes()}
    free = [a for a in common if a not in used and a not in jitted]
    if len(free) < len(conflicting):
        if len([a for a in common if a not in used]) < len(conflicting):
            return Refusal(
                TRANSFORM,
                f"no free mesh axis: every axis of the mesh {tuple(meshes[0].axis_names)} is used by spmd_axis_name, "
                "a spec, a sharding constraint or a collective",
            )
        return Refusal(TRANSFORM, _jit_blocked(vmap, tuple(meshes[0].axis_names), [a for a in common if a not in used]))
    batches = _known_batches(vmap)
    free.sort(key=lambda a: not all(m.size_of(a) and all(b % m.size_of(a) == 0 for b in batches) for m in meshes))
    mapping = {a.name: t for a, t in zip(conflicting, free)}
    names_edits = c.axis_names_edits(vmap, list(mapping.values()))
    if isinstance(names_edits, str):
        return Refusal(TRANSFORM, names_edits)
    divides, known_bad = c.batch_divisibility(vmap, [mapping.get(n, n) for n in vmap.spmd.names], meshes)
    if known_bad:
        return Refusal(TRANSFORM, divides)
    reasons = [divides] if divides else []
    if any(m.axis_types is not AxisType.AUTO for m in meshes):
        reasons.append("the mesh has Explicit (or unknown) axis types: eager callers' inputs placed for the old specs no longer match")
    reasons += c.unknowns(vmap)
    reasons += c.body_shardings(vmap)
    reasons += c.shared_reasons(vmap)
    reasons += _unreadable_jit_shardings(vmap, list(mapping.values()))
    if has_h2(vmap):
        reasons.append("hazard H2 remains")
    else:
        reasons += c.h2_call_reasons(vmap, "rename") or c.h2_unread_reasons(vmap)
    reasons += c.replica_reasons(vmap)
    pairs = ", ".join(f"`'{o}'` to `'{n}'`" for o, n in mapping.items())
    edits = c.spmd_edits(vmap, mapping, quote=vmap.quote) + names_edits
    return c.classified_fix(
        FixId(TRANSFORM, vmap.site),
        f"Rename spmd axis {pairs}",
        reasons,
        "the new axis is free in the mesh and its size divides the batch of every call",
        edits,
        c.edited_sites(vmap, vmap.site, edits),
        isolation=vmap.site,  # one rewrite of the vmap's spmd_axis_name a pass (rename, add-axis, drop)
        placement=placement.changed(vmap, tuple(dict.fromkeys(mapping.get(n, n) for n in vmap.spmd.names))),
    )


def _known_batches(vmap: VmapFacts) -> list[int]:
    """The batch sizes of the calls spmdfix could read (for choosing among free axes only)."""
    if vmap.calls is None:
        return []
    return [call.batch for call in vmap.calls.calls if call.batch is not None]


def _jit_blocked(vmap: VmapFacts, mesh_axes: tuple[str, ...], left: list[str]) -> str:
    """Why no axis is free when only the shardings of jits inside the vmapped function name the axes that
    would be: each such jit, with the axes it names (measured: renaming onto one raises `DuplicateSpecError`,
    safety/measurements/rename_reached_shardings.py)."""
    uses = [
        f"{c.backticked(sorted(set(j.specs.axes()) & set(left)))} by {j.described}"
        for j in vmap.jit_shardings
        if set(j.specs.axes()) & set(left)
    ]
    return (
        f"no free mesh axis: every axis of the mesh {mesh_axes} is used by spmd_axis_name, a spec, a sharding "
        f"constraint, a collective or the in/out shardings of a jax.jit inside the vmapped function "
        f"({', '.join(uses)}: as the spmd axis it makes JAX raise DuplicateSpecError)"
    )


def _unreadable_jit_shardings(vmap: VmapFacts, new: list[str]) -> list[str]:
    """A reason per sharding argument of a jit inside the vmapped function that spmdfix could not read,
    naming it: it may name the new axis, and a jit sharding naming the spmd axis raises `DuplicateSpecError`
    (measured)."""
    return [
        f"{j.described} could not be read: if it names {c.backticked(new)}, the renamed program raises "
        "DuplicateSpecError"
        for j in vmap.jit_shardings
        if j.unreadable
    ]
