"""Transform `move-placement`: place a plain vmap's batch dimension off the Explicit axis a shard_map names.

SPMD006: a plain `jax.vmap` over an input placed with `NamedSharding(mesh, P('S', ...))` on an Explicit
mesh maps `'S'` away, and a shard_map it reaches that names `'S'` fails. Instead of changing the shard_map
(strip), this transform changes the placement: the batch entry becomes None and the dimensions after it
take the shard_map's own in_spec, so that inside the vmap each example arrives exactly as the shard_map
expects it: `P('S', None)` with in_specs `P('S')` becomes `P(None, 'S')`.

Measured with jax 0.10.2 (docs/safety.md, "move-placement"): runs and matches the unsharded reference,
eager and under jit, on a 1-D Explicit mesh `make_mesh((8,), ('S',))` and on a 2x4 one with the batch placed
`P('x', 'y')`, with `axis_names` naming the axis, and for bodies that reduce over their block (the
shard_map itself is not edited, so its blocks are the ones it was written for). It changes the input's
layout (the batch dimension is no longer sharded), which is a memory and speed change: always UNSAFE.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.fixes import edits as c
from spmdfix.model import Applicability, EditKind, Fix, FixId, NodeEdit, Refusal, SiteId, SiteKind, Transform

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.facts import VmapFacts
    from spmdfix.analysis.values import Spec

TRANSFORM = Transform.MOVE_PLACEMENT


def plan(vmap: VmapFacts) -> Fix | Refusal:
    """Rewrite the placement's PartitionSpec to `P(None, <the reached shard_map's in_spec entries>)`.

    Offered when the placement was read (`VmapFacts.placement`) and every reached shard_map has one in_spec
    for all its operands, the same one; refused otherwise (which spec the input should take is not known).
    """
    placement = vmap.placement
    if placement is None:
        return Refusal(TRANSFORM, "the input's placement is not known")
    specs = {_layout(s) for r in vmap.reached for s in r.shard_map.in_specs.specs}
    if any(r.shard_map.in_specs.unresolved for r in vmap.reached) or len(specs) != 1:
        return Refusal(TRANSFORM, "the reached shard_maps do not give one in_spec the input could take")
    layout = specs.pop()
    names = set(placement.mesh.axis_names)
    if not {a for dim in layout for a in dim} <= names:
        return Refusal(TRANSFORM, "the shard_map's in_spec names an axis the placement's mesh does not have")
    # (the quote of the spec's own literals, else of the module it is written in: `VmapFacts.quote`)
    written = [a.text for e in placement.spec.entries if e.value is not None and e.value.literal for a in e.value.axes]
    quote = next((t[0] for t in written if t[:1] in ("'", '"')), vmap.quote)
    entries = ["None", *(_entry(dim, quote) for dim in layout)]
    code = f"{placement.callee}({', '.join(entries)})"
    reasons = [
        f"it changes the input's layout: the batch dimension is no longer sharded over "
        f"{c.backticked(vmap.spmd.names)} (more memory per device), and it assumes the input reaches the "
        "shard_map unchanged"
    ]
    if placement.shared:
        reasons.append("the placement's spec is reached through a name: its other uses change too")
    # The placement's site is its call's offset alone, as its key always was (`model.SiteId`).
    site = SiteId(SiteKind.PLACEMENT, placement.call.start)
    return Fix(
        FixId(TRANSFORM, site),
        title=f"Place the batch dimension off {c.backticked(vmap.spmd.names)}: `{code}`",
        applicability=Applicability.UNSAFE,
        reason="; ".join(reasons),
        node_edits=(NodeEdit(placement.spec.span, EditKind.REPLACE, code),),
        sites=frozenset({site}),
    )


def _layout(spec: Spec) -> tuple[tuple[str, ...], ...]:
    dims = [e.value.names if e.value else () for e in spec.entries]
    while dims and not dims[-1]:
        dims.pop()
    return tuple(dims)


def _entry(dim: tuple[str, ...], quote: str) -> str:
    if not dim:
        return "None"
    if len(dim) == 1:
        return c.quoted(dim[0], quote)
    return "(" + ", ".join(c.quoted(a, quote) for a in dim) + ")"
