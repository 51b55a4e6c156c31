"""Transform `drop-spmd-axis`: remove `spmd_axis_name` from the vmap, leaving a plain vmap.

Measured on jax 0.10.2, CPU, 8 devices (docs/safety.md, "drop-spmd-axis"; `safety/measure_drop.py`): on an
Auto mesh a plain `jax.vmap` cures every spec collision and keeps the values, eager and under jit, also with a
collective over the former spmd axis in the body (it then reduces over the shard_map's own devices only,
the per-example meaning), a capture of a batched value, an inner `jax.vmap` under check_vma=True, a nested
shard_map, and `jax.smap(..., axis_name='x')` under `spmd_axis_name='x'` (where rename fails). So the fix is
SAFE when every reached shard_map's mesh is resolved and Auto (the safety class says whether values are kept);
what it changes is the layout: the batch dimension is no longer placed on the axis (the output is sharded
`P(None, 'x')` instead of `P('x', ...)`), which its reason says (`spmdfix.fixes.placement`), and `auto` tries
it last, so it is taken only when no fix before it is safe. UNSAFE when a reached mesh is not resolved, its
axis types are not known, or no shard_map is reached (the mesh is then not known). On an Explicit mesh it
fails (`in_specs ... does not match the specs of the input`): not offered there.

Spellings: the keyword (`jax.vmap(f, spmd_axis_name='x')`, `partial(jax.vmap, spmd_axis_name='x')`, flax's
vmaps) is removed; a positional 6th argument or a `**kwargs` dict entry becomes `None`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.kinds import AxisType, UnreadKind
from spmdfix.fixes import edits as c
from spmdfix.model import EditKind, Fix, FixId, NodeEdit, Refusal, Transform

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.facts import VmapFacts

TRANSFORM = Transform.DROP_SPMD_AXIS
_NOT_AUTO = "it is not known to be Auto, and a plain vmap keeps the values only there (on an Explicit mesh it fails)"


def plan(vmap: VmapFacts) -> Fix | Refusal:
    """Remove the vmap site's `spmd_axis_name`: refused when a reached shard_map's mesh is Explicit; safe
    when every reached shard_map's mesh is resolved and Auto (measured to keep values) and no jit with
    shardings wraps the vmap (not measured), unsafe otherwise, the reason naming the mesh that is not known
    to be Auto or the wrapping jit's shardings."""
    meshes = c.resolved_meshes(vmap)
    if meshes is not None and any(m.axis_types in (AxisType.EXPLICIT, AxisType.MIXED) for m in meshes):
        return Refusal(
            TRANSFORM,
            "a reached shard_map's mesh has Explicit axes: a plain vmap fails there too (measured: "
            "`in_specs ... does not match the specs of the input`)",
        )
    reasons = []
    if meshes is None or not meshes:
        reasons.append(f"{c.no_mesh_reason(vmap)}: {_NOT_AUTO}")
    elif any(m.axis_types is not AxisType.AUTO for m in meshes):
        reasons.append(f"a reached shard_map's mesh has axis types that are not literals: {_NOT_AUTO}")
    reasons += _unmeasured_collectives(vmap)
    reasons += c.replica_reasons(vmap)
    reasons += c.shared_reasons(vmap)
    for jit in vmap.outer_jit_shardings:
        # Not measured: a jit wrapping the vmap with shardings of its own keeps its layout of the output and
        # its input whatever the vmap does, and may not fit the program a plain vmap leaves (fuzz seed 23047:
        # `out_shardings` indivisible once the vmap no longer places the batch).
        reasons.append(f"the vmap is wrapped by a jax.jit with shardings ({jit.described}): a plain vmap under it was not measured")
    if vmap.spmd_keyword_call is not None:
        edit = NodeEdit(vmap.spmd_keyword_call, EditKind.DROP_KEYWORD, "spmd_axis_name")
    else:
        edit = NodeEdit(vmap.spmd.span, EditKind.REPLACE, "None")
    return c.classified_fix(
        FixId(TRANSFORM, vmap.site),
        "Remove `spmd_axis_name` from the vmap",
        reasons,
        "a plain vmap keeps the values on an Auto mesh (measured)",
        [edit],
        frozenset({vmap.site}),
        isolation=vmap.site,  # one rewrite of the vmap's spmd_axis_name a pass (rename, add-axis, drop)
    )


# The collectives over the former spmd axis measured to keep their values once spmd_axis_name is dropped:
# `psum` (safety/measure_drop.py, M5: check_vma True and False) and `pmean` (check_vma=False, under the runtime
# oracle: golden/drop-spmd-axis/collective_over_mesh_axis_names).
_MEASURED_COLLECTIVES = frozenset({"psum", "pmean"})


def _unmeasured_collectives(vmap: VmapFacts) -> list[str]:
    """Why the drop is not proven for a reached body's collectives: one over the spmd axis that was not
    measured with a plain vmap (`axis_index` varies along the axis, and a body whose out_specs do not name it
    returns one device's value: fuzz seed 23255 ran with other values than its reference), or a collective
    whose axis is not known."""
    spmd = set(vmap.spmd.names)
    out = []
    for reached in vmap.reached:
        body = reached.shard_map.body
        if not body.resolved or body.own_collectives_unknown or body.nested_collectives_unknown:
            named = c.unread_what(reached.shard_map, UnreadKind.COLLECTIVE)
            out.append(
                f"the shard_map body's collectives are not all read ({named or 'an axis not known, a body not of its module'}): "
                "a plain vmap was measured only without collectives other than `psum`/`pmean` over the axis"
            )
        for use in (*body.collectives, *body.nested_collectives):
            name = use.name.rpartition(".")[2]
            if spmd & set(use.axes.names) and name not in _MEASURED_COLLECTIVES:
                out.append(
                    f"the body's `{name}` over {c.backticked(sorted(spmd & set(use.axes.names)))} (line {use.line}) was not "
                    "measured under a plain vmap (only `psum` and `pmean` were)"
                )
    return out
