"""How far the analysis follows names, calls and values: one context per walk, and one budget per purpose.

Every follower of the analysis (a name to its value, a callable to the shard_maps it reaches, a class to its
members, a spec pytree to its entries) walks a graph that source code can make cyclic (`a = b; b = a`, a
function calling itself, a class deriving from itself by a re-bound name) or arbitrarily deep. Each walk
carries a `Follow` (astroid's `InferenceContext` is the model): the depth it has reached on its path for its
`Purpose`, whose `limit` says how deep that path may go, and a visited set of (node, purpose) shared by the
whole walk. A follower asks it whether to go on (`spent`), takes a step with `deeper()`, and enters a node at
most once with `first_visit`. What a walk gives up on stays unresolved: the analysis never guesses past it.

The limits are those the followers had before this context replaced their own counters, one per purpose (the
table below names each follower and its old guard): a limit changed could change a finding. Measured when they
were gathered here, over the golden cases, the analysis tests and the eight repositories of bench/README.md's
corpus: only the vmap wrappers' limit is ever reached (`grad(jit(grad(jit(grad(jnp.tanh)))))(1.0)` in a jax
notebook, five wrappers around no vmap, which is no vmap at any depth); every other path stays well inside.
"""

from __future__ import annotations

from spmdfix.perf import frozen


# eq=False: a purpose is compared and hashed by identity (one object per purpose, in the visited set's keys).
@frozen(slots=True, eq=False)
class Purpose:
    """What a walk follows and how deep one path of it may go.

    name: what is followed (for reading). limit: the deepest step a path of the walk may reach, counted from 0
    at its start (`Follow.spent` past it); None for a walk bounded by its visited set alone.
    """

    name: str
    limit: int | None = None

    def __repr__(self) -> str:
        return f"Purpose({self.name!r}, {self.limit})"


class Follow:
    """One walk's context: its purpose, the depth of the path it stands on, and the nodes it has visited.

    Start a walk with `Follow(purpose)`; `deeper()` is the same walk one step further on this path (the same
    visited set), so two branches of a tree walk each count their own depth, as a recursion does. A worklist
    walk is one path: each item taken is one step. Plain and cheap: the step below is made once and kept.
    """

    __slots__ = ("purpose", "depth", "spent", "visited", "_deeper")

    def __init__(self, purpose: Purpose, depth: int = 0, visited: set[tuple] | None = None) -> None:
        self.purpose = purpose
        self.depth = depth
        # Whether the path went past the purpose's limit: the follower gives up here (the value stays unknown).
        self.spent = purpose.limit is not None and depth > purpose.limit
        self.visited: set[tuple] = set() if visited is None else visited
        self._deeper: Follow | None = None

    def deeper(self) -> Follow:
        """The context one step further along this path: depth + 1, the same purpose and visited set."""
        step = self._deeper
        if step is None:
            step = self._deeper = Follow(self.purpose, self.depth + 1, self.visited)
        return step

    def first_visit(self, node: object, purpose: Purpose | None = None, also: object = None) -> bool:
        """True the first time this walk enters `node` for `purpose` (this walk's own by default), which it
        records; False when it has been there for that purpose already. `also`: a second object the visit is
        of (a shard_map site in a scope bound by one call: `reach.Reacher._add_site`)."""
        key = (id(node), purpose or self.purpose) if also is None else (id(node), id(also), purpose or self.purpose)
        if key in self.visited:
            return False
        self.visited.add(key)
        return True


# --- the purposes, with the limit each follower had (its old guard in brackets) ---------------------------
# scopes.ModuleIndex.qualname: an attribute chain and the aliases of its base [`_depth > 20`].
QUALNAME = Purpose("qualified name", 20)
# values.Evaluator.follow, resolve_name: names bound once to their value, 12 looks on the way [`range(12)`,
# `while depth < 12`].
VALUE = Purpose("value of a name", 11)
# specs._collect_specs: the pytree of PartitionSpecs in in_specs/out_specs [`depth > 12`].
SPEC_TREE = Purpose("spec pytree", 12)
# meshes.mesh_site: a mesh expression to its construction, through helpers [`depth > 12`].
MESH = Purpose("mesh construction", 12)
# uses.UseIndex.uses_of_value: a value through the names and factories it flows into [`depth > 12`, a seen set].
USES = Purpose("uses of a value", 12)
# vmap_calls: a vmapped callable to its calls through jax.jit [`depth < 12`]; shapes: names to their
# straight-line value [`range(12)`]; static shapes and integers of array expressions [`depth > 12`].
VMAP_CALLS = Purpose("calls of a vmapped callable", 11)
STRAIGHT_LINE = Purpose("straight-line value", 11)
SHAPE = Purpose("static shape", 12)
INTEGER = Purpose("static integer", 12)
# mesh_uses.MeshUses.device_reads: the names between a Mesh's devices argument and its array [`seen < 12`].
DEVICE_NAMES = Purpose("device array names", 11)
# mesh_uses.MeshUses.mesh_reads: a mesh through the arrays placed on it and back through their `.sharding.mesh`
# (a new follower, issue 23: no old guard). Past the limit the use is reported, never assumed allowed.
PLACED_ARRAYS = Purpose("arrays placed on a mesh", 12)
# capture.CaptureAnalysis._array_value: whether an expression builds a non-scalar array [`depth > 8`].
ARRAY_VALUE = Purpose("array value", 8)
# lift.LiftAnalysis.lift_use_problem: the locals a lifted value flows into [`len(done) > 16`].
LIFT_USES = Purpose("uses of a lifted value", 16)
# stripbody: numeric module constants [`depth > 8`]; the named values holding an edited spec [`depth > 8`];
# spec containers assigned on [`depth < 8`].
NUMERIC = Purpose("numeric constant", 8)
NAMED_SPECS = Purpose("named spec values", 8)
SPEC_ASSIGNS = Purpose("spec containers assigned on", 7)
# callers.OtherCallers.outside: the readers of the functions around a shard_map [`steps < 256`, a seen set].
CALLERS = Purpose("other callers", 255)
# placement.PlacementAnalysis._vmap_of: `jax.vmap(f)` inside jit wrappers [`range(4)`].
VMAP_WRAPPERS = Purpose("wrappers of a vmap", 3)
# vmap_sites: `partial(jax.vmap, spmd_axis_name=...)` through names and parameters [`depth > 8`].
VMAP_FACTORY = Purpose("vmap factory", 8)
# shard_maps: `partial(shard_map, ...)` through names [`depth > 8`]; a shard_map body through names and
# wrappers [`range(8)`]; shard_map_facts: the int leaves of smap's in_axes/out_axes [`depth < 8`].
SHARD_MAP_FACTORY = Purpose("shard_map factory", 8)
BODY = Purpose("shard_map body", 7)
SMAP_AXES = Purpose("smap axes", 7)
# members: a class member through the bases of this module [`depth > 8`]; the first base that is not a class
# of this module [`depth > 8`].
MEMBER = Purpose("class member", 8)
BASES = Purpose("base classes", 8)
# index.ProjectIndex.resolve/lost: re-exports followed for one name [`range(16)`].
REEXPORTS = Purpose("re-exports", 15)
# reach.Reacher: every callable a vmapped callable traces, each entered once per purpose (the walk's visited
# set: the old `seen` of ("func", id), ("assign", id), ... keys); no depth limit.
REACH = Purpose("reach")
FUNCTION = Purpose("function traced")
ASSIGNED = Purpose("assigned callable")
PASSED = Purpose("callable passed to a parameter")
SELF_MEMBER = Purpose("callable member of self")
FACTORY_RETURN = Purpose("callable a factory returns")
SHARD_MAP_SITE = Purpose("shard_map site")
TRACED = Purpose("function listed as traced")  # (`ReachResult.functions`: once, however many readings)
