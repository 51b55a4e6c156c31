"""Transform `drop-spmd-axis`: remove `spmd_axis_name` from the vmap, leaving a plain vmap (always unsafe).

Measured on jax 0.10.2, CPU, 8 devices (docs/safety.md, "drop-spmd-axis"; `safety/measure_drop.py`): on an
Auto mesh a plain `jax.vmap` cures every spec collision and keeps the values, eager and under jit, also with a
collective over the former spmd axis in the body (it then reduces over the shard_map's own devices only,
the per-example meaning), a capture of a batched value, an inner `jax.vmap` under check_vma=True, a nested
shard_map, and `jax.smap(..., axis_name='x')` under `spmd_axis_name='x'` (where rename fails). What it
changes: the batch dimension is no longer placed on the axis (the output is sharded `P(None, 'x')` instead of
`P('x', ...)`), a memory and performance change, so the fix is never safe and `auto` tries it last. On an
Explicit mesh it fails (`in_specs ... does not match the specs of the input`): not offered there.

Spellings: the keyword (`jax.vmap(f, spmd_axis_name='x')`, `partial(jax.vmap, spmd_axis_name='x')`, flax's
vmaps) is removed; a positional 6th argument or a `**kwargs` dict entry becomes `None`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.kinds import AxisType
from spmdfix.fixes.edits import backticked, resolved_meshes
from spmdfix.model import Applicability, EditKind, Fix, FixId, NodeEdit, Refusal, Transform

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.facts import VmapFacts

TRANSFORM = Transform.DROP_SPMD_AXIS


def plan(vmap: VmapFacts) -> Fix | Refusal:
    """Remove the vmap site's `spmd_axis_name`; refused when a reached shard_map's mesh is Explicit."""
    meshes = resolved_meshes(vmap)
    if meshes is not None and any(m.axis_types in (AxisType.EXPLICIT, AxisType.MIXED) for m in meshes):
        return Refusal(
            TRANSFORM,
            "a reached shard_map's mesh has Explicit axes: a plain vmap fails there too (measured: "
            "`in_specs ... does not match the specs of the input`)",
        )
    reasons = [
        f"the batch is no longer placed on mesh axis {backticked(vmap.spmd.names)} (values kept, measured on an "
        "Auto mesh; memory and speed change)"
    ]
    if meshes is None or any(m.axis_types is not AxisType.AUTO for m in meshes):
        reasons.append("a reached shard_map's mesh is not known to be Auto: on an Explicit mesh a plain vmap fails")
    if vmap.spmd_keyword_call is not None:
        edit = NodeEdit(vmap.spmd_keyword_call, EditKind.DROP_KEYWORD, "spmd_axis_name")
    else:
        edit = NodeEdit(vmap.spmd.span, EditKind.REPLACE, "None")
    return Fix(
        FixId(TRANSFORM, vmap.site),
        title="Remove `spmd_axis_name` from the vmap",
        applicability=Applicability.UNSAFE,
        reason="; ".join(reasons),
        node_edits=(edit,),
        sites=frozenset({vmap.site}),
        isolation=vmap.site,  # one rewrite of the vmap's spmd_axis_name a pass (rename, add-axis, drop)
    )
