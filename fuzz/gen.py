"""A generator of small, self-checking JAX programs: vmap(spmd_axis_name) meeting shard_map, drawn from a grammar.

A program is a dict of features (`FEATURES`: name -> one of its values), drawn deterministically from a seed
(`draw`), and rendered to source text (`render`). The source defines `main()` returning `(result, reference)`
as golden cases do (golden/README.md): `result` is the program under test, `reference` is the same
per-example computation written a second time (functions prefixed `ref_`, a plain `Mesh` with literal axis
names, no placement, constraint, jit or spmd_axis_name) under a plain `jax.vmap`, which is what JAX defines
the spmd program to compute (a plain vmap without `spmd_axis_name`). The fixes spmdfix makes edit only what
the spmd vmap reaches, so the copy keeps the reference independent of the edit under test.

Every feature's first value is its simplest; shrinking (fuzz/shrink.py) resets features to it. `render`
accepts any combination: features that do not fit the others (a second axis on a 1-axis mesh, a 2-entry
spec on a rank-1 example) degrade to the nearest form that does, so a shrunk program is always valid Python.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

# name -> values; the first value is the default (simplest) one.
FEATURES: dict[str, tuple] = {
    "spmd": ("collide", "none", "free", "tuple_collide", "pair"),
    "mesh_shape": ((2, 4), (4, 2), (8,), (2,), (2, 2, 2), (8, 1)),
    "mesh_spelling": ("reshape", "reshape_tuple", "keywords", "make_mesh", "make_mesh_auto", "make_mesh_explicit",
                      "array"),
    "names": ("xyz", "words"),
    "consts": ("none", "all", "specs", "spmd_tuple"),
    "spmd_spelling": ("keyword", "positional"),
    "rank": (1, 2),
    "spec": ("a0", "a1", "tuple", "a0_none", "none_a1", "a0_a1", "replicated"),
    "spec_style": ("P", "jax_P", "const"),
    "op": ("affine", "unary", "square", "scalar_closure", "array_closure", "block_reduce", "cumsum", "psum",
           "pmean", "axis_index", "where"),
    "coll_axis": ("spec", "spmd", "other"),
    "extra": ("none", "operand_scalar", "operand_like", "capture_batched", "capture_unbatched",
              "capture_derived", "pytree", "operand_unbatched"),
    "static_capture": (False, True),
    "mesh_read": ("none", "shape_key", "size", "devices_shape0", "devices_unpack", "len_shape",
                  "len_axis_names", "iter_shape", "placement_axis_names"),
    "mesh_read_where": ("block", "module"),
    # "auto": none on an Auto mesh; on an Explicit one the batch placed as the specs expect ("matching"),
    # since JAX requires a shard_map input on an Explicit mesh to be placed as its in_specs say (measured)
    "placement": ("auto", "matching", "a0", "a0_a1", "none_a0"),
    "constraint": ("none", "a0", "spec"),
    "inner_vmap": ("none", "in_body", "between"),
    "jit": ("eager", "jit_outer", "jit_block", "jit_shard_map"),
    "shard_map": ("call", "lambda", "decorator", "experimental"),
    "check_vma": ("omitted", True, False),
    "axis_names": ("none", "spec_and_spmd", "spec_only"),
    "nested": (False, True),
    "batch": (8, 4),
    # How the spmd vmap is applied: `jax.vmap(apply, ...)(...)` in main, or as a decorator of `apply`
    # (`@functools.partial(jax.vmap, ...)`), bare or with `@jax.jit` stacked above it (a jit outside the vmap:
    # issue 23 kind 4). Last in this dict: a feature added at the end leaves every other feature's draw as it was.
    "vmap_form": ("call", "decorator", "jit_above_decorator"),
    # Issue 23's grammar (appended after vmap_form, so that every earlier feature draws as before for a seed).
    # Each is a switch of its own (first value: off); TRACKED names those a run counts per feature (fuzz/run.py,
    # summary.json).
    # a jax.jit with in/out shardings: inside the vmapped function after or before the shard_map, or an outer
    # jax.jit of the spmd vmap; its spec names `sharding_axis` (the axis a rename would pick, or the old spmd axis)
    "jit_sharding": ("none", "out_after", "in_after", "out_before", "outer_out", "outer_in"),
    "sharding_axis": ("target", "old"),
    # a placement inside the vmapped function after the shard_map: device_put, or reshard (Explicit meshes only;
    # "reshard_p": the bare PartitionSpec under `with jax.set_mesh(mesh)`)
    "place_inner": ("none", "device_put", "reshard", "reshard_p"),
    # the mesh read through an array placed on it (`.sharding.mesh`, `jax.typeof(a).sharding.mesh`, and the
    # allowed `.sharding.spec`), used in the result; read in main off the batch (or a probe) or in the block
    # off a module-level placed array
    "array_mesh_read": ("none", "devices_shape0", "len_axis_names", "shape_key", "axis_sizes0",
                        "typeof_len_axis_names", "typeof_shape_key", "spec_len"),
    "array_mesh_read_where": ("main", "block"),
    # one tuple spec entry of two mesh axes (`P(('x', 'y'))`) under spmd_axis_name of one member, with a body
    # collective over the other member; the spmd axis major (strip changes what each block holds) or minor
    "tuple_coll": ("none", "pmean", "psum", "all_gather", "axis_index"),
    "tuple_order": ("spmd_major", "spmd_minor"),
    # a batched closure capture (`m = x.mean() + 2.0` in the block, read by the shard_map body) under the spmd vmap
    # written as a decorator of `apply` (it sets vmap_form): `@jax.jit` stacked above it, also with the
    # block's input constrained to the spmd axis first (the program issue 23 kind 4 was found with), or bare
    "capture_under_decorator": ("none", "jit_above", "jit_above_constraint", "bare_decorator"),
    # a 1-D mesh from the flat device list: `Mesh(jax.devices(), (axis,))`
    "device_list_mesh": ("none", "positional", "keywords"),
    # Issue 22's grammar (appended after issue 23's, so that every earlier feature draws as before for a seed):
    # the spellings through which the values the rules need flow. Each is a switch of its own (first value: off).
    # the vmapped function is a method of a local instance (`blk = Block(1.0); jax.vmap(blk.apply, ...)`) or an
    # instance with `__call__` (`jax.vmap(layer, ...)`); the block is a method of the class. With a suffix, the
    # shard_map's specs name the spec axis as `self.AXIS` (a class attribute, a dataclass field default) or
    # `self.axis` (an `__init__` default no construction passes)
    "instance": ("none", "method", "call", "method_class_attr", "call_class_attr", "method_dataclass",
                 "call_dataclass", "method_init_default", "call_init_default"),
    # how spmd_axis_name reaches the vmap: forwarded through `**kw` by a helper, a kwargs dict filled by
    # subscript (`opts["spmd_axis_name"] = ...`), or a parameter default of a helper no caller passes
    "spmd_flow": ("none", "kwargs_forward", "kwargs_subscript", "param_default"),
    # the captured value of a capture form (`extra`) bound to the shard_map body by a parameter default
    # (`lambda b, w=w: ...`, `def body(b, w=w)`) or by `functools.partial(body, w=w)` (SPMD003 when batched)
    "bound_capture": ("none", "lambda_default", "partial"),
    # the shard_map's spec from a helper function of the module: `rows()` returning the spec, or
    # `spec_of('x', None)` building it from its arguments
    "spec_helper": ("none", "no_args", "args"),
    # the mesh from a helper taking its shape as arguments: `mesh = make_mesh(2, 4)` (or keywords)
    "mesh_helper": ("none", "positional", "keywords"),
    # axis names computed from the mesh or bound to a set: `axis_names=frozenset(mesh.axis_names) - {...}`,
    # `manual = {...}; axis_names=manual`, or the body's collective over `mesh.axis_names` (check_vma=False:
    # with check_vma=True JAX rejects it without any vmap)
    "axis_set": ("none", "mesh_minus", "local_set", "coll_mesh_axis_names"),
    # the batch placed by `jax.sharding.reshard` on an Explicit mesh: a bare spec under `with jax.set_mesh(mesh):`
    # or after a `jax.set_mesh(mesh)` statement (undone in a `finally`), or a NamedSharding; `reshard_plain`: the
    # batch placed on the first axis before a plain vmap (SPMD006's form)
    "reshard_batch": ("none", "with", "statement", "named"),
    "reshard_plain": (False, True),
    # the inner vmap between the spmd vmap and the shard_map spelled `jax.lax.map(block, x, batch_size=2)`
    # (SPMD007's form under check_vma=True), or with `batch_size=None` (a scan: runs)
    "lax_map": ("none", "batch_size", "batch_size_none"),
    # what the shard_map body closes over beyond the block, committed to the mesh (issue 22's plain-vmap form:
    # safety/measurements/plain_vmap_placed_spellings.py): the argument the vmap does not map (`extra` set to
    # capture_unbatched) placed with `jax.device_put(ws, NamedSharding(mesh, P()))`, or a module-level array
    # placed with `NamedSharding(mesh, P(None))` that the body reduces (`WP.sum()`)
    "plain_capture": ("none", "unmapped_committed", "placed_array"),
    # the spec's first entry as a parameter of the block, passed by `apply` (`block(x, 'x')`) or its default
    # (`def block(x, ax='x')`, called `block(x)`), with another function of the module calling it with None
    # (`warm_up`, never run): the module's calls pass no one value, so the call on the path decides
    "spec_param": ("none", "passed", "default"),
}

# The features of issue 23's grammar that fuzz/run.py counts per feature (drawn and rendered, failing, violating).
ISSUE23_TRACKED: tuple[str, ...] = ("jit_sharding", "place_inner", "array_mesh_read", "tuple_coll",
                                    "capture_under_decorator", "device_list_mesh")
# The features of issue 22's grammar (value flow through attributes, defaults, kwargs, helpers, computed sets,
# reshard placements, instances), counted the same way.
ISSUE22_TRACKED: tuple[str, ...] = ("instance", "spmd_flow", "bound_capture", "spec_helper", "mesh_helper",
                                    "axis_set", "reshard_batch", "lax_map", "plain_capture", "spec_param")
TRACKED: tuple[str, ...] = ISSUE23_TRACKED + ISSUE22_TRACKED
# body ops that are collectives over the plan's coll_axis ("all_gather" only through tuple_coll)
COLLECTIVE_OPS = ("psum", "pmean", "axis_index", "all_gather")

# Draw weights: the plain forms are drawn more often so that most programs exercise one or two hazards.
_WEIGHTS: dict[str, tuple] = {
    "spmd": (5, 2, 2, 1, 1),
    "mesh_shape": (6, 2, 1, 1, 2, 1),
    "mesh_spelling": (4, 1, 1, 2, 1, 1, 1),
    "consts": (6, 1, 1, 1),
    "spmd_spelling": (6, 1),
    "spec": (4, 2, 2, 2, 1, 2, 1),
    "extra": (8, 2, 1, 2, 1, 1, 1, 1),
    "static_capture": (8, 1),
    "mesh_read": (12, 1, 1, 1, 1, 1, 1, 1, 1),
    "placement": (6, 1, 2, 1, 1),
    "constraint": (8, 1, 1),
    "inner_vmap": (8, 1, 1),
    "jit": (4, 2, 1, 1),
    "shard_map": (5, 2, 1, 1),
    "check_vma": (3, 1, 2),
    "axis_names": (10, 1, 1),
    "nested": (12, 1),
    "batch": (4, 1),
    "vmap_form": (8, 1, 1),
    # issue 23's features: each drawn (and rendered) in about 8-14% of programs, so that about half the programs
    # have none and the grammar before them keeps being exercised as it was
    "jit_sharding": (40, 2, 1, 1, 1, 1),
    "place_inner": (30, 1, 2, 2),
    "array_mesh_read": (56, 1, 1, 1, 1, 1, 1, 1),
    "tuple_coll": (32, 1, 1, 1, 1),
    "capture_under_decorator": (30, 2, 2, 1),
    "device_list_mesh": (22, 1, 1),
    # issue 22's features: each drawn in about 7-9% of programs (some are rendered off where they do not fit), so
    # that 1,000 programs render each at least 60 times and about half the programs draw none of them
    "instance": (88, 1, 1, 1, 1, 1, 1, 1, 1),
    "spmd_flow": (33, 1, 1, 1),
    "bound_capture": (25, 1, 1),
    "spec_helper": (26, 1, 1),
    "mesh_helper": (22, 1, 1),
    "axis_set": (34, 1, 1, 1),
    "reshard_batch": (32, 1, 1, 1),
    "reshard_plain": (1, 1),
    "lax_map": (26, 1, 1),
    "plain_capture": (22, 1, 1),
    "spec_param": (12, 1, 1),
}

_NAME_SETS = {"xyz": ("x", "y", "z"), "words": ("data", "model", "pipe")}
_CONST_NAMES = {"x": "X", "y": "Y", "z": "Z", "data": "DATA", "model": "MODEL", "pipe": "PIPE"}
DIM = 8  # every per-example dimension: divisible by every product of axis sizes of an 8-device mesh


def draw(seed: int) -> dict:
    """The features of program `seed`: deterministic (random.Random(seed)), independent of other seeds."""
    rng = random.Random(seed)
    out = {}
    for name, values in FEATURES.items():
        weights = _WEIGHTS.get(name)
        out[name] = rng.choices(values, weights=weights)[0] if weights else rng.choice(values)
    return out


def defaults() -> dict:
    """The simplest program: every feature at its first value."""
    return {name: values[0] for name, values in FEATURES.items()}


def describe(features: dict) -> str:
    """The features that differ from the defaults, as `name=value` (what a program exercises)."""
    base = defaults()
    return ", ".join(f"{k}={features[k]!r}" for k in FEATURES if features.get(k, base[k]) != base[k])


@dataclass
class _Plan:
    """The resolved program: the features made consistent with each other."""

    f: dict
    names: tuple[str, ...]
    sizes: dict[str, int]
    shape: tuple[int, ...]
    rank: int  # per-example rank
    block_rank: int  # rank of the value the shard_map maps (a row under inner_vmap="between")
    entries: list  # x's spec entries (None, name, or tuple of names), len <= block_rank
    outer_entries: list  # spec of the outer shard_map when nested
    spmd: tuple[str, ...]
    coll_axis: str
    batch: int
    sharding_axis: str | None = None  # the mesh axis jit_sharding's and place_inner's specs name (None: none)
    explicit: bool = False  # the program's mesh has Explicit axes (jax.make_mesh's default)
    instance_axis: str | None = None  # the spec axis the instance's specs read through self (issue 22's instance)


def _plan(f: dict) -> _Plan:
    f = _issue22_overrides(_issue23_overrides({**defaults(), **f}))
    if f["nested"] and (f["check_vma"] is False or f["extra"] in ("operand_scalar", "operand_like", "pytree",
                                                                 "operand_unbatched")):
        # nested shard_maps with check_vma=False make JAX reject the outer out_specs without any vmap; operands
        # would need specs for both levels: keep these programs flat
        f = {**f, "nested": False}
    shape = tuple(f["mesh_shape"])
    names = _NAME_SETS[f["names"]][: len(shape)]
    sizes = dict(zip(names, shape))
    a0 = names[0]
    a1 = names[1] if len(names) > 1 else None
    rank = 2 if f["inner_vmap"] in ("in_body", "between") else f["rank"]
    block_rank = 1 if f["inner_vmap"] == "between" or f["nested"] else rank
    outer: list = []
    if f["nested"] and a1 is not None:
        outer, entries = [a0], [a1]
    else:
        form = f["spec"]
        table = {
            "a0": [a0],
            "a1": [a1 or a0],
            # tuple_coll's spmd_minor: the spmd axis a0 is the minor member (strip then keeps each block)
            "tuple": ([(a1, a0)] if f["tuple_order"] == "spmd_minor" and f["tuple_coll"] != "none" else [(a0, a1)])
            if a1 else [a0],
            "a0_none": [a0, None],
            "none_a1": [None, a1 or a0],
            "a0_a1": [a0, a1] if a1 else [a0, None],
            "replicated": [],
        }
        entries = table[form]
        if len(entries) > block_rank:
            entries = [e for e in entries if e is not None][:block_rank] or [None]
    used = [a for e in entries + outer for a in _axes(e)]
    free = [a for a in names if a not in used]
    collide = used[0] if used else a0
    spmd_form = f["spmd"]
    if spmd_form == "none":
        spmd: tuple[str, ...] = ()
    elif spmd_form == "free":
        spmd = (free[0] if free else names[-1],)
    elif spmd_form == "pair" and a1:
        spmd = (a0, a1)
    else:
        spmd = (collide,)
    coll = {"spec": collide, "spmd": spmd[0] if spmd else collide, "other": (free + [a0])[0]}[f["coll_axis"]]
    if f["tuple_coll"] != "none":
        # the spmd axis is a0, one member of the tuple entry; the body collective goes over the other member
        spmd, coll = (a0,), a1
    if f["op"] == "axis_index" and f["check_vma"] is not False and coll not in used:
        # with check_vma an axis_index result varies over its axis: out_specs must name it (else JAX rejects
        # the program without any vmap)
        coll = used[0] if used else coll
        if not used:
            f = {**f, "op": "psum"}
    if outer and coll not in used and used and (f["op"] in COLLECTIVE_OPS
                                                or f["extra"] == "operand_unbatched"):
        # nested: only the outer and inner shard_maps' own axes are manual in the body; a collective over any
        # other axis is unbound there (the reference raises; fuzz seed 21175)
        coll = used[0]
    batch = f["batch"]
    spmd_size = 1
    for a in spmd:
        spmd_size *= sizes[a]
    if batch % spmd_size or (f["placement"] not in ("auto", "matching") and batch % max(shape)):
        batch = 8
    explicit = f["mesh_spelling"] in ("make_mesh", "make_mesh_explicit")
    f = _fit_shardings(f, explicit)
    # issue 22's features that need what the plan decided: a vmap with spmd_axis_name, a spec naming an axis
    spec_axes = [a for e in entries for a in _axes(e)]
    if not spmd:
        f["spmd_flow"] = "none"
    if _instance_axis_form(f["instance"]) and not spec_axes:
        f["instance"] = f["instance"].split("_", 1)[0]  # no axis to read through self: the instance alone
    if f["spec_helper"] == "args" and not entries:
        f["spec_helper"] = "no_args"
    if f["spec_param"] != "none" and not (
        entries and entries[0] is not None and not outer and f["instance"] == "none" and f["spec_helper"] == "none"
        and f["spec_style"] != "const" and f["inner_vmap"] == "none" and f["jit"] != "jit_block"
    ):
        f["spec_param"] = "none"  # (a first entry to pass, and `apply` calling the block itself with it)
    # sharding_axis "target": the axis a rename would pick (the first mesh axis no spmd_axis_name, spec,
    # constraint or body collective names: spmdfix/fixes/rename_spmd_axis.py)
    taken = set(used) | set(spmd) | ({coll} if f["op"] in COLLECTIVE_OPS or f["extra"] == "operand_unbatched"
                                     else set())
    if f["constraint"] != "none" and not explicit:
        taken.add(a0)
    target = [a for a in names if a not in taken]
    # "old": the spmd axis where the specs collide with it (after a rename it is a data axis). A sharding naming
    # the spmd axis of a vmap it does not collide with fails in the program as written (DuplicateSpecError), so
    # without a candidate the spec names another axis than the spmd axes, or none
    chosen = target if f["sharding_axis"] == "target" else [spmd[0]] if spmd and spmd[0] in used else []
    others = [a for a in used + list(names) if a not in spmd]
    axis = (chosen or others or [None])[0]
    if f["place_inner"] != "none" and (1 if f["inner_vmap"] == "between" else rank) == 1:
        # an eager device_put under vmap applies its spec to the batched array (the batch is dimension 0;
        # measured: jax 0.10.2), so the batch must divide by the axis size as the example dimension does
        batch = 8
    instance_axis = spec_axes[0] if _instance_axis_form(f["instance"]) else None
    return _Plan(f, names, sizes, shape, rank, block_rank, entries, outer, spmd, coll, batch, axis, explicit,
                 instance_axis)


def _issue23_overrides(f: dict) -> dict:
    """Issue 23's features that decide other features: the device-list mesh is 1-D over all 8 devices; a tuple
    entry with a collective needs two mesh axes, the tuple spec, a collective op and a flat program; a capture
    under the vmap decorator sets vmap_form (and the constraint of its "_constraint" form)."""
    f = dict(f)
    form = f["capture_under_decorator"]
    if form != "none":
        f["vmap_form"] = "decorator" if form == "bare_decorator" else "jit_above_decorator"
        if form == "jit_above_constraint":
            f["constraint"] = "a0"  # with_sharding_constraint(x, NamedSharding(mesh, P(<first axis>)))
    if f["device_list_mesh"] != "none":
        # the Mesh spelling is the feature's own (an Auto mesh); mesh_spelling is not rendered
        f.update(mesh_shape=(8,), mesh_spelling="reshape")
    if f["tuple_coll"] != "none":
        if len(f["mesh_shape"]) < 2:
            f["tuple_coll"] = "none"
        else:
            f.update(spec="tuple", nested=False, op=f["tuple_coll"], spmd="collide")
    # a sub-switch of a feature that is off renders nothing: reset, so that the program (and its description)
    # is the one the grammar gave before these features
    subs = {"sharding_axis": ("jit_sharding", "place_inner"), "array_mesh_read_where": ("array_mesh_read",),
            "tuple_order": ("tuple_coll",)}
    for sub, owners in subs.items():
        if all(f[m] == FEATURES[m][0] for m in owners):
            f[sub] = FEATURES[sub][0]
    return f


_EXPLICIT_SPELLINGS = ("make_mesh", "make_mesh_explicit")
# the `extra` forms whose shard_map body closes over a value of the block (what bound_capture binds instead)
_CAPTURE_EXTRAS = ("capture_batched", "capture_unbatched", "capture_derived")


def _instance_axis_form(instance: str) -> str:
    """How the instance's specs read the spec axis through self ("class_attr", "dataclass", "init_default"), or
    "" when they name it as the rest of the program does (or there is no instance)."""
    return instance.partition("_")[2]


def _issue22_overrides(f: dict) -> dict:
    """Issue 22's features that decide other features, so that the program as written runs without spmdfix
    except where the collision itself (or a hazard) makes it fail: an instance or a spmd_axis_name helper needs
    `jax.vmap(...)` applied as a call (not as a decorator of `apply`), a method cannot be `@jax.jit`-decorated
    (jit would trace `self`), a module-level spec constant cannot read `self`; an inner `lax.map` maps one
    array; a bound capture needs a captured value (and `functools.partial` a body passed by value); computed
    `axis_names` need a partial-manual shard_map that takes them (flat, check_vma not False: JAX rejects
    partial-manual out_specs then); a collective over `mesh.axis_names` needs `check_vma=False` (with True, JAX
    rejects it without any vmap: issue 22 kind 5) and every axis manual; reshard needs an Explicit mesh."""
    f = dict(f)
    if f["capture_under_decorator"] != "none":
        f["instance"] = f["spmd_flow"] = "none"
    if f["instance"] != "none" or f["spmd_flow"] != "none":
        f["vmap_form"] = "call"
    if f["spmd_flow"] != "none":
        f["spmd_spelling"] = "keyword"
    if f["instance"] != "none" and f["jit"] == "jit_block":
        f["jit"] = "jit_shard_map"
    if _instance_axis_form(f["instance"]):
        if f["spec_style"] == "const":
            f["spec_style"] = "P"
        if f["spec_helper"] == "no_args":
            f["spec_helper"] = "args"  # a helper without arguments returns a literal spec: self is not read
    if f["lax_map"] != "none":
        f.update(inner_vmap="between", extra="none", bound_capture="none")
    if f["spec_param"] != "none" and f["instance"] == "none" and f["lax_map"] == "none":
        # the block takes its spec's first entry as a parameter: the spec is written in the block (no module
        # constant; a spec helper keeps its own form, and spec_param is then off), `apply` calls the block itself,
        # and a string argument cannot pass through `@jax.jit` (not a JAX type)
        f["inner_vmap"] = "none"
        if f["spec_style"] == "const":
            f["spec_style"] = "P"
        if f["jit"] == "jit_block":
            f["jit"] = "jit_shard_map"
    if f["bound_capture"] != "none":
        if f["extra"] not in _CAPTURE_EXTRAS:
            f["extra"] = "capture_batched"
        if f["bound_capture"] == "partial" and f["shard_map"] == "decorator":
            f["shard_map"] = "call"
    if f["axis_set"] == "coll_mesh_axis_names":
        if f["tuple_coll"] != "none":
            f["axis_set"] = "none"
        else:
            f.update(check_vma=False, axis_names="none", nested=False,
                     op=f["op"] if f["op"] in ("psum", "pmean") else "psum")
    elif f["axis_set"] != "none":
        f.update(nested=False, axis_names="spec_only" if f["axis_names"] == "none" else f["axis_names"])
        if f["check_vma"] is False:
            f["check_vma"] = "omitted"
        if f["shard_map"] == "experimental":
            f["shard_map"] = "call"  # jax.experimental's shard_map takes no axis_names
    if f["reshard_batch"] != "none":
        if f["device_list_mesh"] != "none":
            f["reshard_batch"] = "none"  # the device-list mesh is an Auto mesh: reshard refuses Auto axes
        else:
            if f["mesh_spelling"] not in _EXPLICIT_SPELLINGS:
                f["mesh_spelling"] = "make_mesh"
            if f["tuple_coll"] != "none":
                f["reshard_plain"] = False  # a tuple entry with a collective needs its spmd vmap
            if f["reshard_plain"]:
                # the batch on the first mesh axis, each example as the specs expect (`_main`): a plain vmap
                # maps that axis away, SPMD006 when a spec names it (issue 22 kind 6), clean otherwise
                f.update(spmd="none", placement="matching")
    if f["reshard_batch"] == "none":
        f["reshard_plain"] = False
    if f["device_list_mesh"] != "none":
        f["mesh_helper"] = "none"  # a mesh of the flat device list has no shape to pass
    if f["plain_capture"] == "unmapped_committed":
        if f["lax_map"] != "none":
            f["plain_capture"] = "none"  # an inner lax.map maps one array
        else:
            f["extra"] = "capture_unbatched"
    return f


def _fit_shardings(f: dict, explicit: bool) -> dict:
    """jit_sharding and place_inner reduced to the forms that run without spmdfix on this program (measured,
    safety/measurements/rename_reached_shardings.py): on an Explicit mesh a jit placing the input before the
    shard_map breaks the placement the shard_map requires; reshard refuses Auto axes; an outer jit's
    in_shardings takes one sharding per argument (one argument only) and must match a placed batch; an eager
    jit's in_shardings must match its committed argument (fuzz/README.md, "Issue 23's grammar")."""
    f = dict(f)
    if explicit and f["jit_sharding"] == "out_before":
        f["jit_sharding"] = "out_after"
    traced = f["jit"] in ("jit_outer", "jit_block") or f["vmap_form"] == "jit_above_decorator"
    if f["jit_sharding"] == "in_after" and not traced:
        # an eager jit's in_shardings must equal the sharding of a committed argument (the shard_map's result)
        # or JAX raises "Sharding passed to jit does not match"; under an outer jit the argument is a tracer
        f["jit_sharding"] = "out_after"
    placed = explicit or f["placement"] not in ("auto",)
    if f["jit_sharding"] == "outer_in" and (f["extra"] != "none" or placed):
        f["jit_sharding"] = "outer_out"
    if not explicit and f["place_inner"] in ("reshard", "reshard_p"):
        f["place_inner"] = "device_put"
    return f


def resolved(features: dict) -> dict:
    """The features the program renders: `features` (missing ones at their defaults) made consistent with each
    other (a feature that does not fit is rendered off or as the nearest form; some set others). What
    fuzz/known_open.py matches, so that an entry covers what the program is, not what was drawn."""
    return dict(_plan(features).f)


def spmd_vmap(features: dict) -> bool:
    """Whether the program's vmap has spmd_axis_name (in any spelling: a keyword, positional, through `**kw`, a
    parameter default); else it is a plain vmap (fuzz/classify.py judges its errors by SPMD006 and SPMD008)."""
    return bool(_plan(features).spmd)


def without_tracked(features: dict) -> dict:
    """`features` with issue 23's and issue 22's features (TRACKED) off: for a drawn seed, the program of the
    grammar before them, byte for byte (the seeds fuzz/README.md names before its section "Issue 23's grammar")."""
    return {**features, **{name: FEATURES[name][0] for name in TRACKED}}


def tracked(features: dict) -> dict:
    """Issue 23's and issue 22's features (TRACKED) that the rendered program has: name -> the value rendered,
    for those not off (a feature that does not fit the others is rendered off; fuzz/run.py counts these per
    feature)."""
    f = _plan(features).f
    return {name: f[name] for name in TRACKED if f[name] != FEATURES[name][0]}


def _axes(entry) -> list[str]:
    if entry is None:
        return []
    if isinstance(entry, tuple):
        return [a for a in entry if a is not None]
    return [entry]


class _Writer:
    """Renders one copy (program or reference) of the per-example functions."""

    def __init__(self, plan: _Plan, ref: bool):
        self.p = plan
        self.f = plan.f
        self.ref = ref
        self.pre = "ref_" if ref else ""
        self.mesh = "ref_mesh" if ref else "mesh"
        self.in_class = False  # rendering the instance's methods: the instance axis is read through self

    # --- names and specs -------------------------------------------------------------------------
    def name(self, axis: str, where: str) -> str:
        if self.in_class and where == "spec" and axis == self.p.instance_axis:
            return "self.axis" if _instance_axis_form(self.f["instance"]) == "init_default" else "self.AXIS"
        consts = self.f["consts"]
        if not self.ref and (consts == "all" or (consts == "specs" and where == "spec")
                             or (consts == "spmd_tuple" and where == "spmd")):
            return _CONST_NAMES[axis]
        return repr(axis)

    def entry(self, e) -> str:
        if e is None:
            return "None"
        if isinstance(e, tuple):
            return "(" + ", ".join(self.name(a, "spec") for a in e) + ")"
        return self.name(e, "spec")

    def spec(self, entries: list, style: str | None = None) -> str:
        style = "P" if self.ref else (style or self.f["spec_style"])
        head = "jax.P" if style == "jax_P" else "P"
        return f"{head}({', '.join(self.entry(e) for e in entries)})"

    # --- the body --------------------------------------------------------------------------------
    def block_last(self) -> int:
        """The size of the last dimension of the block the body receives: split only by a spec entry that
        covers that dimension (nested shard_maps map a value of the per-example rank; fuzz seed 21436)."""
        value_rank = 1 if self.f["inner_vmap"] == "between" else self.p.rank
        size = 1
        for a in _axes(self.p.entries[-1] if self.p.entries else None) if len(self.p.entries) == value_rank else []:
            size *= self.p.sizes[a]
        for a in _axes(self.p.outer_entries[-1] if self.p.outer_entries else None) if value_rank == 1 else []:
            size *= self.p.sizes[a]
        return DIM // size

    def core(self, v: str) -> str:
        op = self.f["op"]
        ax = self.name(self.p.coll_axis, "coll")
        if self.f["axis_set"] == "coll_mesh_axis_names":
            # every mesh axis: read off the mesh in the program, written out in the reference
            ax = repr(tuple(self.p.names)) if self.ref else f"{self.mesh}.axis_names"
        return {
            "affine": f"{v} * 2.0 + 1.0",
            "unary": f"jnp.sin({v})",
            "square": f"{v} ** 2",
            "scalar_closure": f"{v} * SCALE",
            "array_closure": f"{v} * W",
            "block_reduce": f"{v} - {v}.mean()",
            "cumsum": f"jnp.cumsum({v}, axis=-1)",
            "psum": f"{v} + jax.lax.psum({v}, {ax})",
            "pmean": f"{v} - jax.lax.pmean({v}, {ax})",
            "axis_index": f"{v} + jax.lax.axis_index({ax})",
            "all_gather": f"{v} * jax.lax.all_gather({v}, {ax}).sum(0)",
            "where": f"jnp.where({v} > 1.0, {v}, 0.5 * {v})",
        }[op]

    def body_lines(self, arg: str, extra_param: str | None) -> tuple[list[str], str]:
        """Statements and the returned expression of the body, whose block parameter is `arg`."""
        lines = []
        v = arg
        if self.f["static_capture"]:
            lines.append(f"{v} = jax.lax.dynamic_slice_in_dim({v}, 0, n, axis=-1)")
        if self.f["inner_vmap"] == "in_body":
            expr = f"jax.vmap(lambda r: {self.core('r')})({v})"
        else:
            expr = self.core(v)
        extra = self.f["extra"]
        if extra in ("operand_scalar", "capture_batched", "capture_unbatched", "pytree"):
            expr = f"({expr}) * {extra_param}"
        elif extra == "capture_derived":
            expr = f"({expr}) * s"
        elif extra == "operand_like":
            expr = f"({expr}) + {extra_param}"
        elif extra == "operand_unbatched":
            # a collective over an operand the spmd vmap does not batch (in_axes None): JAX runs it correctly
            expr = f"({expr}) * jax.lax.psum({extra_param}, {self.name(self.p.coll_axis, 'coll')})"
        if self.f["mesh_read"] not in ("none", "placement_axis_names"):
            expr = f"({expr}) + N"
        if self.mean_capture():
            expr = f"({expr}) * m"
        if self.f["plain_capture"] == "placed_array":
            expr = f"({expr}) * {'WP0' if self.ref else 'WP'}.sum()"
        return lines, expr

    def mean_capture(self) -> bool:
        """Whether the block computes `m` from its (batched) input and the shard_map body closes over it."""
        return self.f["capture_under_decorator"] != "none"

    # --- issue 23: shardings reached inside the vmap, mesh reads through arrays ----------------------
    def sharding(self, rank: int) -> str:
        """`NamedSharding(mesh, P(None, ..., axis))` for a value of `rank`, naming the plan's sharding axis."""
        entries = [None] * (rank - 1) + [self.p.sharding_axis]
        return f"NamedSharding({self.mesh}, {self.spec(entries, 'P')})"

    def value_rank(self) -> int:
        """The per-example rank of the value the block maps (a row under inner_vmap="between")."""
        return 1 if self.f["inner_vmap"] == "between" else self.p.rank

    def array_read(self, array: str, spec: str) -> str | None:
        """The array_mesh_read expression: in the program read off `array` (placed with `spec`), in the
        reference off `ref_mesh` (no placement: the value the read has on the mesh as written)."""
        read = self.f["array_mesh_read"]
        if read == "none":
            return None
        key = self.name(self.p.names[-1], "spec")
        if self.ref:
            return {"devices_shape0": "ref_mesh.devices.shape[0]", "len_axis_names": "len(ref_mesh.axis_names)",
                    "shape_key": f"ref_mesh.shape[{key}]", "axis_sizes0": "ref_mesh.axis_sizes[0]",
                    "typeof_len_axis_names": "len(ref_mesh.axis_names)",
                    "typeof_shape_key": f"ref_mesh.shape[{key}]", "spec_len": f"len({spec})"}[read]
        return {"devices_shape0": f"{array}.sharding.mesh.devices.shape[0]",
                "len_axis_names": f"len({array}.sharding.mesh.axis_names)",
                "shape_key": f"{array}.sharding.mesh.shape[{key}]",
                "axis_sizes0": f"{array}.sharding.mesh.axis_sizes[0]",
                "typeof_len_axis_names": f"len(jax.typeof({array}).sharding.mesh.axis_names)",
                "typeof_shape_key": f"jax.typeof({array}).sharding.mesh.shape[{key}]",
                "spec_len": f"len({array}.sharding.spec)"}[read]

    def block_tail(self, applied: str) -> list[str]:
        """The block's last statements after the shard_map `applied`: issue 23's jit with shardings and
        placements (program only: the reference has no sharding) and the block-level array mesh read."""
        f = self.f
        steps = []
        if not self.ref:
            rank = self.value_rank()
            if f["jit_sharding"] in ("out_after", "in_after"):
                kw = "out_shardings" if f["jit_sharding"] == "out_after" else "in_shardings"
                steps.append(f"jax.jit(lambda t: t + 0.0, {kw}={self.sharding(rank)})(y)")
            if f["place_inner"] == "device_put":
                steps.append(f"jax.device_put(y, {self.sharding(rank)})")
            elif f["place_inner"] == "reshard":
                steps.append(f"jax.sharding.reshard(y, {self.sharding(rank)})")
            elif f["place_inner"] == "reshard_p":
                steps.append(f"jax.sharding.reshard(y, {self.spec([None] * (rank - 1) + [self.p.sharding_axis], 'P')})")
        read = self.array_read("PARAMS", self.params_spec()) if f["array_mesh_read_where"] == "block" else None
        if not steps and read is None:
            return [f"return {applied}"]
        lines = [f"y = {applied}"] + [f"y = {step}" for step in steps]
        if read is not None:
            lines.append(f"k = {read}")
            return lines + ["return y + k"]
        return lines + ["return y"]

    def spec_helper_def(self) -> list[str]:
        """The module-level helper returning the shard_map's spec (issue 22's spec_helper), [] when none."""
        form = self.f["spec_helper"]
        if self.ref or form == "none":
            return []
        if form == "no_args":
            return ["def rows():", f"    return {self.spec(self.p.entries)}", "", ""]
        params = ", ".join(f"a{i}" for i in range(len(self.p.entries)))
        head = "jax.P" if self.f["spec_style"] == "jax_P" else "P"
        return [f"def spec_of({params}):", f"    return {head}({params})", "", ""]

    def spec_helper_call(self) -> str:
        """The call of the spec helper where the shard_map takes its spec."""
        if self.f["spec_helper"] == "no_args":
            return "rows()"
        return f"spec_of({', '.join(self.entry(e) for e in self.p.entries)})"

    def instance_class(self, block: list[str], apply_body: str, params: str) -> list[str]:
        """The class whose method the spmd vmap maps (issue 22's instance): the block as its method `block`,
        and `apply` (a method of a local instance) or `__call__` calling it; the spec axis as a class
        attribute, a dataclass field default or an `__init__` default when the specs read it through self."""
        entry = self.f["instance"].partition("_")[0]
        form = _instance_axis_form(self.f["instance"])
        value = self.name(self.p.instance_axis, "spec") if form else ""
        lines = ["@dataclass"] if form == "dataclass" else []
        lines.append(f"class {_instance_class_name(entry)}:")
        if form == "class_attr":
            lines += [f"    AXIS = {value}", ""]
        if form == "dataclass":
            lines += [f"    AXIS: str = {value}", "    scale: float = 1.0", ""]
        elif form == "init_default":
            lines += [f"    def __init__(self, scale, axis={value}):", "        self.scale = scale",
                      "        self.axis = axis", ""]
        else:
            lines += ["    def __init__(self, scale):", "        self.scale = scale", ""]
        # (a block line may hold two statements: the mesh read `n0, = ...\n    N = n0`)
        lines += ["    " + line if line else "" for line in "\n".join(block).split("\n")]
        method = "apply" if entry == "method" else "__call__"
        lines += ["", f"    def {method}(self, {params}):", f"        {apply_body}", "", ""]
        return lines

    def params_spec(self) -> str:
        """The spec of the module-level array placed for the block-level mesh read: the last mesh axis."""
        return self.spec([self.p.names[-1]], "P")

    def mesh_read_line(self) -> str | None:
        m = self.mesh
        read = self.f["mesh_read"]
        if read == "shape_key":
            return f"N = {m}.shape[{self.name(self.p.names[0], 'spec')}]"
        if read == "size":
            return f"N = {m}.size"
        if read == "devices_shape0":
            return f"N = {m}.devices.shape[0]"
        if read == "devices_unpack":
            targets = ", ".join(f"n{i}" for i in range(len(self.p.names)))
            return f"{targets}{',' if len(self.p.names) == 1 else ''} = {m}.devices.shape\n    N = n0"
        if read == "len_shape":
            return f"N = len({m}.shape)"
        if read == "len_axis_names":
            return f"N = len({m}.axis_names)"
        if read == "iter_shape":
            return f"N = sum(1 for _ in {m}.shape)"
        return None

    # --- the functions ---------------------------------------------------------------------------
    def functions(self) -> list[str]:
        f, p, pre = self.f, self.p, self.pre
        two_args = f["extra"] != "none"
        operand = f["extra"] in ("operand_scalar", "operand_like", "pytree", "operand_unbatched")
        cv = f["check_vma"]
        spelling = f["shard_map"]
        if (self.ref and spelling == "experimental") or (p.outer_entries and spelling != "lambda"):
            spelling = "call"
        # issue 22's instance: the block is a method; its specs may read the spec axis through self
        instance = f["instance"] != "none" and not self.ref
        self.in_class = instance and bool(_instance_axis_form(f["instance"]))
        x_spec = self.spec(p.entries)
        if not self.ref and f["spec_helper"] != "none":
            x_spec = self.spec_helper_call()
        spec_param = "none" if self.ref else f["spec_param"]
        if spec_param != "none":
            head = "jax.P" if f["spec_style"] == "jax_P" else "P"
            x_spec = f"{head}({', '.join(['ax'] + [self.entry(e) for e in p.entries[1:]])})"
        out_spec = x_spec
        if f["extra"] == "operand_like":
            w_spec = x_spec
        else:
            w_spec = self.spec([])
        if f["extra"] == "pytree":
            in_specs = "({" + f"'a': {x_spec}, 'b': {w_spec}" + "},)"
        elif operand:
            in_specs = f"({x_spec}, {w_spec})"
        else:
            in_specs = x_spec if f["spec_style"] != "const" or self.ref else "SPEC"
        if not self.ref and f["spec_style"] == "const":
            if operand and f["extra"] != "pytree":
                in_specs = f"(SPEC, {w_spec})" if f["extra"] != "operand_like" else "(SPEC, SPEC)"
            out_spec = "SPEC"
        kwargs = []
        local_set = None  # axis_set "local_set": the set bound to `manual` in the block
        # partial-manual axis_names with check_vma=False makes JAX reject out_specs without any vmap (measured)
        axis_names = f["axis_names"] if not p.outer_entries and cv is not False else "none"
        # the program's spelling decides (the reference writes jax.shard_map for jax.experimental's, which takes
        # no axis_names: giving the reference one would make it partial-manual alone; fuzz seed 5217)
        if axis_names != "none" and f["shard_map"] != "experimental":
            axes = [a for e in p.entries for a in _axes(e)] or [p.names[0]]
            if axis_names == "spec_and_spmd" and not self.ref:
                axes += [a for a in p.spmd if a not in axes]
            collects = f["op"] in COLLECTIVE_OPS or f["extra"] == "operand_unbatched"
            if collects and p.coll_axis not in axes:
                axes.append(p.coll_axis)
            display = "{" + ", ".join(self.name(a, "spec") for a in axes) + "}"
            axis_set = "none" if self.ref else f["axis_set"]
            if axis_set == "mesh_minus":
                # the same set computed from the mesh (issue 22 kind 5)
                rest = [self.name(a, "spec") for a in p.names if a not in axes]
                display = f"frozenset({self.mesh}.axis_names)" + (" - {" + ", ".join(rest) + "}" if rest else "")
            elif axis_set == "local_set":
                local_set = display
                display = "manual"
            kwargs.append(f"axis_names={display}")
        if cv != "omitted":
            kwargs.append(f"check_rep={cv}" if spelling == "experimental" else f"check_vma={cv}")

        lines: list[str] = []
        # body
        if f["extra"] == "pytree":
            params, arg, extra_param = "d", "d['a']", "d['b']"
        elif operand:
            params, arg, extra_param = "b, w", "b", "w"
        else:
            params, arg, extra_param = "b", "b", "w"
        stmts, expr = self.body_lines(arg, extra_param)
        captures_local = f["extra"] in ("capture_batched", "capture_unbatched", "capture_derived") or \
            f["static_capture"] or (f["mesh_read"] not in ("none", "placement_axis_names")
                                    and f["mesh_read_where"] == "block") or self.mean_capture()
        # a body reading self or the block's local set is defined in the block (issue 22)
        captures_local = captures_local or self.in_class or local_set is not None
        # issue 22's bound_capture: the captured value bound by a parameter default or functools.partial
        bound = "none" if self.ref else f["bound_capture"]
        captured = "s" if f["extra"] == "capture_derived" else extra_param
        def_params = {"none": params, "lambda_default": f"{params}, {captured}={captured}",
                      "partial": f"{params}, {captured}"}[bound]
        # a shard_map nested in another takes the context mesh the outer one sets (passing `mesh=` raises)
        mesh_kw = [] if p.outer_entries else [f"mesh={self.mesh}"]
        spec_kw = f"in_specs={in_specs}, out_specs={out_spec}"
        sm_kwargs = ", ".join([*mesh_kw, spec_kw, *kwargs])
        body_def = []
        if spelling == "decorator":
            body_def.append(f"@functools.partial(jax.shard_map, {sm_kwargs})")
        body_def.append(f"def {pre}body({def_params}):")
        body_def += [f"    {s}" for s in stmts] + [f"    return {expr}"]

        def shard_map_of(fn: str) -> str:
            if spelling == "experimental":
                extra_kw = f", {kwargs[-1]}" if cv != "omitted" else ""
                return f"exp_shard_map({fn}, {self.mesh}, {in_specs}, {out_spec}{extra_kw})"
            return f"jax.shard_map({fn}, {sm_kwargs})"

        call_args = "({'a': x, 'b': w})" if f["extra"] == "pytree" else ("(x, w)" if operand else "(x)")
        def bound_fn(fn: str) -> str:
            return f"functools.partial({fn}, {captured}={captured})" if bound == "partial" else fn

        if spelling == "decorator":
            applied = f"{pre}body{call_args}"
        elif spelling == "lambda" and not stmts:
            applied = f"{shard_map_of(bound_fn(f'lambda {def_params}: {expr}'))}{call_args}"
        else:
            applied = f"{shard_map_of(bound_fn(f'{pre}body'))}{call_args}"
        if f["jit"] == "jit_shard_map" and not self.ref and spelling != "decorator":
            applied = f"jax.jit({applied[: -len(call_args)]}){call_args}"
        nested_def: list[str] = []
        if p.outer_entries:
            # nested: the shard_map above is the inner one; an outer shard_map over the first axis applies it
            outer_spec = self.spec(p.outer_entries)
            inner_axes = "{" + ", ".join(self.name(a, "spec") for e in p.entries for a in _axes(e)) + "}"
            outer_axes = "{" + ", ".join(self.name(a, "spec") for e in p.outer_entries for a in _axes(e)) + "}"
            applied = applied.replace(f"out_specs={out_spec}", f"out_specs={out_spec}, axis_names={inner_axes}", 1)
            outer_cv = f", check_vma={cv}" if cv != "omitted" else ""
            nested_def = [f"def {pre}outer(x{', w' if operand else ''}):", f"    return {applied}"]
            outer_params = "(x, w)" if operand else "(x)"
            applied = (f"jax.shard_map({pre}outer, mesh={self.mesh}, in_specs="
                       f"{'(' + outer_spec + ', P())' if operand else outer_spec}, out_specs={outer_spec}, "
                       f"axis_names={outer_axes}{outer_cv}){outer_params}")
        if (spelling != "lambda" or stmts) and not captures_local:
            # a body that closes over locals of the block function is defined there instead
            lines = body_def + ["", ""] + lines
        block_params = "x, w" if two_args else "x"
        block = []
        if f["jit"] == "jit_block" and not self.ref:
            block.append("@jax.jit")
        first = self.entry(p.entries[0]) if spec_param != "none" else ""
        ax_param = {"none": "", "passed": ", ax", "default": f", ax={first}"}[spec_param]
        block.append(f"def {pre}block({'self, ' if instance else ''}{block_params}{ax_param}):")
        explicit = f["mesh_spelling"] in ("make_mesh", "make_mesh_explicit")
        # JAX accepts with_sharding_constraint only over Auto axes (measured): none on an Explicit mesh
        if f["constraint"] != "none" and not self.ref and not explicit:
            c_entries = [p.names[0]] if f["constraint"] == "a0" else (p.entries or [None])
            c_entries = c_entries[: p.block_rank]
            block.append(f"    x = jax.lax.with_sharding_constraint(x, NamedSharding({self.mesh}, "
                         f"{self.spec(c_entries, 'P')}))")
        if f["jit_sharding"] == "out_before" and not self.ref:
            block.append(f"    x = jax.jit(lambda t: t + 0.0, out_shardings={self.sharding(self.value_rank())})(x)")
        if f["extra"] == "capture_derived":
            block.append("    s = jnp.exp(w)")
        if self.mean_capture():
            block.append("    m = x.mean() + 2.0")
        if f["static_capture"]:
            last = p.entries[-1] if len(p.entries) == p.block_rank else None
            axes = _axes(last) + (_axes(p.outer_entries[-1]) if p.outer_entries else [])
            k = " * ".join(f"{self.mesh}.shape[{self.name(a, 'spec')}]" for a in axes) or "1"
            block.append(f"    n = x.shape[-1] // ({k})")
        read = self.mesh_read_line()
        if read and f["mesh_read_where"] == "block":
            block.append(f"    {read}")
        if local_set is not None:
            block.append(f"    manual = {local_set}")
        if captures_local and (spelling != "lambda" or stmts):
            block += ["    " + line if line else "" for line in body_def]
        block += ["    " + line for line in nested_def]
        block += ["    " + line for line in self.block_tail(applied)]
        self.in_class = False
        apply_params = block_params
        block_ref = "self.block" if instance else f"{pre}block"
        if f["inner_vmap"] == "between" and f["lax_map"] != "none" and not self.ref:
            # issue 22 kind 7: the inner vmap spelled as lax.map over chunks (a vmap of each chunk), or a scan
            size = 2 if f["lax_map"] == "batch_size" else None
            apply_body = f"return jax.lax.map({block_ref}, {apply_params}, batch_size={size})"
        elif f["inner_vmap"] == "between":
            axes = "(0, None)" if two_args and f["extra"] != "operand_like" else "0"
            apply_body = f"return jax.vmap({block_ref}, in_axes={axes})({apply_params})"
        elif spec_param == "passed":
            apply_body = f"return {block_ref}({apply_params}, {first})"
        else:
            apply_body = f"return {block_ref}({apply_params})"
        if instance:
            return lines + self.instance_class(block, apply_body, apply_params)
        lines += block + ["", ""]
        if spec_param != "none":
            lines += [f"def warm_up({block_params}):", f"    return {block_ref}({block_params}, None)", "", ""]
        lines += [f"def {pre}apply({apply_params}):", f"    {apply_body}", "", ""]
        if not self.ref:
            at = lines.index(f"def {pre}apply({apply_params}):")
            lines[at:at] = _vmap_decorators(p, self)
        return lines


def _instance_class_name(entry: str) -> str:
    """The class of issue 22's instance: `Block` whose method `apply` is mapped, `Layer` mapped whole."""
    return "Block" if entry == "method" else "Layer"


_MESH_PARAMS = ("dp", "tp", "pp")  # the parameters of issue 22's mesh helper, one per mesh dimension


def _mesh_helper(p: _Plan, w: _Writer) -> tuple[list[str], str]:
    """Issue 22's mesh helper: its definition (the program's mesh spelling with the shape as parameters) and
    the call that builds the program's mesh, positional or with keywords."""
    params = _MESH_PARAMS[: len(p.shape)]
    lines = [f"def make_mesh({', '.join(params)}):", f"    return {_mesh_expr(p, w, params)}", "", ""]
    if p.f["mesh_helper"] == "keywords":
        return lines, "make_mesh(" + ", ".join(f"{k}={v}" for k, v in zip(params, p.shape)) + ")"
    return lines, "make_mesh(" + ", ".join(map(str, p.shape)) + ")"


def _mesh_expr(p: _Plan, w: _Writer, dims: tuple[str, ...] | None = None) -> str:
    """The mesh of the program (or of the reference, `w.ref`) as the mesh spelling writes it; `dims`: the
    names that stand for the sizes of its dimensions (a helper's parameters), else the sizes."""
    f = p.f
    n = 1
    for s in p.shape:
        n *= s
    devices = "jax.devices()" if n == 8 else f"jax.devices()[:{n}]"
    shape_args = ", ".join(dims or map(str, p.shape))
    shape_tuple = f"({shape_args}{',' if len(p.shape) == 1 else ''})"
    names = "(" + ", ".join(w.name(a, "mesh") for a in p.names) + ("," if len(p.names) == 1 else "") + ")"
    spelling = "reshape" if w.ref else f["mesh_spelling"]
    if not w.ref and f["device_list_mesh"] == "positional":
        return f"Mesh(jax.devices(), {names})"
    if not w.ref and f["device_list_mesh"] == "keywords":
        return f"Mesh(devices=jax.devices(), axis_names={names})"
    if spelling == "array":
        if len(p.shape) == 1 and not dims:
            return f"Mesh(np.array({devices}), {names})"
        spelling = "reshape"
    if spelling == "reshape":
        return f"Mesh(np.array({devices}).reshape({shape_args}), {names})"
    if spelling == "reshape_tuple":
        return f"Mesh(np.array({devices}).reshape({shape_tuple}), {names})"
    if spelling == "keywords":
        return f"Mesh(devices=np.array({devices}).reshape({shape_args}), axis_names={names})"
    if spelling == "make_mesh":
        return f"jax.make_mesh({shape_tuple}, {names})"
    kind = "Auto" if spelling == "make_mesh_auto" else "Explicit"
    if spelling == "make_mesh_auto":
        types = f"(AxisType.{kind},) * {len(p.shape)}"
    else:
        types = "(" + ", ".join(f"AxisType.{kind}" for _ in p.shape) + ("," if len(p.shape) == 1 else "") + ")"
    return f"jax.make_mesh({shape_tuple}, {names}, axis_types={types})"


def render(features: dict, title: str = "") -> str:
    """The source of the program with these features (missing ones take their defaults)."""
    p = _plan(features)
    f = p.f
    prog, ref = _Writer(p, False), _Writer(p, True)
    out = [f'"""{title or "generated program"}: {describe(f) or "defaults"}."""']
    if f["shard_map"] == "decorator" or f["vmap_form"] != "call" or f["bound_capture"] == "partial":
        out.append("import functools")
    if _instance_axis_form(f["instance"]) == "dataclass":
        out.append("from dataclasses import dataclass")
    out += ["import jax", "import jax.numpy as jnp", "import numpy as np"]
    if f["shard_map"] == "experimental":
        out.append("from jax.experimental.shard_map import shard_map as exp_shard_map")
    out.append("from jax.sharding import Mesh, NamedSharding, PartitionSpec as P")
    if f["mesh_spelling"] in ("make_mesh_auto", "make_mesh_explicit"):
        out.append("from jax.sharding import AxisType")
    out += ["", ""]
    if f["consts"] != "none":
        for a in p.names:
            out.append(f"{_CONST_NAMES[a]} = {a!r}")
        out.append("")
    if f["mesh_helper"] != "none":
        helper, built = _mesh_helper(p, prog)
        out += helper + [f"mesh = {built}"]
    else:
        out.append(f"mesh = {_mesh_expr(p, prog)}")
    out.append(f"ref_mesh = {_mesh_expr(p, ref)}")
    spec_helper = prog.spec_helper_def()
    if spec_helper:
        out += ["", ""] + spec_helper
    if f["spec_style"] == "const":
        out.append(f"SPEC = {prog.spec_helper_call() if spec_helper else prog.spec(p.entries, 'P')}")
    if f["op"] == "scalar_closure":
        out.append("SCALE = 3.0")
    if f["op"] == "array_closure":
        width = prog.block_last()
        out.append(f"W = jnp.linspace(0.5, 1.5, {width}, dtype=jnp.float32)")
    if f["plain_capture"] == "placed_array":
        out.append(f"WP0 = np.linspace(0.5, 1.5, {DIM}, dtype=np.float32)")
        out.append(f"WP = jax.device_put(jnp.asarray(WP0), NamedSharding(mesh, {prog.spec([None], 'P')}))")
    if f["array_mesh_read"] != "none" and f["array_mesh_read_where"] == "block":
        # an array placed on the mesh, whose mesh the block reads (issue 23's array_mesh_read)
        out.append(f"PARAMS = jax.device_put(jnp.ones(({DIM},)), NamedSharding(mesh, {prog.params_spec()}))")
    read_prog, read_ref = prog.mesh_read_line(), ref.mesh_read_line()
    if read_prog and f["mesh_read_where"] == "module":
        out.append(read_prog.replace("\n    ", "\n"))
        out.append(_ref_module_read(read_ref))
    out += ["", ""]
    out += prog.functions()
    ref_lines = ref.functions()
    if read_prog and f["mesh_read_where"] == "module":
        ref_lines = [line.replace(") + N", ") + REF_N") for line in ref_lines]
    out += ref_lines
    out += _main(p, prog)
    source = "\n".join(out).rstrip() + "\n"
    if any(f[name] != FEATURES[name][0] for name in ISSUE22_TRACKED):
        # issue 22's helpers end with two blank lines where a blank line follows already: at most two
        source = re.sub(r"\n{4,}", "\n\n\n", source)
    # import only what is used (a saved program then lints clean): features that degrade (a decorator or the
    # experimental API on a program without a shard_map of that form) leave their import unused
    if "NamedSharding(" not in source:
        source = source.replace("import Mesh, NamedSharding, PartitionSpec", "import Mesh, PartitionSpec", 1)
    if "functools." not in source:
        source = source.replace("import functools\n", "", 1)
    if "exp_shard_map(" not in source and "exp_shard_map," not in source and "@exp_shard_map" not in source:
        source = source.replace("from jax.experimental.shard_map import shard_map as exp_shard_map\n", "", 1)
    return source


def _ref_module_read(line: str) -> str:
    line = line.replace("\n    ", "\n")
    if "N = n0" in line:
        return line.replace("n0", "rn0").replace("n1", "rn1").replace("n2", "rn2").replace("N = rn0", "REF_N = rn0")
    return line.replace("N = ", "REF_N = ", 1)


def _in_axes(extra: str) -> str | None:
    """The spmd vmap's `in_axes` for the second argument the `extra` feature adds (None: no `in_axes`)."""
    if extra in ("operand_scalar", "capture_batched", "capture_derived", "pytree", "operand_like"):
        return "(0, 0)"
    if extra in ("capture_unbatched", "operand_unbatched"):
        return "(0, None)"
    return None


def _spmd_expr(p: _Plan, w: _Writer) -> str:
    """The spmd_axis_name expression of the program's vmap ("" when the vmap passes none)."""
    if not p.spmd:
        return ""
    names = [w.name(a, "spmd") for a in p.spmd]
    tuple_form = p.f["spmd"] in ("tuple_collide", "pair") or p.f["consts"] == "spmd_tuple"
    return "(" + ", ".join(names) + ("," if len(names) == 1 else "") + ")" if tuple_form else names[0]


def _vmap_kwargs(p: _Plan, w: _Writer) -> list[str]:
    """The keyword arguments of the spmd vmap: in_axes (when not the default) and spmd_axis_name."""
    in_axes, spmd = _in_axes(p.f["extra"]), _spmd_expr(p, w)
    return ([f"in_axes={in_axes}"] if in_axes else []) + ([f"spmd_axis_name={spmd}"] if spmd else [])


def _vmap_decorators(p: _Plan, w: _Writer) -> list[str]:
    """The decorator lines of the program's `apply` when the vmap is a decorator (`vmap_form`), outermost first:
    `@jax.jit` above the vmap's for "jit_above_decorator" (with an outer jit_sharding's shardings:
    `@functools.partial(jax.jit, out_shardings=...)`); none for "call"."""
    form = p.f["vmap_form"]
    if form == "call":
        return []
    kw = _vmap_kwargs(p, w)
    vmap = f"@functools.partial(jax.vmap, {', '.join(kw)})" if kw else "@jax.vmap"
    if form != "jit_above_decorator":
        return [vmap]
    jit_kw = _outer_jit_kwargs(p, w)
    return [f"@functools.partial(jax.jit, {jit_kw})" if jit_kw else "@jax.jit", vmap]


def _vmap_call(p: _Plan, w: _Writer, target: str = "apply") -> str:
    """`jax.vmap(apply, ...)` as main applies it (spmd_spelling: keywords or positional); `target`: the
    mapped function (issue 22's instance: `blk.apply`, `layer`)."""
    spmd = _spmd_expr(p, w)
    if p.f["spmd_spelling"] == "positional" and spmd:
        return f"jax.vmap({target}, {_in_axes(p.f['extra']) or 0}, 0, None, None, {spmd})"
    return f"jax.vmap({', '.join([target, *_vmap_kwargs(p, w)])})"


def _instance_target(p: _Plan) -> tuple[str, list[str]]:
    """The function the spmd vmap maps, and main's statements building it: `apply`, or issue 22's local
    instance (`blk = Block(1.0)` and `blk.apply`; `layer = Layer(1.0)` and `layer`, a dataclass built
    without arguments so that its field keeps the default)."""
    instance = p.f["instance"]
    if instance == "none":
        return "apply", []
    entry = instance.partition("_")[0]
    cls = _instance_class_name(entry)
    var = "blk" if entry == "method" else "layer"
    args = "" if _instance_axis_form(instance) == "dataclass" else "1.0"
    return (f"{var}.apply" if entry == "method" else var), [f"{var} = {cls}({args})"]


def _spmd_flow(p: _Plan, w: _Writer, target: str) -> tuple[str, list[str], list[str]]:
    """Issue 22's spmd_flow: the vmapped function (before an outer jit), main's statements before the call,
    and module-level helpers. `kwargs_forward`: `batched(apply, spmd_axis_name=...)` forwarding `**kw` to
    jax.vmap; `kwargs_subscript`: `opts["spmd_axis_name"] = ...` and `jax.vmap(apply, **opts)`;
    `param_default`: the vmap in a helper whose parameter default is the spmd axis (see `_main`)."""
    flow = p.f["spmd_flow"]
    in_axes = _in_axes(p.f["extra"])
    axes_kw = [f"in_axes={in_axes}"] if in_axes else []
    if flow == "kwargs_forward":
        helper = ["def batched(fn, **kw):", "    return jax.vmap(fn, **kw)", "", ""]
        return f"batched({', '.join([target, *_vmap_kwargs(p, w)])})", [], helper
    if flow == "kwargs_subscript":
        setup = ["opts = {}", f'opts["spmd_axis_name"] = {_spmd_expr(p, w)}']
        return f"jax.vmap({', '.join([target, *axes_kw, '**opts'])})", setup, []
    if flow == "param_default":
        return f"jax.vmap({', '.join(['fn', *axes_kw, 'spmd_axis_name=spmd_axis_name'])})", [], []
    return _vmap_call(p, w, target), [], []


def _placing(p: _Plan, array: str, spec: str) -> str:
    """How main places an input with `spec`: `jax.device_put` with a NamedSharding, or (issue 22's
    reshard_batch) `jax.sharding.reshard` with a NamedSharding or a bare spec under the mesh set_mesh sets."""
    form = p.f["reshard_batch"]
    if form == "none":
        return f"jax.device_put({array}, NamedSharding(mesh, {spec}))"
    if form == "named":
        return f"jax.sharding.reshard({array}, NamedSharding(mesh, {spec}))"
    return f"jax.sharding.reshard({array}, {spec})"


def _outer_jit_kwargs(p: _Plan, w: _Writer) -> str:
    """jit_sharding's outer forms: the out_shardings/in_shardings of a jax.jit of the spmd vmap (the whole
    batch: the batch dimension unsharded, the last one on the sharding axis), "" otherwise."""
    form = p.f["jit_sharding"]
    if form not in ("outer_out", "outer_in"):
        return ""
    kw = "out_shardings" if form == "outer_out" else "in_shardings"
    return f"{kw}={w.sharding(1 + p.rank)}"


def _main(p: _Plan, w: _Writer) -> list[str]:
    f = p.f
    b = p.batch
    ex_shape = (DIM,) * p.rank
    size = b
    for s in ex_shape:
        size *= s
    shape = ", ".join(map(str, (b, *ex_shape)))
    lines = ["def main():",
             f"    xs0 = (np.arange({size}, dtype=np.float32).reshape({shape}) - {size // 3}.0) / {size // 4}.0",
             "    xs = jnp.asarray(xs0)"]
    extra = f["extra"]
    args, ref_args = "xs", "xs0"
    in_axes = _in_axes(extra)
    if extra in ("operand_scalar", "capture_batched", "capture_derived", "pytree"):
        lines.append(f"    ws0 = np.linspace(0.5, 2.0, {b}, dtype=np.float32)")
        args, ref_args = "xs, ws", "xs0, ws0"
        lines.append("    ws = jnp.asarray(ws0)")
    elif extra == "operand_like":
        lines.append("    ws0 = np.cos(xs0)")
        args, ref_args = "xs, ws", "xs0, ws0"
        lines.append("    ws = jnp.asarray(ws0)")
    elif extra in ("capture_unbatched", "operand_unbatched"):
        lines.append("    ws0 = np.float32(1.5)")
        args, ref_args = "xs, ws", "xs0, ws0"
        lines.append("    ws = jnp.asarray(ws0)")
        if f["plain_capture"] == "unmapped_committed":
            lines.append(f"    ws = jax.device_put(ws, NamedSharding(mesh, {w.spec([], 'P')}))")
    explicit = f["mesh_spelling"] in ("make_mesh", "make_mesh_explicit")
    placement = f["placement"]
    if placement == "auto":
        placement = "matching" if explicit else "none"
    placed_spec = None  # the spec the batch is placed with, when it is
    place: list[str] = []  # statements placing the inputs and reading the mesh through them
    if placement != "none":
        a0 = p.names[0]
        a1 = p.names[1] if len(p.names) > 1 else None
        if placement == "matching":
            batch_entry = None if not p.spmd else (p.spmd[0] if len(p.spmd) == 1 else tuple(p.spmd))
            if f["reshard_plain"]:
                batch_entry = a0  # issue 22's reshard_batch before a plain vmap (no spmd axis)
            inner = [None] * (p.rank - p.block_rank) + list(p.entries)
            if p.outer_entries:
                inner = [tuple(_axes(p.outer_entries[0]) + _axes(p.entries[0]))]
            entries = [batch_entry] + inner
            # an axis both on the batch and in the specs (the collision itself) can be placed once only
            taken = set(_axes(batch_entry))
            entries = [entries[0]] + [None if set(_axes(e)) & taken else e for e in entries[1:]]
        else:
            entries = {"a0": [a0], "a0_a1": [a0, a1] if a1 else [a0], "none_a0": [None, a0]}[placement]
        entries = (entries + [None] * (1 + p.rank))[: 1 + p.rank]
        placed_spec = w.spec(entries, 'P')
        place.append(f"xs = {_placing(p, 'xs', placed_spec)}")
        if f["extra"] == "operand_like":
            place.append(f"ws = {_placing(p, 'ws', w.spec(entries, 'P'))}")
        elif in_axes == "(0, 0)":
            # every batched input of an spmd vmap on an Explicit mesh must be placed alike (JAX checks)
            place.append(f"ws = {_placing(p, 'ws', w.spec(entries[:1], 'P'))}")
    read, ref_read = None, None
    if f["array_mesh_read"] != "none" and f["array_mesh_read_where"] == "main":
        # the mesh read through the batch when the program places it, else through a probe placed on the mesh
        array, spec = "xs", placed_spec
        if placed_spec is None:
            array, spec = "probe", w.spec([p.names[-1]], "P")
            place.append(f"probe = jax.device_put(jnp.ones(({DIM},)), NamedSharding(mesh, {spec}))")
        place.append(f"K = {w.array_read(array, spec)}")
        read, ref_read = "K", _Writer(p, True).array_read(array, spec)
    target, setup = _instance_target(p)
    helpers: list[str] = []  # module-level helpers main calls (issue 22's spmd_flow)
    if f["vmap_form"] != "call":
        # `apply` carries the vmap as a decorator (`_vmap_decorators`); "jit_above_decorator" is its outer jit
        vmap = "apply"
    else:
        vmap, flow_setup, helpers = _spmd_flow(p, w, target)
        setup += flow_setup
    outer_kw = "" if f["vmap_form"] == "jit_above_decorator" else _outer_jit_kwargs(p, w)
    if (f["jit"] == "jit_outer" and f["vmap_form"] != "jit_above_decorator") or outer_kw:
        vmap = f"jax.jit({vmap}{', ' + outer_kw if outer_kw else ''})"
    ref_kw = f", in_axes={in_axes}" if in_axes else ""
    # the reference first: an error raised there makes the program invalid (fuzz/worker.py tells them apart)
    reference = (f"    reference = np.asarray(jax.vmap(ref_apply{ref_kw})({ref_args}))"
                 + (f" + {ref_read}" if ref_read else ""))
    if f["spmd_flow"] == "param_default":
        # the spmd axis as the default of a helper's parameter that the call does not pass (issue 22 kind 3)
        helpers = [f"def accumulate(fn, {args}, spmd_axis_name={_spmd_expr(p, w)}):", f"    return {vmap}({args})",
                   "", ""]
        call = f"accumulate({target}, {args})"
    else:
        call = f"{vmap}({args})"
    call += f" + {read}" if read else ""
    context = f["reshard_batch"] in ("with", "statement")
    if not context:
        lines += ["    " + line for line in place]
        lines.append(reference)
        lines += ["    " + line for line in setup]
        if f["place_inner"] == "reshard_p":
            # reshard to a bare PartitionSpec takes the mesh from the context
            lines += ["    with jax.set_mesh(mesh):", f"        result = {call}"]
        else:
            lines.append(f"    result = {call}")
    else:
        # issue 22's reshard_batch with a bare spec: the mesh set_mesh installs, around the placement and the
        # call (the reference before it: it runs on ref_mesh); the statement form is undone in `finally`
        lines.append(reference)
        inner = ["        " + line for line in place + setup + [f"result = {call}"]]
        if f["reshard_batch"] == "with":
            lines += ["    with jax.set_mesh(mesh):"] + inner
        else:
            lines += ["    installed = jax.set_mesh(mesh)", "    try:"] + inner + [
                "    finally:", "        installed.__exit__(None, None, None)"]
    if f["mesh_read"] == "placement_axis_names":
        mshape = ", ".join(map(str, p.shape)) + ("," if len(p.shape) == 1 else "")
        lines.append(f"    bias = jax.device_put(jnp.ones(({mshape})), NamedSharding(mesh, P(*mesh.axis_names)))")
        lines.append("    result = result + bias.sum()")
        n = 1
        for s in p.shape:
            n *= s
        lines.append(f"    reference = reference + {float(n)}")
    lines.append("    return result, reference")
    return helpers + lines
