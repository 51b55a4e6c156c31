"""Planning helpers the three transforms share: spec axes, meshes, unknowns and the spmd/axis_names edits.

Pure functions over analysis facts (`spmdfix.analysis`); they return `NodeEdit`s for the codemods to apply.
"""

from __future__ import annotations

from spmdfix.analysis.facts import VmapFacts
from spmdfix.analysis.values import AxisNames, AxisRef, MeshInfo, SpecTree
from spmdfix.model import Applicability, Fix, NodeEdit, Transform


def has_h2(vmap: VmapFacts) -> bool:
    """Hazard H2: a jax.vmap between the spmd vmap and a reached shard_map (or in its body), check_vma on."""
    return any(
        (r.vmaps or r.shard_map.body.inner_vmap) and r.shard_map.check_vma is not False for r in vmap.reached
    )


def backticked(names) -> str:
    """`'x'`, `'y'` — axis names as messages show them."""
    return ", ".join(f"`'{n}'`" for n in names)


def quoted(name: str, like: str) -> str:
    """`name` as a string literal in the quote style of the literal text `like` (single quotes otherwise)."""
    quote = like[0] if like[:1] in ("'", '"') else "'"
    return f"{quote}{name}{quote}"


def spec_trees(vmap: VmapFacts) -> list[SpecTree]:
    """in_specs and out_specs of every shard_map the vmap site reaches."""
    return [t for r in vmap.reached for t in (r.shard_map.in_specs, r.shard_map.out_specs)]


def spec_axes(trees: list[SpecTree]) -> set[str]:
    return {a for t in trees for a in t.axes()}


def conflicting_axes(vmap: VmapFacts) -> list[AxisRef]:
    """The members of spmd_axis_name that a reached spec, sharding constraint or body collective names."""
    used = spec_axes(spec_trees(vmap)) | set(vmap.constraint_axes)
    for r in vmap.reached:
        used |= r.shard_map.body.collective_axes
    return [a for a in vmap.spmd.axes if a.name in used]


def resolved_meshes(vmap: VmapFacts) -> list[MeshInfo] | None:
    """The mesh of every reached shard_map, or None when any of them is not resolved."""
    meshes = []
    for r in vmap.reached:
        if r.shard_map.mesh is None:
            return None
        meshes.append(r.shard_map.mesh)
    return meshes


def unknowns(vmap: VmapFacts) -> list[str]:
    """Why the axes in use cannot all be known: specs, constraints or collectives built at run time."""
    why = []
    if any(t.unresolved for t in spec_trees(vmap)):
        why.append("some specs are built at run time")
    if vmap.constraints_unknown:
        why.append("a with_sharding_constraint spec could not be read")
    if any(r.shard_map.body.collectives_unknown for r in vmap.reached):
        why.append("a shard_map body's collectives could not all be read")
    if vmap.opaque_calls:
        why.append("a call on the way (a method, a parameter, an object) could not be followed: it may use the new axis")
    return why


def spmd_edits(vmap: VmapFacts, mapping: dict[str, str], whole: str | None = None, quote: str = "'") -> list[NodeEdit]:
    """Edits pointing spmd_axis_name at new axes: members renamed by `mapping`, or the whole argument.

    A literal keeps its quote style and only the renamed members change; a name (`spmd_axis_name=AXIS`)
    is replaced by a literal in `quote` style, leaving the constant itself alone.
    """
    spmd: AxisNames = vmap.spmd
    like = spmd.axes[0].text if spmd.literal else quote
    if whole is not None:
        return [NodeEdit(spmd.span, "replace", quoted(whole, like))]
    if spmd.literal:
        return [NodeEdit(a.span, "replace", quoted(mapping[a.name], a.text)) for a in spmd.axes if a.name in mapping]
    names = [mapping.get(n, n) for n in spmd.names]
    if spmd.is_tuple:
        code = "(" + ", ".join(quoted(n, like) for n in names) + ("," if len(names) == 1 else "") + ")"
    else:
        code = quoted(names[0], like)
    return [NodeEdit(spmd.span, "replace", code)]


def axis_names_edits(vmap: VmapFacts, new: list[str]) -> list[NodeEdit] | str:
    """Append the new axes to every reached shard_map's literal `axis_names` (H4, [13o-13p]).

    Returns the edits, or a reason string when some `axis_names` is not a literal display.
    """
    edits, done = [], set()
    for r in vmap.reached:
        sm = r.shard_map
        if sm.axis_names_unknown:
            return "a reached shard_map's `axis_names` is not a literal set of axis names"
        if sm.axis_names is None or sm.axis_names.display in done:
            continue
        done.add(sm.axis_names.display)
        for name in new:
            if name not in sm.axis_names.names:
                edits.append(NodeEdit(sm.axis_names.display, "insert", quoted(name, sm.axis_names.quote), -1))
    return edits


def classified_fix(
    transform: Transform, key: str, title: str, reasons: list[str], safe_reason: str, edits
) -> Fix:
    """A Fix whose applicability follows from `reasons`: none makes it safe (explained by `safe_reason`),
    any makes it unsafe (explained by all of them)."""
    return Fix(
        transform,
        key=key,
        title=title,
        applicability=Applicability.UNSAFE if reasons else Applicability.SAFE,
        reason="; ".join(reasons) if reasons else safe_reason,
        node_edits=tuple(edits),
    )
