"""Hazard predicates over analysis facts: where JAX fails (or runs) whatever spec a fix leaves.

Rules (`spmdfix.rules`) read them to decide what to report and fixes (`spmdfix.fixes`) to decide how safe an
edit is; they live here, below both, so that detection does not depend on fixing. Pure functions of the facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spmdfix.analysis.kinds import AxisType, BatchPlacement

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports this module without the analysis
    from spmdfix.analysis.facts import Capture, NestedShardMap, ReachedFacts, ShardMapFacts, VmapCalls, VmapFacts
    from spmdfix.analysis.values import MeshInfo


def has_h2(vmap: VmapFacts) -> bool:
    """Hazard H2 at any shard_map the vmap site reaches (`h2_at`)."""
    return any(h2_at(vmap, r) for r in vmap.reached)


def h2_at(vmap: VmapFacts, reached: ReachedFacts) -> bool:
    """Hazard H2: a jax.vmap between the spmd vmap and this reached shard_map (or in its body), check_vma on,
    a body that applies a binary primitive (unary-only bodies run, measured: analysis.primitives), and a
    batch that is not placed on an Explicit mesh (`batch_on_explicit_axes`). When the only inner vmaps are written
    in the body and map lambdas of unary steps, binary steps of the body outside them (`jax.vmap(jnp.sin)(b) * b`)
    run too (measured: safety/measurements/spmd007_binary_beside_inner_vmap.py; fuzz seed 20245). A body whose
    steps are unary but for `psum` / `pmax` / `pmin` over literal axes runs when none of those axes is an spmd
    axis of this vmap (`BodyFacts.unary_collective_axes`; measured:
    safety/measurements/spmd007_body_collectives_constants.py); `all_gather` / `ppermute` / `psum_scatter` among
    them only over an axis every in_spec and out_spec splits the block on (`_split_on`; measured:
    safety/measurements/spmd007_gather_permute_index_local_constants.py)."""
    return _h2_unless_unary(vmap, reached) and not _unary(vmap, reached) and not beside_locals(reached)


def h2_undecided(vmap: VmapFacts, reached: ReachedFacts) -> bool:
    """H2's conditions hold but for a body whose binary steps each have a local value of the enclosing function
    as an operand, under `jax.lax.map`s with a `batch_size` only (`beside_locals`): JAX's outcome there depends
    on what the analysis does not read (an SPMD910 record, `unread_matters.records`; no SPMD007)."""
    return _h2_unless_unary(vmap, reached) and not _unary(vmap, reached) and beside_locals(reached)


def _h2_unless_unary(vmap: VmapFacts, reached: ReachedFacts) -> bool:
    sm = reached.shard_map
    return (
        bool(reached.vmaps or sm.body.inner_vmap) and sm.check_vma is not False
        and not (sm.body.inner_unary and not reached.vmaps)
        and not batch_on_explicit_axes(vmap, sm.mesh)
    )


def _unary(vmap: VmapFacts, reached: ReachedFacts) -> bool:
    sm = reached.shard_map
    axes = sm.body.unary_collective_axes
    return sm.body.unary_only or (
        axes is not None and not axes & set(vmap.spmd.names) and _split_on(sm, sm.body.split_collective_axes)
    )


def beside_locals(reached: ReachedFacts) -> bool:
    """The only inner vmaps on the way are `jax.lax.map`s with a `batch_size` (none in the body), and the body's
    binary steps each have as an operand a value local to a function around it (`BodyFacts.binary_beside`,
    `jnp.cumsum(b) * m` with `m = x.mean() + 2.0`). Measured on jax 0.10.2
    (safety/measurements/spmd007_lax_map_beside_batched_capture.py; fuzz seed 370569): when that value is
    batched by the spmd vmap, H2's `out_specs which require replication` error does not come; the body runs and
    matches when the batch size divides the length the map maps, and with a remainder fails on the capture
    (`AssertionError: ManualAxisType`); when it is not batched H2's error comes as for `b * 2.0`. The analysis
    reads neither the batching of a value on a staged way nor the mapped length: undecided (`h2_undecided`)."""
    sm = reached.shard_map
    return bool(sm.body.binary_beside) and bool(reached.vmaps) and not sm.body.inner_vmaps and (
        len(reached.batched_maps) == len(reached.vmaps)
    )


def _split_on(sm: ShardMapFacts, axes: frozenset[str]) -> bool:
    """Every in_spec and out_spec of the shard_map (all read) has an entry that is exactly each of `axes` (`P('y')`
    for `'y'`): the block is split on them, in and out. True when `axes` is empty."""
    if not axes:
        return True
    for tree in (sm.in_specs, sm.out_specs):
        if tree.unresolved or not tree.specs:
            return False
        for spec in tree.specs:
            if not all(e.known for e in spec.entries):
                return False
            singles = {e.value.names[0] for e in spec.entries if e.value is not None and len(e.value.names) == 1}
            if not axes <= singles:
                return False
    return True


def calls_stand(calls: VmapCalls | None) -> bool:
    """Whether what holds for every call of a vmap spmdfix followed may be said of the program's calls: the
    calls followed are the program's as written (`VmapCalls.exact`). For a finding (JAX fails on those calls),
    uses not followed that can only add calls (the callable imported by another module, passed on) leave each
    followed call failing; since 81f9365 the importers not being known (a check from a directory of loose
    modules) made every such call set incomplete, and the findings silent. An exemption (JAX runs) is read
    from the calls followed as well: required to be complete, it turned programs that run
    into findings whenever the importers were not known (4 clean golden cases gave SPMD003/SPMD008 when
    checked from /tmp). What the calls not followed may add is then an SPMD910 record, not a finding
    (`exemption_assumed`, `unread_matters.records`)."""
    if calls is None:
        return False
    return calls.exact


def exemption_assumed(vmap: VmapFacts) -> bool:
    """Whether an exemption of the vmap's reached shard_maps holds for the calls followed only, while uses not
    followed (the vmapped callable imported by modules not searched, passed on, stored) may add calls that do
    not place the batch so (`calls_stand`): an SPMD910 record."""
    calls = vmap.calls
    if calls is None or calls.complete or not calls.exact:
        return False
    return any(
        batch_on_explicit_axes(vmap, r.shard_map.mesh) or batch_on_explicit_spmd_axes(vmap, r.shard_map.mesh)
        for r in vmap.reached
    )


def batch_on_explicit_axes(vmap: VmapFacts, mesh: MeshInfo | None) -> bool:
    """The shard_map's mesh has Explicit axes only and every call of the spmd vmap (all followed) places
    its batch dimension on mesh axes (`jax.device_put(x, NamedSharding(mesh, P('x', ...)))`).

    Measured with jax 0.10.2 (safety/measurements/h2_explicit_placed.py): there an inner `jax.vmap` with a
    binary body runs and matches, eagerly and under jit, whatever the specs; the `pvary` error of H2 comes
    back when the batch is left unplaced (under jit; eager calls then fail on the in_specs check of the
    Explicit mesh), and on a mesh whose spmd axis is Auto. "Every call": every call followed (`calls_stand`)."""
    calls = vmap.calls
    return (
        mesh is not None and mesh.axis_types is AxisType.EXPLICIT and calls_stand(calls)
        and all(c.batch_placement is BatchPlacement.AXES for c in calls.calls)
    )


def batch_on_explicit_spmd_axes(vmap: VmapFacts, mesh: MeshInfo | None) -> bool:
    """Every spmd axis of the vmap is an Explicit axis of the shard_map's `mesh` (read per axis: a mixed mesh
    qualifies when its spmd axes are Explicit), and every call of the vmap (all followed) places the batch
    dimension of every mapped argument on exactly the spmd axes of that same mesh
    (`jax.device_put(x, NamedSharding(mesh, P('y', ...)))` under `spmd_axis_name='y'`).

    Measured with jax 0.10.2 (safety/measurements/capture_explicit_mesh.py): there a shard_map body that
    closes over a value the vmap batches (or an unbatched array under all-replicated specs) runs and matches
    with check_vma=True, eager and under jit, on Explicit and mixed meshes alike; it fails (ManualAxisType, or
    `Closing over inputs to shard_map`) when the spmd axis is Auto whatever the other axes, when the batch is
    not placed or placed elsewhere, and under check_vma=False. "Every call": every call followed
    (`calls_stand`)."""
    calls = vmap.calls
    spmd = tuple(vmap.spmd.names)
    return (
        mesh is not None and bool(spmd) and all(mesh.type_of(a) is AxisType.EXPLICIT for a in spmd)
        and calls_stand(calls)
        and all(c.batch_axes == spmd and c.batch_mesh == mesh.span for c in calls.calls)
    )


def spmd_axes_named_manual(vmap: VmapFacts, sm: ShardMapFacts) -> list[str]:
    """The vmap's spmd axes that the shard_map's `axis_names` (read) names, in the vmap's order; [] when its
    `axis_names` is absent or not read. SPMD008 (`rules.not_manual`) reports them when every call places the
    batch on them; `unread_matters` asks whether an unread placement could make that so."""
    if sm.axis_names is None or sm.axis_names_unknown:
        return []
    return [a for a in vmap.spmd.names if a in sm.axis_names.names]


def placed_spmd_axis_out_of_context(vmap: VmapFacts, reached: ReachedFacts) -> bool:
    """The reached shard_map is partial-manual without the vmap's spmd axes (`axis_names={'x'}` under
    `spmd_axis_name='y'`) and every call places the batch on those axes of its Explicit mesh
    (`batch_on_explicit_spmd_axes`): the outer shard_map runs there (h4_explicit_placed.py), and the vmap takes
    the spmd axes out of the mesh a shard_map nested in its body sees (`nested_shard_map_placed_batch.py`)."""
    sm = reached.shard_map
    if sm.axis_names is None or sm.axis_names_unknown or not sm.api.written_specs:
        return False
    spmd = tuple(vmap.spmd.names)
    return bool(spmd) and not set(spmd) & sm.axis_names.names and batch_on_explicit_spmd_axes(vmap, sm.mesh)


def nested_on_staged_context(vmap: VmapFacts, reached: ReachedFacts, inner: NestedShardMap) -> bool:
    """`inner`, a shard_map nested in the reached body on its context mesh (no `mesh=`), sees a context mesh
    without the spmd axes: `placed_spmd_axis_out_of_context`, and a jit or a staging loop lies between the vmap
    and the reached shard_map (`ReachedFacts.staged_eagerly`).

    Measured on jax 0.10.2 (safety/measurements/nested_shard_map_placed_batch.py; fuzz seed 90384): on a
    2x2x2 Explicit mesh, outer `axis_names={'x'}`, batch placed on `'y'` (`reshard(X, P('y', None, None))`,
    also `P('y', 'x', None)`), spmd vmap over `'y'` or a plain vmap, with `jax.jit`, `jax.lax.map`, `lax.scan`,
    `fori_loop` or `while_loop` on the way: an inner `axis_names={'y'}` raises `jax.shard_map requires axis_names=frozenset({'y'})
    to be a subset of mesh.axis_names=frozenset({'z', 'x'})` whatever its specs, eager and under jit, any
    check_vma; an inner without `axis_names` whose specs name `'y'` raises `shard_map in_specs argument must
    refer to an axis marked as manual`; `axis_names={'z'}` runs. Reached directly (a jit only around the vmap
    included), the inner `axis_names={'y'}` with specs `P()` runs, and specs naming `'y'` raise `vmapped away
    explicit mesh axis cannot appear in shard_map in_specs`."""
    return inner.on_context_mesh and reached.staged_eagerly and placed_spmd_axis_out_of_context(vmap, reached)


def nested_names_placed_axes(vmap: VmapFacts, reached: ReachedFacts, inner: NestedShardMap) -> list[str]:
    """The spmd axes (for a plain vmap, the Explicit axes its batch is placed on) that the `axis_names` of the
    nested shard_map `inner` names where JAX raises `jax.shard_map requires axis_names=... to be a subset of
    mesh.axis_names` (`nested_on_staged_context`); [] elsewhere."""
    if inner.axis_names is None or not nested_on_staged_context(vmap, reached, inner):
        return []
    return [a for a in vmap.spmd.names if a in inner.axis_names.names]


def inner_dimensions_unplaced(calls: VmapCalls | None) -> bool | None:
    """Whether every call of a plain vmap places no mapped argument's dimension 1 (the one an inner `jax.vmap`
    maps) on a mesh axis: the inner vmap on the way is then measured to change nothing
    (safety/measurements/plain_vmap_placed_spellings.py, part 3; plain_vmap_inner_capture_staged.py, part 1). An
    argument whose placement there is not read (`next_dim` None: unplaced, not mapped at 0, or not known) counts
    as placed unless it is unplaced altogether (`off_batch` None as well for a mapped argument is not enough to
    tell: it is not proven).

    True when it holds for every call followed and those are the program's calls as written (`VmapCalls.exact`):
    a use not followed (the callable imported by another module, passed on) may add calls, but each call
    followed still fails as measured, so a finding about them stands. False when a call followed places that
    dimension or its placement is not read (not measured: no finding). None when it cannot be decided from the
    calls: no call is followed, or a decorator not followed stands between the calls and the vmap
    (`VmapCalls.wrapping`) while the calls followed would hold (an SPMD910 record:
    `unread_matters.records`)."""
    if calls is None or not calls.calls:
        return None
    holds = all(d == () for call in calls.calls for d in call.next_dim if d is not None) and all(
        d is not None for call in calls.calls for d, off in zip(call.next_dim, call.off_batch) if off is not None
    )
    if not holds:
        return False
    return True if calls.exact else None


def input_committed(
    capture: Capture, calls: VmapCalls | None, mesh: MeshInfo | None, through_vmaps: bool = False
) -> bool:
    """Some call of the vmap places an input of `capture`'s value (one of its `params`) on the shard_map's
    `mesh` with no mesh axis at its batch dimension (`facts.VmapCall.unbatched_mesh`), or the capture is an
    unmapped argument kept as committed off the spmd axes (`Capture.unmapped`); False when the inputs of the
    value are not known. Measured on jax 0.10.2: such a capture reached through a staging function fails with
    `Closing over inputs to shard_map where the input is sharded on Explicit axes`, one from unplaced inputs
    runs (safety/measurements/capture_staged_explicit_placement.py); under a plain vmap over an input placed
    with its batch dimension on no axis it fails so staged or not (safety/measurements/
    plain_vmap_placed_spellings.py, part 7; fuzz seed 29). With `through_vmaps`, inputs known only back
    through an inner `jax.vmap` on the way (`Capture.through_vmaps`) count too: under a plain vmap whose calls
    place the batch dimension and the one the inner vmap maps on no axis, measured to fail the same way, the
    argument mapped by the inner vmap or not (safety/measurements/plain_vmap_committed_capture_inner_nested.py,
    part A; fuzz seed 350770)."""
    params = capture.params
    if params is None and through_vmaps:
        params = capture.through_vmaps
    if mesh is None or calls is None or params is None:
        return False
    if capture.unmapped:
        return True  # `_unmapped_uses` kept it for the same reason, on an unmapped argument
    return any(
        i < len(call.unbatched_mesh) and call.unbatched_mesh[i] == mesh.span
        for call in calls.calls for i in params
    )
