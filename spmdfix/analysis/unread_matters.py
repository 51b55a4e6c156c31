"""Which unread values of the shard_maps a vmap reaches could change a finding: those give SPMD910 records.

Issue 22: a value the analysis needs on a reached path is resolved, or reported with where and why it stopped
(`facts.UnreadValue`, worded by `unknown_values.unread`). A value whose every possible value leaves the
findings as they are is not needed there and gives no record. Per kind (docs/rules.md, SPMD910):

- the axis of a collective in the body: SPMD004 (a collective over the spmd axis) reads every one, for a
  vmap with `spmd_axis_name`; no rule of a plain vmap reads collectives.
- `axis_names`: SPMD008 (the spmd axis left out of a partial-manual shard_map), for a vmap with
  `spmd_axis_name`; no rule of a plain vmap reads it. That of a shard_map nested in a reached body, on its
  context mesh: SPMD008 (an axis the vmap took out of that mesh), for either vmap, where the batch is placed on
  an Explicit axis the enclosing shard_map leaves out and a jit or a staging loop lies on the way.
- `check_vma`: SPMD007 (an inner vmap on the way or in a body that is not unary-only), SPMD003 (a capture),
  SPMD004 (a collective over the spmd axis, exempt over size-1 axes under `check_vma=False`), SPMD008 and
  SPMD006 (`check_vma=False` reached eagerly by a batch placed on Explicit axes).
- the input of a capture reached through a staging function on an Explicit mesh, not traced back to the
  vmap's arguments: SPMD003 (JAX refuses it when the input is committed to the mesh off the spmd axes), for a
  vmap with `spmd_axis_name`.
- the input of a staged capture not traced back to the vmap's arguments, and where the calls place the dimension
  an inner vmap on the way maps when the calls followed do not tell (`hazards.inner_dimensions_unplaced` None):
  SPMD003 of a plain vmap over an Explicit placement, where it reads the captures (`plain_captures_read`).
- the rank of a leaf of a pytree operand whose structure is not read (`kinds.UnreadKind.OPERAND_RANK`, kept with
  the staged captures' inputs in `ReachedFacts.unread_captures`): SPMD003's broadcast exemption, for a vmap with
  `spmd_axis_name` (given only where it alone decides: `ranks.RankAnalysis.pytree_unread`).
- a body whose binary steps are beside values local to a function around it, under `jax.lax.map`s with a
  `batch_size` only (`hazards.h2_undecided`): SPMD007 there depends on whether those values are batched and on
  the mapped length, neither read.
- the placement of a call's batch (a placement whose sharding or spec is not read, an input that is a
  parameter no call read gives, a name a branch, a loop or a `nonlocal`/`global` statement may rebind:
  `shapes.StaticShapes.rebinding`, a value neither a placement nor known unplaced, a parameter of a function
  with an unknown decorator, an input of a module calling `exec`/`eval`: `vmap_calls`): SPMD008's eager case
  and its `axis_names` case (`placement_matters`).
- the mesh: its axis types and sizes decide SPMD003's, SPMD007's and SPMD008's Explicit-placement cases (a
  call of the vmap places its batch on mesh axes) and SPMD006's inner-vmap case (a call places the dimension
  after the batch), and the size-1 exemptions of SPMD003/SPMD004 when `check_vma` is not known to be on.

Pure: reads facts only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.hazards import (
    exemption_assumed, h2_undecided, inner_dimensions_unplaced, nested_on_staged_context, spmd_axes_named_manual,
)
from spmdfix.analysis.kinds import AxisType, BatchPlacement, UnreadKind, VmapKind
from spmdfix.jaxapi import ShardMapApi

if TYPE_CHECKING:
    from spmdfix.analysis.facts import ReachedFacts, UnreadValue, VmapCall, VmapFacts
    from spmdfix.model import Span


def records(vmap: VmapFacts) -> list[tuple[Span, str]]:
    """(span, what) of each unread value of a reached shard_map of `vmap` that could change a finding, of each
    staged capture whose input's placement is not known (`ReachedFacts.unread_captures`), of the
    unread `axis_names` of a shard_map nested in its body where SPMD008 reads it
    (`hazards.nested_on_staged_context`), of each call's unread placement where it could
    (`placement_matters`), and of the unread spec of a reshard inside the vmapped function while a call places
    the batch on Explicit axes (`facts.ReshardUse`)."""
    out = [
        (u.span, u.what)
        for r in vmap.reached
        for u in (*r.shard_map.unread, *r.shard_map.body.unread_axes)
        if matters(vmap, r, u)
    ]
    out += [
        (u.span, u.what)
        for r in vmap.reached
        for inner in r.shard_map.body.nested_shard_maps
        if nested_on_staged_context(vmap, r, inner)
        for u in inner.unread
    ]
    # a staged capture on an Explicit mesh whose inputs are not traced: SPMD003 there needs their placement
    out += [(u.span, u.what) for r in vmap.reached for u in r.unread_captures if vmap.kind is VmapKind.SPMD]
    # ... under a plain vmap too, where SPMD003 reads its captures (`plain_captures_read`; fuzz seed 410072)
    out += [
        (u.span, u.what)
        for r in vmap.reached
        if vmap.kind is VmapKind.EXPLICIT and plain_captures_read(vmap, r) is not False
        for u in r.unread_captures
    ]
    # an inner vmap on the way whose dimension the calls may place: SPMD003 of a plain vmap's captures needs it
    out += [_inner_what(vmap, r) for r in vmap.reached if plain_captures_read(vmap, r) is None]
    # SPMD007 under `jax.lax.map(..., batch_size=k)` whose body's binary steps are beside a local value: its
    # outcome depends on that value's batching and on the mapped length (`hazards.beside_locals`)
    out += [
        (r.batched_maps[0], _beside_what(r))
        for r in vmap.reached
        if vmap.kind is VmapKind.SPMD and h2_undecided(vmap, r)
    ]
    calls = vmap.calls.calls if vmap.calls is not None else ()
    out += [c.unread_placement for c in calls if c.unread_placement is not None and placement_matters(vmap, c)]
    if exemption_assumed(vmap):
        out.append((vmap.span, _assumed_what(vmap)))
    # a reshard of a batched value inside the vmapped function whose spec is not read, while a call places the
    # batch on Explicit axes: whether it names one decides SPMD005/SPMD006's reshard form (DuplicateSpecError)
    placed = {a for c in calls for a in c.batch_explicit}
    placed = placed | set(vmap.spmd.names) if vmap.kind is VmapKind.EXPLICIT else placed & set(vmap.spmd.names)
    if placed:
        out += [lost for use in vmap.reshards for lost in use.specs.lost]
    # a with_sharding_constraint inside the vmapped function whose spec is not read (`P(*ACT_SPEC)` with
    # ACT_SPEC imported): whether it names the spmd axis decides SPMD005 (silence before: breaker4 p18)
    if vmap.kind is VmapKind.SPMD:
        out += [lost for use in vmap.constraints for lost in use.specs.lost]
        # ... and so does the unread `in_shardings` / `out_shardings` of a jax.jit inside it (SPMD005's jit form:
        # `out_shardings=sharded()`, a helper returning `NamedSharding(MESH, P('data', None))`, raised
        # `DuplicateSpecError` under "No errors found" before; found checking README's helper sentence)
        out += [lost for jit in vmap.jit_shardings for lost in jit.specs.lost]
    return out


def plain_captures_read(vmap: VmapFacts, reached: ReachedFacts) -> bool | None:
    """Whether SPMD003 under a plain vmap over an Explicit-placed input (`rules.capture`) reads the captures of
    this reached shard_map: it is a `jax.shard_map` on a mesh of Explicit axes whose specs name no placed axis
    (SPMD006 there), with captures (or staged ones not traced), and no inner vmap on the way or one whose
    dimension no call places (`hazards.inner_dimensions_unplaced`). None when that last is not decided from the
    calls (an SPMD910 record, `_inner_what`); False otherwise."""
    sm = reached.shard_map
    placed = set(vmap.spmd.names)
    if vmap.kind is not VmapKind.EXPLICIT or sm.api is ShardMapApi.SMAP or sm.mesh is None:
        return False
    if sm.mesh.axis_types is not AxisType.EXPLICIT or not (reached.captures or reached.unread_captures):
        return False
    if any(True for t in (sm.in_specs, sm.out_specs) for _ in t.entries_naming(placed)):
        return False
    return inner_dimensions_unplaced(vmap.calls) if reached.vmaps else True


def _inner_what(vmap: VmapFacts, reached: ReachedFacts) -> tuple[Span, str]:
    """The SPMD910 record of a plain vmap's reached shard_map with captures whose SPMD003 depends on where the
    vmap's calls place the dimension an inner `jax.vmap` on the way maps, which the calls followed do not tell
    (`hazards.inner_dimensions_unplaced` None)."""
    calls = vmap.calls
    names = ", ".join(f"`{n}`" for n in dict.fromkeys(c.name for c in reached.captures)) or "a value"
    if calls is not None and calls.wrapping:
        use = calls.wrapping[0]
        span = use.span
        why = f"the calls of the vmapped function go through {use.describe()}, which spmdfix does not follow"
    else:
        span = vmap.span
        why = "no call of the vmapped function is followed"
    what = (
        f"where the calls of this `jax.vmap` without `spmd_axis_name` place the dimension the inner `jax.vmap` on "
        f"the way maps is not known: {why}; the shard_map body closes over {names}, which JAX refuses (SPMD003) "
        "when that dimension is placed on no mesh axis"
    )
    return span, what


def _assumed_what(vmap: VmapFacts) -> str:
    """What the SPMD910 record of `hazards.exemption_assumed` says: the calls followed place the batch where JAX
    runs what the vmap reaches; the uses not followed may call it otherwise."""
    unfollowed = vmap.calls.unfollowed if vmap.calls is not None else ()
    where = unfollowed[0].describe() if unfollowed else "a use not followed"
    return (
        "the calls of this vmap that spmdfix followed place the batch on the Explicit mesh axes where JAX runs "
        f"what it reaches, but {where} may call it too, with inputs placed otherwise, which JAX may refuse "
        "(SPMD003, SPMD007, SPMD008): not followed"
    )


def _beside_what(reached: ReachedFacts) -> str:
    """What an SPMD910 record says of a body whose binary steps are beside local values under `jax.lax.map` with a
    `batch_size` (`hazards.h2_undecided`)."""
    names = ", ".join(f"`{n}`" for n in sorted(reached.shard_map.body.binary_beside or ()))
    return (
        f"whether the shard_map body's binary steps beside {names} fail under this `jax.lax.map` with `batch_size` "
        f"(SPMD007) is not known: they run when {names} is batched by the vmap and the batch size divides the "
        "length it maps, and fail otherwise; spmdfix reads neither"
    )


def placement_matters(vmap: VmapFacts, call: VmapCall) -> bool:
    """An spmd vmap's call whose batch placement is not read, where SPMD008 needs the batch placed on the
    Explicit spmd axis and would be silent:
    - its eager case: a reached shard_map with `check_vma` not known to be on, reached with no jit nor staging
      loop on the way (`staged_eagerly`), on a mesh not known to have no Explicit axis;
    - its `axis_names` case, eager or under jit: a reached shard_map whose `axis_names` names an spmd axis not
      known to be other than Explicit on its mesh (`rules.not_manual.placed_axis_names_findings`; fuzz/project.py
      seed 600075).
    (The exemptions of SPMD003 and SPMD007 need a read placement too: without one those findings stay
    reported.)"""
    if vmap.kind is not VmapKind.SPMD:
        return False
    if any(_names_a_maybe_explicit_spmd_axis(vmap, r) for r in vmap.reached):
        return True
    if call.under_jit:
        return False
    return any(
        r.shard_map.check_vma is not True and not r.staged_eagerly and not r.jit_wrapped
        and (r.shard_map.mesh is None or r.shard_map.mesh.axis_types is not AxisType.AUTO)
        for r in vmap.reached
    )


def _names_a_maybe_explicit_spmd_axis(vmap: VmapFacts, reached: ReachedFacts) -> bool:
    """The reached shard_map's `axis_names` (read) names an spmd axis of the vmap that its mesh does not
    show to be other than Explicit (its mesh not read, or the axis's type not read, counts)."""
    sm = reached.shard_map
    named = spmd_axes_named_manual(vmap, sm)
    return any(sm.mesh is None or sm.mesh.type_of(a) in (AxisType.EXPLICIT, AxisType.UNKNOWN) for a in named)


def matters(vmap: VmapFacts, reached: ReachedFacts, value: UnreadValue) -> bool:
    """Whether the unread `value` of the shard_map `reached` leads to could change a finding of `vmap`."""
    spmd = vmap.kind is VmapKind.SPMD
    if value.kind in (UnreadKind.COLLECTIVE, UnreadKind.AXIS_NAMES):
        return spmd
    if value.kind is UnreadKind.CHECK_VMA:
        return _check_vma_matters(vmap, reached, spmd)
    return _mesh_matters(vmap, reached, spmd)


def _check_vma_matters(vmap: VmapFacts, reached: ReachedFacts, spmd: bool) -> bool:
    sm = reached.shard_map
    eager = not reached.staged_eagerly and vmap.calls is not None and any(not c.under_jit for c in vmap.calls.calls)
    if not spmd:  # SPMD008 of a plain vmap: only when no spec entry names the placed axes (SPMD006 then)
        named = any(True for t in (sm.in_specs, sm.out_specs) for _ in t.entries_naming(set(vmap.spmd.names)))
        return eager and not named
    h2 = bool(reached.vmaps or sm.body.inner_vmap) and not sm.body.unary_only
    return (
        h2 or bool(reached.captures) or _spmd_collectives(vmap, reached)
        or (eager and (_batch_placed(vmap) or bool(reached.inner_mapped)))
    )


def _mesh_matters(vmap: VmapFacts, reached: ReachedFacts, spmd: bool) -> bool:
    sm = reached.shard_map
    if not spmd:  # SPMD008 of a plain vmap reads the mesh's axis types under check_vma=False
        return sm.check_vma is not True
    size_one = sm.check_vma is not True and (bool(reached.captures) or _spmd_collectives(vmap, reached))
    return _batch_placed(vmap) or bool(reached.inner_mapped) or size_one


def _batch_placed(vmap: VmapFacts) -> bool:
    """Some call of the vmap places its batch dimension on mesh axes (the Explicit cases need that)."""
    calls = vmap.calls
    return calls is not None and any(c.batch_placement is BatchPlacement.AXES for c in calls.calls)


def _spmd_collectives(vmap: VmapFacts, reached: ReachedFacts) -> bool:
    """A collective of the body over an spmd axis, of an operand the vmap batches (SPMD004 reads no other)."""
    spmd = set(vmap.spmd.names)
    return any(
        spmd & set(c.axes.names) and c.call not in reached.unbatched_collectives
        for c in reached.shard_map.body.collectives
    )
