"""The facts the analysis gives the rules and the fixes: one frozen record per thing it found, with spans.

The contract between the analysis and everything after it (`spmdfix.plan`, the planners under
`spmdfix.codemods`): the planners read these records, never the `ast`. For every `jax.vmap` with a resolvable
`spmd_axis_name` (`VmapFacts`, kind `VmapKind.SPMD`), and every plain vmap over an input placed on Explicit mesh
axes (kind `VmapKind.EXPLICIT`, with that `Placement`): the calls of the vmap (`VmapCalls`), the `with_sharding_constraint`
specs on the way (`ConstraintUse`), and the shard_maps it reaches (`ReachedFacts`), each with its
construction (`ShardMapFacts`: in_specs/out_specs entries, mesh, `axis_names`, check_vma, what the body does:
`BodyFacts`), the values its body closes over (`Capture`) and where lift-captures would edit (`LiftSite`).
`FunctionSummary` is the same for one callable of another module of the project, as its model keeps it.

JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs` (resp. `out_specs`) when any spmd axis
appears in any in_specs (out_specs) entry of a reached shard_map, batched argument or not
(docs/jax-behaviour.md, "When JAX raises"). Who computes each fact: `analysis.analyzer` (the driver),
`analysis.reached` (the facts of one reached shard_map), `analysis.shard_map_facts`, `analysis.capture`,
`analysis.lift`, `analysis.vmap_calls`, `analysis.placement`, `analysis.values` with `analysis.specs` and
`analysis.meshes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# (the kinds live in their own small module: the rules and fixes compare them at run time, and importing
# this one would compile its records on the serial start of a run)
from spmdfix.analysis.kinds import BatchPlacement, CaptureKind, SpecsForm, UnreadKind, VmapKind
from spmdfix.model import Related, SiteId, Span
from spmdfix.perf import record

if TYPE_CHECKING:
    from collections.abc import Callable

    from spmdfix.analysis.uses import Use
    from spmdfix.jaxapi import ShardMapApi
    from spmdfix.analysis.values import AxisNames, MeshInfo, Spec, SpecTree


# eq=False, repr=False: nothing compares, hashes or prints these records, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@record(frozen=True)
class AxisNamesArg:
    """A shard_map `axis_names=` argument: the names, and the set/tuple/list display to extend (or None)."""

    names: frozenset[str]
    display: Span | None
    quote: str
    written: Span | None = None  # where the names are written (smap's `axis_name=` value), for findings


@record(frozen=True)
class UnreadValue:
    """A value of a reached shard_map the analysis needs but cannot read (issue 22: never silent): which one
    (`kinds.UnreadKind`: the mesh, `axis_names`, `check_vma` or a collective's axis), the expression (or, for a mesh given by no
    expression, the shard_map), and what the SPMD910 record says (`unknown_values.unread_message`: the
    expression, and why it stopped). Whether it could change a finding is judged per vmap
    (`unread_matters.records`)."""

    kind: UnreadKind
    span: Span
    what: str
    # A BODY record read as for an spmd vmap (another module's summary): what it says under a plain vmap over a
    # batch placed on Explicit axes, which `reached.as_plain_vmap` takes; "" for every other record
    plain: str = ""


@record(frozen=True)
class CollectiveUse:
    """A collective or axis query in a shard_map body (or a function it calls), with its axis argument."""

    name: str
    axes: AxisNames
    call: Span
    line: int = 0  # 1-based line of the call, for reasons that name it


@record(frozen=True)
class NestedShardMap:
    """A shard_map applied inside another shard_map's body: where it is built, its specs, its `axis_names=`
    (None when not passed, or for a `jax.smap`; `unread` holds the SPMD910 value when it cannot be read) and
    whether it runs on the context mesh (no `mesh=`: the abstract mesh of the enclosing shard_map's body)."""

    span: Span
    in_specs: SpecTree
    out_specs: SpecTree
    axis_names: AxisNamesArg | None = None
    on_context_mesh: bool = False
    unread: tuple[UnreadValue, ...] = ()


@record(frozen=True)
class BodyFacts:
    """What a shard_map body does, as far as the rules and the transforms' safety need to know."""

    resolved: bool
    reason: str
    collectives: tuple[CollectiveUse, ...]
    collectives_unknown: bool
    inner_vmaps: tuple[Span, ...]
    # shard_maps the body applies (a nested shard_map): measured on jax 0.10.2, under an spmd vmap neither
    # rename, add-axis nor strip runs (DuplicateSpecError eager, a verifier error under jit); dropping
    # spmd_axis_name does.
    nested_shard_maps: tuple[NestedShardMap, ...] = ()
    unary_only: bool = False  # only unary primitives: no hazard H2 under an inner vmap (analysis.primitives)
    # every inner vmap of the body is written in it as `jax.vmap(<lambda of unary steps>)`: binary steps
    # outside those vmaps do not bring H2 back (measured: safety/measurements/spmd007_binary_beside_inner_vmap.py)
    inner_unary: bool = False
    # the body is made of unary steps and of `psum` / `pmax` / `pmin` over these literal axes
    # (`jaxapi.H2_FREE_COLLECTIVES`); None when it is not. Such a body runs under H2's conditions when no spmd
    # axis of the vmap is among them (measured: safety/measurements/spmd007_body_collectives_constants.py):
    # `analysis.hazards.h2_at` compares. `unary_only` is the case of no collective (an empty set).
    unary_collective_axes: frozenset[str] | None = None
    # among `unary_collective_axes`, those of `all_gather` / `ppermute` / `psum_scatter`
    # (`jaxapi.H2_SPLIT_AXIS_COLLECTIVES`), which run under H2's conditions only when every in_spec and out_spec
    # splits the block on them (measured: safety/measurements/spmd007_gather_permute_index_local_constants.py)
    split_collective_axes: frozenset[str] = frozenset()
    # a body that is not unary-only but made of unary steps and of `+ - * /` steps beside these free names
    # (`jnp.cumsum(b) * m`: `primitives.UnaryCheck.unary_beside`); None otherwise. Under a `jax.lax.map` with a
    # `batch_size` (no jax.vmap) it runs when they are all values the spmd vmap batches (`hazards.h2_at`).
    binary_beside: frozenset[str] | None = None
    # The body's own collectives could not all be read (`collectives_unknown` is also set by a nested shard_map,
    # whose body `collectives` leave out); the collectives of the nested shard_maps' bodies, and whether some of
    # them could not be read: drop-spmd-axis judges both (fixes.drop_spmd_axis).
    own_collectives_unknown: bool = False
    nested_collectives: tuple[CollectiveUse, ...] = ()
    nested_collectives_unknown: bool = False
    unread_axes: tuple[UnreadValue, ...] = ()  # the axis arguments of the body's own collectives not read
    # (line, text) of the first `with_sharding_constraint` / `reshard` the body applies: under an spmd vmap JAX
    # inserts the spmd axis into its spec, which the shard_map's manual axes then hold, so rename and add-axis
    # fail there (safety/trials/breaker12 r16: `can only refer to Auto axes`, `contains a manual axes`)
    sharding_in_body: tuple[int, str] | None = None
    # among `inner_vmaps`, the calls that are no `jax.vmap` but fail as one does (`jaxapi.INNER_BATCHING_NAMES`:
    # `jnp.vectorize`, `jax.jacfwd`, `jnp.interp`, `jax.lax.cond`, ...), each with the name the body writes:
    # SPMD007's message names it (safety/trials/breaker13)
    batching_calls: tuple[tuple[Span, str], ...] = ()
    # why the body's inner vmaps and other hazard-H2 calls (`batching_calls`) are not read ("" when they are):
    # the body is not a function of this module (an instance, another module's function). A fix keeping the
    # spmd vmap with check_vma on is then not proven (breaker13: add-axis SAFE over `shard_map(Layer(), ...)`
    # whose `__call__` applies `lax.cond` raised `pvary`)
    h2_unread: str = ""
    # the calls of the read body (the functions of the project it reaches included) off hazard H2's measured
    # allowlist for some fix kind (`analysis.h2_calls.H2Call`): rename, add-axis and strip, which keep the spmd
    # vmap, are not proven under `check_vma=True` while one is left (`fixes.edits.h2_call_reasons`)
    h2_calls: tuple = ()

    @property
    def collective_axes(self) -> frozenset[str]:
        return frozenset(a for c in self.collectives for a in c.axes.names)

    @property
    def inner_vmap(self) -> bool:
        return bool(self.inner_vmaps)


@record(frozen=True)
class ConstraintUse:
    """A with_sharding_constraint call on the way from a vmap, with its spec(s)."""

    call: Span
    specs: SpecTree
    shared: tuple[str, ...] = ()  # uses elsewhere of the spec values it is written in (`...` (line n))


@record(frozen=True)
class ReshardUse:
    """A `jax.sharding.reshard(v, spec)` (or `NamedSharding(mesh, spec)`) call inside the vmapped function, or
    a function it calls, whose operand `v` may hold a value the vmap batches (`analysis.reshards`).

    Measured (safety/measurements/reshard_inside_vmap.py, jax 0.10.2): when the batch is placed on an Explicit
    mesh axis (a plain vmap or one with spmd_axis_name), a spec naming that axis at any dimension raises
    `DuplicateSpecError` (`P('x', 'x')`), eager and under jit; an unbatched operand, or an unplaced batch, runs.
    spec: the span of the spec expression (the strip edits its entries); shared: other uses of the spec's
    value (`...` (line n)), as `ConstraintUse.shared`. other_callers: the places that run the function holding
    the reshard without the vmap (`analysis.callers.OtherCallers`, and the modules importing it), as
    `ReachedFacts.other_callers`: on an Explicit mesh a placement is part of the value's type there (a later
    shard_map's in_specs check reads it), so a strip is proven only for the calls under the vmap; exits: the
    module-level names it leaves a summary's module by, searched from the vmap's module (`ReachedFacts.exits`).
    """

    call: Span
    specs: SpecTree
    shared: tuple[str, ...] = ()
    other_callers: tuple[str, ...] = ()
    exits: tuple[tuple[str, str, bool], ...] = ()


@record(frozen=True)
class JitShardings:
    """One `in_shardings` / `out_shardings` argument of a `jax.jit` applied inside the vmapped function
    (`jax.jit(g, out_shardings=...)`, `partial(jax.jit, in_shardings=...)`, a jit decorator below the spmd
    vmap's), with its specs.

    Measured (safety/measurements/rename_reached_shardings.py, jax 0.10.2): once the spmd axis is an axis these
    shardings name, JAX prepends it to them and raises `DuplicateSpecError` (`P('y', None, 'y')`), eager and
    under jit; naming other axes (the old spmd axis too) runs. described: the argument as reasons name it
    (`` `out_shardings=SH` of the jax.jit at line 12 ``); unreadable: some of it could not be read (a call
    spmdfix does not model, a parameter; `**kwargs` passed to the jit is one such argument).
    """

    call: Span
    described: str
    specs: SpecTree
    unreadable: bool = False


@record(frozen=True)
class ShardMapFacts:
    """One shard_map construction and everything known about it; `site` is its identity (`model.SiteId`)."""

    site: SiteId
    span: Span
    # which shard_map API builds it (jaxapi.ShardMapApi: where its specs come from, its check flag, its
    # manual axes); for jax.smap the specs are read from in_axes/out_axes and `axis_names` is its one axis
    api: ShardMapApi
    check_span: Span | None  # the check_vma= / check_rep= value as written, when given
    in_specs: SpecTree
    out_specs: SpecTree
    mesh: MeshInfo | None
    axis_names: AxisNamesArg | None
    axis_names_unknown: bool
    check_vma: bool | None
    body: BodyFacts
    # the mesh, `axis_names` and `check_vma` the analysis could not read (`UnreadValue`); the body's
    # collectives' axes are `body.unread_axes`
    unread: tuple[UnreadValue, ...] = ()
    # when in_specs is written at the shard_map as a tuple or list display (no starred element): the specs of
    # each operand, by position (each element's own tree: a `P(...)`, a name bound to one, a pytree prefix);
    # None otherwise
    operand_specs: tuple[SpecTree, ...] | None = None


@record(frozen=True)
class Capture:
    """A value a shard_map body reads from an enclosing scope: its name and first use.

    kind BATCHED: a value the spmd vmap batches. kind ARRAY: a non-scalar array the vmap
    does not batch, read by a body whose specs name no mesh axis while check_vma is on (measured on jax
    0.10.2: `AssertionError: ManualAxisType(...)` under any spmd vmap, eager and under jit; a scalar, a body
    whose specs name an axis, or check_vma=False run).
    """

    name: str
    use: Span
    kind: CaptureKind = CaptureKind.BATCHED
    line: int = 0  # 1-based row of `use`, for reasons that name it
    # kind BATCHED: the indices of the vmapped function's positional parameters its value comes from
    # (itself, or locals assigned from them, back through plain positional calls); None when not known.
    params: tuple[int, ...] | None = None
    # kind BATCHED: as `params`, also back through an inner `jax.vmap(f, in_axes)` applied at once (an operand
    # reaches `f` at its position, whole or sliced). Read only by SPMD003's exemption for a batch placed on
    # Explicit spmd axes, measured through such an inner vmap, the operand mapped or not
    # (safety/measurements/capture_explicit_placed_inner_vmap.py; fuzz seed 120152)
    through_vmaps: tuple[int, ...] | None = None
    # kind BATCHED: the value is a full reduction to a per-example scalar (`m = x.mean() + 2.0`, bound once in
    # the function defining the body), so it is placed on no mesh axis beyond the batch whatever its inputs are
    scalar: bool = False
    # kind BATCHED: every read of the value in the body (through the parameter a default or a `partial` keyword
    # binds it to) is an operand of `*`, `+`, `-` or `/` whose other operand varies with the body's block (`b * m`,
    # `jnp.sin(b) * w`; not `jnp.exp(m) * b`, `m * 2.0 * b`, `b.shape[0] * m`, `jax.lax.psum(b, 'x') * m`):
    # `CaptureAnalysis._mixed_only`. Under a partial-manual shard_map with check_vma on such a capture runs
    mixed_only: bool = False
    # with mixed_only: for each read, the positions among the shard_map's operands (the body's positional
    # parameters) of the blocks its other operand varies with (`((b * 2.0) * w) * m` under `body(b, w)`: (0, 1)).
    # Only a block whose in_spec names a manual axis brings the capture into the body's context mesh: a read
    # meeting only a block under `P()` fails (safety/measurements/partial_manual_capture_replicated_operand.py)
    mixed_blocks: tuple[tuple[int, ...], ...] = ()
    # kind BATCHED: reached through a staging function (a jit, checkpoint or lax loop on the way, or
    # `jax.jit(shard_map(...))`) on a mesh of Explicit axes whose batch is not proven placed on the spmd axes;
    # kept only because a call of the vmap places an input of the value on that mesh with no mesh axis at its
    # batch dimension, where JAX refuses it: `NotImplementedError: Closing over inputs to shard_map where the
    # input is sharded on Explicit axes` (analysis.capture.CaptureAnalysis.captures)
    off_spmd: bool = False
    # with off_spmd: the value comes from an argument the vmap does not map (`in_axes=None`) that a call
    # commits to the shard_map's Explicit mesh (any spec): JAX refuses it the same way, the value being
    # unbatched (safety/measurements/capture_staged_explicit_unbatched_arg.py)
    unmapped: bool = False
    # kind BATCHED, not off_spmd: the value comes from an argument the vmap does not map (`in_axes=None`) that a
    # call commits to the shard_map's Explicit mesh (any spec) while every call places the batch on the spmd axes;
    # JAX fails on it (`For primitive mul, context mesh ... should match the aval mesh`) under all-replicated specs
    # and with check_vma=False, staged or not; with check_vma=True and in_specs naming an axis besides the spmd
    # ones a scalar computed from it runs (safety/measurements/capture_staged_spmd_placed_unbatched_arg.py)
    committed: bool = False
    # read in the body of a shard_map nested in the reached body (`ReachedAnalysis._nested_captures`): refused
    # there with `Closing over inputs to shard_map` even under a partial-manual outer shard_map, whose exemption
    # (`mixed_only`) was measured for the reached body only (plain_vmap_committed_capture_inner_nested.py, part B)
    nested: bool = False
    # kind PLACED: the array is made by a `jax.numpy` constructor or a `jax.random` sampler inside `with
    # jax.set_mesh(mesh):` (or after a `jax.set_mesh(mesh)` statement) of an Explicit mesh, not by
    # `jax.device_put`: JAX commits it to that mesh (`CaptureAnalysis.placed_arrays`)
    made_under_mesh: bool = False
    # kind BATCHED: read in a function of the function defining the body that the body calls (`def gate(v): return
    # v * scale` beside `def body(b): return b * gate(b)`): JAX fails on it as on a read in the body (breaker6 r45;
    # `CaptureAnalysis._helper_uses`: the helper's name); lift-captures would leave that closure, so it is not
    # offered. "" for a read in the body itself
    helper: str = ""


@record(frozen=True)
class LiftSite:
    """Where the lift-captures transform edits: the body's parameters, in_specs and the application call.

    params: the `def` name (the transform extends that function's parameters) or the `lambda`.
    in_specs_form: how in_specs is written (`SpecsForm`: a single `P(...)`, a tuple/list display, or `()`).
    vmaps: `jax.vmap(g)` wrappers between the shard_map and the body (outermost first); the lifted
    parameter must not be mapped by them, so each gets `in_axes=(0, ..., 0, None, ...)` with `arity` zeros
    (measured on jax 0.10.2: without it, `vmap was requested to map its argument along axis 0` for a
    per-example scalar; with it the lifted program runs and matches under check_vma=False).
    unsafe: why a use of a lifted value is not on the allowlist (empty when every use is), naming it.
    """

    params: Span
    in_specs: Span
    in_specs_form: SpecsForm
    in_specs_text: str
    spec_callee: str
    call: Span
    vmaps: tuple[Span, ...] = ()
    arity: int = 0
    unsafe: str = ""


@record(frozen=True)
class VmapCall:
    """One call of the vmapped function.

    batch: the size of the mapped dimension (an int when the argument's shape is a literal of the module, else
    None). under_jit: the call is traced under `jax.jit` (the callable is jitted, or the call sits in a jitted
    function). batch_placement: NONE when a mapped argument is placed (`jax.device_put(x, NamedSharding(mesh,
    spec))`) with `None` at the batch dimension, AXES when one is placed on mesh axes there, UNKNOWN otherwise
    (`BatchPlacement`).
    batch_axes / batch_mesh: when every mapped argument is placed with the same mesh axes at its batch dimension
    (`P(('x', 'y'), ...)` gives `('x', 'y')`) on the same resolved mesh, those axes and that mesh construction's
    span; None otherwise (an argument unplaced, placed otherwise, or not followed).
    next_dim: per positional argument mapped along axis 0 and placed that way, the mesh axes its placement
    names at dimension 1 (the per-example dimension an inner `jax.vmap` maps; `()` for `None` there); None
    for any other argument.
    off_batch: per positional argument, the mesh axes its placement names at every dimension other than its
    mapped one (`()` when none), None when it is not mapped or its placement is not known.
    """

    span: Span
    line: int
    batch: int | None
    under_jit: bool
    batch_placement: BatchPlacement
    batch_axes: tuple[str, ...] | None = None
    batch_mesh: Span | None = None
    ranks: tuple[int | None, ...] = ()  # per positional argument: the rank one example has in the function
    next_dim: tuple[tuple[str, ...] | None, ...] = ()
    off_batch: tuple[tuple[str, ...] | None, ...] = ()
    # per positional argument, the span of the resolved mesh its placement (`jax.device_put(x,
    # NamedSharding(mesh, spec))`, `reshard`) puts it on when the spec is known to name no mesh axis at its
    # mapped dimension (`P(None, ...)`, `P()`); None for any other argument (unplaced, placed on axes there,
    # not mapped, or not known)
    unbatched_mesh: tuple[Span | None, ...] = ()
    # per positional argument the vmap does not map (`in_axes` None there), the span of the resolved mesh its
    # placement commits it to, whatever the spec (`P()`, `P('y')`, ...); None for any other argument
    unmapped_mesh: tuple[Span | None, ...] = ()
    # per positional argument the vmap does not map, the mesh axes its placement names at any dimension (`()`
    # for `P()`, `P(None)`), None for any other argument or when not known (SPMD003 under a plain vmap: a
    # committed argument placed on no mesh axis is exempt where a batched capture is)
    unmapped_axes: tuple[tuple[str, ...] | None, ...] = ()
    # (span, what) of a mapped argument placed by `jax.device_put` whose sharding or spec cannot be read (its
    # batch placement is then UNKNOWN): an SPMD910 record where the placement decides a finding
    # (`unread_matters`)
    unread_placement: tuple[Span, str] | None = None
    # those of `batch_axes` that are Explicit axes of the resolved mesh (a reshard inside the vmapped function
    # naming one raises `DuplicateSpecError`: `ReshardUse`)
    batch_explicit: tuple[str, ...] = ()
    # how a message names the call's line: "nb.ipynb cell 4 line 1" in a notebook (whose module is its code
    # cells joined), "" for `line` itself (`where`)
    shown_line: str = ""

    @property
    def where(self) -> str:
        """The call's line as a reason names it: `line 12`, or in a notebook `nb.ipynb cell 4 line 1`."""
        return self.shown_line or f"line {self.line}"


@record(frozen=True)
class VmapCalls:
    """Every call of one vmapped function that spmdfix followed, and the uses it could not follow.

    wrapping: those of `unfollowed` that stand between the calls followed and the vmap (a decorator not followed
    above the vmap decorator: `@my_deco @jax.vmap def apply`), so that a call followed may not pass its arguments
    to the vmap as written. The other uses not followed (the callable passed on, stored, imported by another
    module) may only add calls: each call followed is then still one of the vmap's, with its own arguments."""

    calls: tuple[VmapCall, ...]
    unfollowed: tuple[Use, ...]
    wrapping: tuple[Use, ...] = ()

    @property
    def complete(self) -> bool:
        return bool(self.calls) and not self.unfollowed

    @property
    def exact(self) -> bool:
        """Some call is followed, and each call followed passes its arguments to the vmap as written
        (`wrapping` empty): what holds for all of them holds for calls the program makes, whatever other calls
        the uses not followed may add (a finding about them stands; an exemption does not)."""
        return bool(self.calls) and not self.wrapping


@record(frozen=True)
class Placement:
    """How a plain vmap's input is placed: `jax.device_put(x, NamedSharding(mesh, P(...)))`.

    call: the device_put call. spec: its PartitionSpec as evaluated (entry 0 is the batch dimension).
    callee: how that spec's constructor is spelled (`P`, `jax.P`). shared: the spec is reached through a
    name, so editing it edits every other use of that name too. mesh: the resolved Explicit mesh.
    """

    call: Span
    spec: Spec
    callee: str
    shared: bool
    mesh: MeshInfo

    def rest(self) -> tuple[tuple[str, ...], ...]:
        """The axes of each entry after the batch dimension, trailing unsharded dims dropped."""
        dims = [e.value.names if e.value else () for e in self.spec.entries[1:]]
        while dims and not dims[-1]:
            dims.pop()
        return tuple(dims)


@record(frozen=True)
class ReachedFacts:
    """A shard_map as reached from one vmap site."""

    shard_map: ShardMapFacts
    chain: tuple[Related, ...]
    vmaps: tuple[Span, ...]  # jax.vmap calls/decorators between the spmd vmap and the shard_map
    captures: tuple[Capture, ...] = ()  # batched values the body closes over (SPMD003)
    lift: LiftSite | str | None = None  # where lift-captures edits, or why it cannot
    # Why stripping the spmd axes from this shard_map's specs would change the body's values ("" when it
    # keeps them; spmdfix.analysis.stripbody).
    strip_blocker: str = ""
    # Body collectives (their call spans) whose operand is made only of operands the spmd vmap does not
    # batch: they run correctly under the vmap (measured), so they are no SPMD004.
    unbatched_collectives: frozenset[Span] = frozenset()
    # Places that run this shard_map without going through the spmd vmap (`...` (line n), `...` (pkg/m.py
    # line n) in another module of the project): a fix that edits the shard_map changes them too
    # (analysis.callers, analysis.project_callers).
    other_callers: tuple[str, ...] = ()
    # Module-level names by which the shard_map leaves a module on the way, (module path, name, calling it
    # returns the callable), whose importers are not searched yet: a summary's facts keep their own module's
    # for the module importing the callable; the vmap's module searches them (`analysis.project_callers`).
    exits: tuple[tuple[str, str, bool], ...] = ()
    # A jax.jit lies between the vmap and the shard_map (analysis.reach.ReachedSite.jitted): the shard_map
    # is traced under jit whatever the vmap's callers do.
    under_jit: bool = False
    # The shard_map is applied as `jax.jit(shard_map(...))(...)` (or a jit decorator sits above its shard_map
    # decorator): it too is traced under jit whatever the vmap's callers do
    # (analysis.capture.CaptureAnalysis.jit_wrapped).
    jit_wrapped: bool = False
    # A loop that stages its function (`jax.lax.map`, `lax.scan`, `fori_loop`, `while_loop`:
    # analysis.reach.ReachedSite.staged) lies between the vmap and the shard_map: for SPMD008's eager
    # `check_vma=False` case the shard_map is traced as under jit (`staged_eagerly`).
    staged: bool = False
    # A `lax.cond`/`lax.switch` on a predicate the evaluator reads as a constant lies on the way
    # (analysis.reach.ReachedSite.cond_staged): it stages the shard_map for SPMD008's eager `check_vma=False`
    # case only (`rules.not_manual.eager_explicit_findings`), where it was measured.
    cond_staged: bool = False
    # The first `jax.vmap` on the way, when it is applied in the vmapped function itself and maps along axis
    # 0 parameters of that function passed on as they are: their positions (the per-example dimension 0 it
    # maps is dimension 1 of the vmap's input), and its span [SPMD006, an inner vmap mapping away a placed axis].
    inner_mapped: tuple[int, ...] = ()
    inner_vmap: Span | None = None
    # Those of `vmaps` that are a `jax.lax.map` with a `batch_size` (a vmap over chunks): under check_vma=True
    # JAX raises `... was given out_specs which require replication` there, not the pvary error (SPMD007).
    batched_maps: tuple[Span, ...] = ()
    # captures left out of `captures` whose inputs' placement is not known (kind CAPTURE_INPUT): a staged
    # capture on an Explicit mesh fails or runs by that placement, an SPMD910 record for an spmd vmap
    # (analysis.capture.CaptureAnalysis.capture_facts, unread_matters.records)
    unread_captures: tuple[UnreadValue, ...] = ()
    # The way passes through a branch Python never takes (`if FLAG:` with `FLAG = False` a module constant:
    # analysis.dead_branches): the SPMD910 record (span of the `if` test, what) that replaces the findings at
    # this shard_map; the analyzer sets such a reached shard_map aside
    dead: tuple[Span, str] | None = None
    # The body is a parameter of the function applying the shard_map (`def apply(x, f): jax.shard_map(f, ...)`,
    # analysis.shard_maps.parameter_body): what it closes over is what each call passes, so another module's
    # summary of the function is read per call (analyzer.summary_for), never shared
    body_parameter: bool = False
    # The body is a bound method (`jax.shard_map(self._block, ...)`: analysis.method_body) that reads its instance
    # where whether the vmap batches the instance is not proven (analysis.method_captures): why, naming the read;
    # a fix that does not cure a capture is then not safe (plan.judgments.instance_unread). "" otherwise
    instance_unread: str = ""

    @property
    def staged_eagerly(self) -> bool:
        """A jit or a staging loop lies between the vmap and the shard_map, so an eager call of the vmap traces
        the shard_map into a jaxpr before batching it: a `check_vma=False` shard_map over a batch placed on an
        Explicit axis then runs (measured on jax 0.10.2: safety/measurements/explicit_check_vma_false_eager.py
        for jit, explicit_check_vma_false_staged.py for the loops)."""
        return self.under_jit or self.staged


@record(frozen=True)
class VmapFacts:
    """One vmap site with a resolved spmd_axis_name and the shard_maps it reaches; `site` is its identity."""

    site: SiteId
    span: Span
    spmd: AxisNames
    reached: tuple[ReachedFacts, ...]
    constraints: tuple[ConstraintUse, ...]
    constraints_unknown: bool
    # SPMD: spmd_axis_name given; EXPLICIT: a plain vmap whose batch dim is placed on Explicit mesh
    # axes (`spmd` then holds those axes, as written in the placement's spec) [SPMD006].
    kind: VmapKind = VmapKind.SPMD
    opaque_calls: tuple[Span, ...] = ()  # calls on the way that spmdfix cannot follow
    # (span, what) of each place into code of the project the analysis lost on the way (an unresolved
    # import of the project, `getattr`, an unknown callable), one per place: reported as SPMD910 on request.
    unresolved: tuple[tuple[Span, str], ...] = ()
    # The spans of those places of `unresolved` where the vmapped callable itself is lost, before the walk
    # entered any function (`reach.ReachResult.at_entry`: `jax.vmap(layer)` with `layer` a copy another
    # module's `dataclasses.replace` makes): which shard_maps the vmap reaches is not known at all, as when its
    # analysis stops at the vmap call itself (`model.Unfollowed.callable_unknown`, `reaching.at_start`).
    callable_lost: tuple[Span, ...] = ()
    # The call that passes `spmd_axis_name=` as a keyword (the vmap call, or the `partial(jax.vmap, ...)`),
    # None when it is positional or comes from a `**kwargs` dict.
    spmd_keyword_call: Span | None = None
    calls: VmapCalls | None = None  # the calls of the vmapped function (batch sizes, jit), for rename/add-axis
    # The module sets `jax_disable_vmap_shmap_error`: JAX skips its spmd_axis_name-in-specs check and fails
    # later with another error (measured; docs/rules.md, SPMD001).
    shmap_error_disabled: bool = False
    placement: Placement | None = None  # kind EXPLICIT: how the vmapped input is placed
    # The jits applied inside the vmapped function and their shardings (rename must not target an axis they
    # name: `JitShardings`).
    jit_shardings: tuple[JitShardings, ...] = ()
    # The shardings of a jax.jit that wraps the vmap itself (`jax.jit(jax.vmap(f, ...), out_shardings=...)`, a
    # jit decorator with shardings above the vmap decorator): drop-spmd-axis was not measured under them.
    outer_jit_shardings: tuple[JitShardings, ...] = ()
    # The reshards inside the vmapped function (this module's) whose operand may be batched (`ReshardUse`).
    reshards: tuple[ReshardUse, ...] = ()
    # Places of other modules reaching the code that holds a parameterised site's spmd_axis_name with arguments
    # of their own (`shared_sites.shared_by`: `batched(step2)` of an imported wrapper); a fix rewriting that
    # spmd_axis_name changes them too, unseen.
    shared_by: tuple[str, ...] = ()
    # The quote a string literal a fix writes in this module takes where nothing beside it says (spmd_axis_name
    # given by a name): `ModuleIndex.quote`, asked by `quote` only when a fix writes such a literal. (Found
    # for every site, the walk of a module's strings cost 75 ms of CPU on jax's 12,600-line pjit_test.py,
    # a quarter of its analysis, whose fixes write none.)
    module_quote: Callable[[], str] = lambda: '"'
    # The constant visible where spmd_axis_name is written that holds an axis name, by axis name (`DATA` ->
    # `MODEL`: rename writes `spmd_axis_name=MODEL`), or None (the literal is written):
    # `axis_constants.axis_spelling`, asked only when a fix writes the spmd axis.
    axis_spelling: Callable[[str], str | None] = lambda axis: None

    @property
    def quote(self) -> str:
        """The quote of a string literal a fix writes in this module where nothing beside it says."""
        return self.module_quote()

    @property
    def constraint_axes(self) -> frozenset[str]:
        return frozenset(a for c in self.constraints for a in c.specs.axes())


@record(frozen=True)
class FunctionSummary:
    """What calling one function (or callable value) of a module reaches, as plain data.

    reached: the shard_maps it applies (chains start inside its module); constraints: the
    `with_sharding_constraint`s on the way, and whether any of their specs is unknown; jit_shardings: the jits
    applied on the way with their in/out shardings (`JitShardings`); reshards: the `jax.sharding.reshard`s on the
    way whose operand may hold a value of its arguments (`ReshardUse`: every parameter of the callable counts as
    batched, the caller's vmap is not known here); opaque: calls it cannot
    follow (parameters, methods); unresolved: (span, what) of each place into code of the project it lost
    (`reach.ReachResult.unresolved`: an unresolved import of the project, `getattr`, an unknown callable);
    depends: (path, digest) of every module the summary was computed from (its own included), and
    (`project_answers.IMPORTERS_OF_KEY` + path, digest) of who imports each module its fixes were judged against; entry:
    the spans of those places of `unresolved` where the callable summarised is itself lost, before any function
    is entered (`reach.ReachResult.at_entry`).
    """

    reached: tuple[ReachedFacts, ...] = ()
    constraints: tuple[ConstraintUse, ...] = ()
    constraints_unknown: bool = False
    jit_shardings: tuple[JitShardings, ...] = ()
    opaque: tuple[Span, ...] = ()
    unresolved: tuple[tuple[Span, str], ...] = ()
    depends: tuple[tuple[str, str], ...] = ()
    reshards: tuple[ReshardUse, ...] = ()
    entry: tuple[Span, ...] = ()
