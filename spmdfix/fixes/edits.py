"""Edit builders and planning helpers the transforms share: spec axes, meshes, unknowns and the
spmd/axis_names edits (ruff's `fix/edits.rs`).

Pure functions over analysis facts (`spmdfix.analysis`); they return `NodeEdit`s for the codemods to apply
(`spmdfix.codemods._apply`). The hazard predicates the fixes read live in `spmdfix.analysis.hazards`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from math import prod

from spmdfix.analysis.kinds import UnreadKind
from spmdfix.model import Applicability, EditKind, Fix, FixId, NodeEdit, SiteId

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.facts import JitShardings, ShardMapFacts, VmapFacts
    from spmdfix.analysis.values import AxisNames, AxisRef, MeshInfo, SpecTree


def backticked(names) -> str:
    """`'x'`, `'y'` — axis names as messages show them."""
    return ", ".join(f"`'{n}'`" for n in names)


def quoted(name: str, like: str) -> str:
    """`name` as a string literal in the quote style of the literal text `like` (`like` may be the quote
    itself); double quotes when `like` is no string literal (what ruff's formatter and Black write)."""
    quote = like[0] if like[:1] in ("'", '"') else '"'
    return f"{quote}{name}{quote}"


def unread_what(sm: ShardMapFacts, kind: UnreadKind) -> str:
    """What the SPMD910 record of the shard_map's first unread value of `kind` says (the expression and why it
    is not known, `facts.UnreadValue`), for the reasons of fixes that rely on it; "" when none was recorded."""
    found = [u for u in (*sm.unread, *sm.body.unread_axes) if u.kind is kind]
    return found[0].what if found else ""


def h2_unread_reasons(vmap: VmapFacts) -> list[str]:
    """The reason a fix that keeps the spmd vmap (rename, add-axis, strip) is not proven when a reached
    shard_map's body, `check_vma` on, is not read for hazard H2 (`BodyFacts.h2_unread`): an inner vmap, a
    `jnp.vectorize` or a `jax.lax.cond` there raise a `pvary` error once the fix runs (measured:
    jaxapi.INNER_BATCHING_NAMES); [] otherwise."""
    for r in vmap.reached:
        sm = r.shard_map
        if sm.check_vma is not False and sm.body.h2_unread:
            return [f"{sm.body.h2_unread}: an inner vmap or a `jax.lax.cond` there would fail under the spmd vmap (hazard H2)"]
    return []


def h2_call_reasons(vmap: VmapFacts, kind: str) -> list[str]:
    """The reason a fix of `kind` (`rename`, `add_axis`, `strip`: `analysis.h2_calls.KINDS`) that keeps the spmd
    vmap is not proven: a reached shard_map's body, `check_vma` on, calls something off hazard H2's measured
    allowlist for that kind (`BodyFacts.h2_calls`; safety/measurements/h2_call_allowlist.py). Found there: a
    JAX function nobody had listed failed after a SAFE fix (`jnp.polyval`, `lax.map` of a product with a
    constant: `Primitive mul requires varying manual axes to match`). [] otherwise."""
    for r in vmap.reached:
        sm = r.shard_map
        if sm.check_vma is False:
            continue
        calls = [c for c in sm.body.h2_calls if kind in c.kinds]
        if calls:
            more = f" (and {len(calls) - 1} more)" if len(calls) > 1 else ""
            return [f"the shard_map body calls {calls[0].describe()} after this fix{more} (hazard H2's allowlist)"]
    return []


def spec_trees(vmap: VmapFacts) -> list[SpecTree]:
    """in_specs and out_specs of every shard_map the vmap site reaches."""
    return [t for r in vmap.reached for t in (r.shard_map.in_specs, r.shard_map.out_specs)]


def spec_axes(trees: list[SpecTree]) -> set[str]:
    return {a for t in trees for a in t.axes()}


def conflicting_axes(vmap: VmapFacts) -> list[AxisRef]:
    """The members of spmd_axis_name that a reached spec, sharding constraint or body collective names, or
    that a reached partial-manual shard_map's `axis_names` leaves out (SPMD008: rename and add-axis append
    their new axis there, which measured, runs)."""
    used = spec_axes(spec_trees(vmap)) | set(vmap.constraint_axes)
    for r in vmap.reached:
        used |= r.shard_map.body.collective_axes
        names = r.shard_map.axis_names
        if names is not None and not r.shard_map.axis_names_unknown:
            used |= {a.name for a in vmap.spmd.axes if a.name not in names.names}
    return [a for a in vmap.spmd.axes if a.name in used]


def resolved_meshes(vmap: VmapFacts) -> list[MeshInfo] | None:
    """The mesh of every reached shard_map, or None when any of them is not resolved."""
    meshes = []
    for r in vmap.reached:
        if r.shard_map.mesh is None:
            return None
        meshes.append(r.shard_map.mesh)
    return meshes


def jits_naming_spmd_axes(vmap: VmapFacts) -> list[JitShardings]:
    """The `in_shardings` / `out_shardings` of the jits inside the vmapped function that name an spmd axis
    (SPMD005: `rules.constraint`)."""
    spmd = set(vmap.spmd.names)
    return [j for j in vmap.jit_shardings if spmd & set(j.specs.axes())]


def _jit_named(jits: list[JitShardings]) -> str:
    """`the shardings of a `jax.jit` inside the vmapped function (`in_shardings=SH` of the jax.jit at line 6,
    and 1 more)`."""
    more = f", and {len(jits) - 1} more" if len(jits) > 1 else ""
    return f"the shardings of a `jax.jit` inside the vmapped function ({jits[0].described}{more})"


def no_mesh_reason(vmap: VmapFacts) -> str:
    """Why no mesh can be edited for a vmap site (`resolved_meshes` gave none): no shard_map is reached
    (the collision is in a sharding constraint, whose mesh comes from elsewhere, or in the shardings of a
    jit inside the vmapped function, whose mesh the analysis does not read: `facts.JitShardings` holds specs
    only), or one's mesh is unknown. Rename, add-axis and drop-spmd-axis read the mesh of a reached
    shard_map: with none, each is refused or unsafe with this reason."""
    if not vmap.reached:
        jits = jits_naming_spmd_axes(vmap)
        if jits:  # (newuser15 m04: a jit's shardings on a literal mesh were called a `with_sharding_constraint`)
            also = "a `with_sharding_constraint` and " if vmap.constraints else ""
            return (
                f"no shard_map is reached, only {also}{_jit_named(jits)}: the mesh these fixes read is a reached "
                "shard_map's, and spmdfix does not read the mesh of a jit's shardings"
            )
        return "no shard_map is reached, only a `with_sharding_constraint`: the mesh it runs on is not known here"
    named = [unread_what(r.shard_map, UnreadKind.MESH) for r in vmap.reached if r.shard_map.mesh is None]
    return next((w for w in named if w), "") or "the shard_map's mesh is not resolved (a parameter or built at run time)"


def nothing_conflicting_reason(vmap: VmapFacts, cures: str) -> str:
    """Why rename or add-axis is not offered when no spec, constraint or collective names an spmd axis
    (`conflicting_axes` empty): `cures`, what the fix would do for nothing, or, when the shardings of a jit
    inside the vmapped function name it (SPMD005), that the fix is not planned for those: measured, a rename
    or a new axis moves the spmd axis off them and runs (safety/measurements/jit_shardings_spmd_axis.py), but
    neither transform plans its edits from a jit's shardings alone, so it is not offered (before, the reason
    said that nothing names the axis: newuser15 m04)."""
    jits = jits_naming_spmd_axes(vmap)
    if jits:
        return (
            f"only {_jit_named(jits)} name the spmd axis: this transform is planned only for an axis a shard_map "
            "spec, a constraint or a collective names"
        )
    return f"no spec, constraint or collective names the spmd axis: {cures}"


def body_shardings(vmap: VmapFacts) -> list[str]:
    """Why a fix that keeps an spmd axis on the vmap (rename, add-axis) fails: a reached shard_map body applies a
    `with_sharding_constraint` (or `reshard`), into whose spec the spmd vmap inserts its axis; the shard_map's
    manual axes then hold that axis (the new one is added to `axis_names`), and JAX refuses a manual axis there
    (measured, safety/trials/breaker12 r16: after rename `can only refer to Auto axes of the mesh`, after add-axis
    `contains a manual axes ('batch', 'x')`; the plain vmap of drop-spmd-axis runs and matches)."""
    out = []
    for r in vmap.reached:
        found = r.shard_map.body.sharding_in_body
        if found is not None:
            line, text = found
            out.append(
                f"the shard_map body applies `{text}` (line {line}): under the spmd vmap its spec gains the spmd "
                "axis, a manual axis of the shard_map, which JAX refuses"
            )
            break
    return out


def unknowns(vmap: VmapFacts) -> list[str]:
    """Why the axes in use cannot all be known: specs, constraints or collectives built at run time."""
    why = []
    if any(t.unresolved for t in spec_trees(vmap)):
        why.append("some specs are built at run time")
    if vmap.constraints_unknown:
        why.append("a with_sharding_constraint spec could not be read")
    if any(r.shard_map.body.collectives_unknown for r in vmap.reached):
        named = [unread_what(r.shard_map, UnreadKind.COLLECTIVE) for r in vmap.reached]
        why.append(next((w for w in named if w), "a shard_map body's collectives could not all be read"))
    if vmap.opaque_calls:
        why.append("a call on the way (a method, a parameter, an object) could not be followed: it may use the new axis")
    if vmap.unresolved:
        # (breaker5 q54: a psum over 'fsdp' in a linen `__call__` reached through `head.apply`, an SPMD910 record;
        # rename to 'fsdp' was safe and raised a pvary error)
        why.append(f"the analysis could not follow the way past one place ({vmap.unresolved[0][1]}): the code there may use the new axis")
    return why


# Collectives whose result is the same on every device along their axes: a body's value built from them stays
# replicated there. Any other (`axis_index`, `ppermute`, `psum_scatter`, `all_to_all`, ...) varies along its axes.
_UNIFORM_COLLECTIVES = frozenset({"psum", "pmean", "pmax", "pmin", "all_gather"})


def replica_reasons(vmap: VmapFacts) -> list[str]:
    """Why a fix that changes the layout (rename, add-axis, drop-spmd-axis, strip) cannot be proven to keep the
    values: a reached body under `check_vma` not known to be on uses a collective whose result varies along a
    mesh axis its out_specs do not name (`b + jax.lax.axis_index('y')` with `out_specs=P('x')`). JAX then takes
    the output as replicated along that axis although each device holds its own value, and which one a later
    read gets depends on the layout: fuzz seed 210526 (a `jax.jit(..., out_shardings=P('y'))` after the
    shard_map) gave other values than its plain-vmap reference after add-axis and after drop-spmd-axis, both
    judged safe. With `check_vma=True` JAX refuses such a body itself."""
    out = []
    for reached in vmap.reached:
        sm = reached.shard_map
        if sm.check_vma is True:
            continue
        named = set() if sm.out_specs.unresolved else sm.out_specs.axes()
        for use in (*sm.body.collectives, *sm.body.nested_collectives):
            name = use.name.rpartition(".")[2]
            along = [a for a in use.axes.names if a not in named]
            if name in _UNIFORM_COLLECTIVES or not along:
                continue
            reason = (
                f"the body's `{name}` over {backticked(along)} (line {use.line}) varies along an axis the out_specs do "
                "not name while `check_vma` is not on: the output is read from one device's copy, and which one "
                "depends on the layout the fix changes"
            )
            if reason not in out:
                out.append(reason)
    return out


def spmd_edits(vmap: VmapFacts, mapping: dict[str, str], quote: str = '"') -> list[NodeEdit]:
    """Edits pointing spmd_axis_name at new axes: members renamed by `mapping`.

    A literal keeps its quote style and only the renamed members change; a name (`spmd_axis_name=AXIS`)
    is replaced where it is written, leaving the constant itself alone: by the constant visible there that
    holds the new axis name (`VmapFacts.axis_spelling`: `MODEL` where the project spells axes by constants),
    else by a literal in `quote` style.
    """
    spmd: AxisNames = vmap.spmd
    like = _quote_of(spmd, quote)
    if spmd.literal:
        return [NodeEdit(a.span, EditKind.REPLACE, quoted(mapping[a.name], like)) for a in spmd.axes if a.name in mapping]
    names = [mapping.get(n, n) for n in spmd.names]
    if spmd.is_tuple:
        code = "(" + ", ".join(quoted(n, like) for n in names) + ("," if len(names) == 1 else "") + ")"
    else:
        code = vmap.axis_spelling(names[0]) or quoted(names[0], like)
    return [NodeEdit(spmd.span, EditKind.REPLACE, code)]


def spmd_replace_edits(vmap: VmapFacts, conflicting: set[str], new: str, quote: str = '"') -> list[NodeEdit]:
    """Edits pointing spmd_axis_name at the one axis `new` in place of its `conflicting` members.

    A single name is replaced whole. In a tuple only the conflicting members change: the first becomes `new`,
    the others are dropped, and the members that collide with nothing stay (`('data', 'fsdp')` with `'data'`
    conflicting becomes `('batch', 'fsdp')`). A literal tuple keeps its members' text; a name bound to a
    tuple is replaced by a literal tuple (the constant itself is left alone: other code may read it).
    """
    spmd: AxisNames = vmap.spmd
    like = _quote_of(spmd, quote)
    if not spmd.is_tuple or conflicting >= set(spmd.names):
        return [NodeEdit(spmd.span, EditKind.REPLACE, quoted(new, like))]
    hits = [a for a in spmd.axes if a.name in conflicting]
    if spmd.literal and len(hits) == 1:
        return [NodeEdit(hits[0].span, EditKind.REPLACE, quoted(new, like))]
    members, placed = [], False
    for a in spmd.axes:
        if a.name not in conflicting:
            members.append(a.text if spmd.literal else quoted(a.name, like))
        elif not placed:
            members.append(quoted(new, like))
            placed = True
    code = "(" + ", ".join(members) + ("," if len(members) == 1 else "") + ")"
    return [NodeEdit(spmd.span, EditKind.REPLACE, code)]


def _quote_of(spmd: AxisNames, default: str) -> str:
    """The quote style of the first member written as a string literal at the use site, else `default`."""
    if spmd.literal:
        for a in spmd.axes:
            if a.text[:1] in ("'", '"'):
                return a.text
    return default


def batch_divisibility(vmap: VmapFacts, names: list[str], meshes: list[MeshInfo]) -> tuple[str | None, bool]:
    """Whether every call's batch is divisible by the product of the sizes of the spmd axes `names`.

    JAX requires it and checks it only when the program runs or lowers: a batch that is not divisible raises
    (docs/safety.md, rename). Returns (None, False) when proven for every call (or the product is 1);
    (reason, False) when it cannot be proven (a size or a batch that is not a literal of the module, a use of
    the vmapped function that is not a call); (reason, True) when a call's batch is known not to be divisible.
    """
    products = set()
    for m in meshes:
        sizes = [m.size_of(n) for n in names]
        products.add(None if None in sizes else prod(sizes))
    shown = backticked(names)
    if products == {1}:
        return None, False  # a size-1 axis divides every batch
    if None in products or len(products) != 1:
        return f"the size of {shown} is not a literal of the module: it may not divide the batch", False
    size = products.pop()
    calls = vmap.calls
    if calls is None or not calls.calls:
        return f"no call of the vmapped function is visible in this module: its batch may not be divisible by {size} ({shown})", False
    if calls.unfollowed:
        use = calls.unfollowed[0].describe()
        return f"the vmapped function is also used by {use}: that caller's batch may not be divisible by {size} ({shown})", False
    for call in calls.calls:
        if call.batch is None:
            return f"the batch size of the call at {call.where} is not a literal of this module: it may not be divisible by {size} ({shown})", False
        if call.batch % size:
            return f"the call at {call.where} passes a batch of {call.batch}, not divisible by {size} ({shown})", True
    return None, False


def axis_names_edits(vmap: VmapFacts, new: list[str]) -> list[NodeEdit] | str:
    """Append the new axes to every reached shard_map's literal `axis_names` (hazard H4).

    Returns the edits, or a reason string when some `axis_names` is not a literal display.
    """
    edits, done = [], set()
    for r in vmap.reached:
        sm = r.shard_map
        if sm.axis_names_unknown:
            named = unread_what(sm, UnreadKind.AXIS_NAMES)
            return f"a reached shard_map's {named}" if named else "a reached shard_map's `axis_names` is not a literal set of axis names"
        if sm.axis_names is None or sm.axis_names.display in done:
            continue
        if sm.axis_names.display is None:
            # computed (`frozenset(mesh.axis_names) - {'x'}`, a name bound to a set): no display to extend
            return "a reached shard_map's `axis_names` is computed, not a literal set this fix can extend"
        done.add(sm.axis_names.display)
        for name in new:
            if name not in sm.axis_names.names:
                edits.append(NodeEdit(sm.axis_names.display, EditKind.INSERT, quoted(name, sm.axis_names.quote), -1))
    return edits


def edited_sites(vmap: VmapFacts, site: SiteId, edits: list[NodeEdit]) -> frozenset[SiteId]:
    """The vmap and shard_map sites a fix planned at `site` changes (`model.Fix.sites`): that site, and each
    shard_map the vmap reaches whose `axis_names` display one of `edits` extends (rename, add-axis: hazard H4;
    shard_maps sharing one display all count)."""
    spans = {e.span for e in edits}
    extended = {
        r.shard_map.site
        for r in vmap.reached
        if r.shard_map.axis_names is not None
        and r.shard_map.axis_names.display is not None
        and r.shard_map.axis_names.display in spans
    }
    return frozenset({site, *extended})


def shared_reasons(vmap: VmapFacts) -> list[str]:
    """Why rewriting the site's spmd_axis_name may change code this fix does not see: other modules reach the
    function, class or factory holding it with arguments of their own (`VmapFacts.shared_by`), whose vmapped
    functions and meshes were not judged (a wrapper imported and called with another function raises after
    add-axis or rename: golden refuse/tree_shared_vmap_wrapper_other_caller)."""
    if not vmap.shared_by:
        return []
    from spmdfix.analysis.uses import listed  # (the analysis' scopes: not imported with the rules' table)

    return [
        f"the code holding spmd_axis_name is also reached by {listed(vmap.shared_by)}, which may run it with a "
        "vmapped function and mesh of its own that this fix does not see"
    ]


def classified_fix(
    fix_id: FixId,
    title: str,
    reasons: list[str],
    safe_reason: str,
    edits: list[NodeEdit],
    sites: frozenset[SiteId],
    isolation: SiteId | None = None,
    placement: str = "",
) -> Fix:
    """A Fix whose applicability follows from `reasons`: none makes it safe (explained by `safe_reason`),
    any makes it unsafe (explained by all of them). `placement`: where the fix puts the batch
    (`model.Fix.placement`), "" for the transforms whose placement the plan fills in."""
    return Fix(
        fix_id,
        title=title,
        applicability=Applicability.UNSAFE if reasons else Applicability.SAFE,
        reason="; ".join(reasons) if reasons else safe_reason,
        node_edits=tuple(edits),
        sites=sites,
        isolation=isolation,
        placement=placement,
    )
