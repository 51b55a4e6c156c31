"""The JAX surface spmdfix recognises: qualified names and argument positions, in one place.

Every fact here mirrors the JAX 0.10.2 signatures listed in docs/jax-behaviour.md ("The APIs
involved"), kept true by the golden cases' runtime tier. Names are fully qualified (`jax.vmap`); the analysis
resolves import aliases to these names (`spmdfix.analysis.scopes`).
"""

from __future__ import annotations

import enum

from spmdfix.perf import record

# The vmaps that take spmd_axis_name: qualified name -> (name of the mapped-function parameter, its
# position, position of spmd_axis_name or None when it is keyword-only). jax.vmap(fun, in_axes, out_axes,
# axis_name, axis_size, spmd_axis_name, sum_match); flax.linen.vmap(target, variable_axes, split_rngs,
# in_axes, out_axes, axis_size, axis_name, spmd_axis_name, ...); vmap_with_axes(..., partitioning_axis_names,
# spmd_axis_name, ...); nnx.vmap(f, *, ..., spmd_axis_name=...) [flax 0.12.8 signatures].
_JAX_VMAP = ("fun", 0, 5)
_LINEN_VMAP = ("target", 0, 7)
VMAP_SIGNATURES = {
    "jax.vmap": _JAX_VMAP,
    "jax.api.vmap": _JAX_VMAP,
    "jax._src.api.vmap": _JAX_VMAP,
    "flax.linen.vmap": _LINEN_VMAP,
    "flax.linen.transforms.vmap": _LINEN_VMAP,
    "flax.linen.partitioning.vmap_with_axes": ("target", 0, 8),
    "flax.nnx.vmap": ("f", 0, None),
    "flax.nnx.transforms.iteration.vmap": ("f", 0, None),
}
VMAP_NAMES = frozenset(VMAP_SIGNATURES)
# jax.vmap itself (not flax's): `jax.vmap(f, in_axes)(a, ...)` calls f with the same positional operands
JAX_VMAP_NAMES = frozenset(q for q, sig in VMAP_SIGNATURES.items() if sig is _JAX_VMAP)
VMAP_SPMD_KEYWORD = "spmd_axis_name"
# vmaps that, called without their function, return `functools.partial(vmap, **keywords)`: a decorator factory
# (`@nnx.vmap(in_axes=0, spmd_axis_name='x')`; flax 0.12.8 `nnx.vmap(f=Missing, ...)`). jax.vmap requires `fun`.
VMAP_FACTORY_CALL_NAMES = frozenset({"flax.nnx.vmap", "flax.nnx.transforms.iteration.vmap"})

# jax.shard_map(f=None, /, *, out_specs, in_specs=Infer, mesh=None, axis_names=frozenset(), check_vma=True):
# only f is positional; without f it is a decorator factory.
# flax.nnx.shard_map(f=Missing, *, mesh, in_specs, out_specs, axis_names=frozenset(), check_vma=True, graph=None,
# graph_updates=None) [flax 0.12.8] flattens NNX graph nodes among its arguments and calls jax.shard_map with the
# same mesh, specs, axis_names and check_vma: it collides as jax.shard_map does and the fixes keep values alike
# (measured: safety/measurements/nnx_shard_map_under_spmd_vmap.py).
SHARD_MAP_NEW = frozenset(
    {"jax.shard_map", "jax._src.shard_map.shard_map", "flax.nnx.shard_map", "flax.nnx.transforms.compilation.shard_map"}
)
# jax.experimental.shard_map.shard_map(f, mesh, in_specs, out_specs, check_rep=True): positional mesh.
SHARD_MAP_OLD = frozenset({"jax.experimental.shard_map.shard_map"})
# jax.smap(f=None, /, *, in_axes=Infer, out_axes, axis_name) (public in 0.10.2): a shard_map over the context
# mesh (`jax.set_mesh`) whose only manual axis is `axis_name`, with `P(axis_name)` at each mapped dimension of
# in_axes/out_axes (`P()` for None) and check_vma=True (jax/_src/shard_map.py `_smap`); without f it is a
# decorator factory. Measured: safety/measurements/smap_under_spmd_vmap.py.
SMAP_NAMES = frozenset({"jax.smap", "jax._src.shard_map.smap"})
SHARD_MAP_NAMES = SHARD_MAP_NEW | SHARD_MAP_OLD
SHARD_MAP_POSITIONS = ("f", "mesh", "in_specs", "out_specs")  # the old API's positional order


class SpecSource(enum.Enum):
    """Where a shard_map API's specs come from. PARTITION_SPECS: the `in_specs`/`out_specs` PartitionSpec
    trees, written as such (a fix can edit them); AXES: built by JAX from `in_axes`/`out_axes` and
    `axis_name` (`P(axis_name)` at each mapped dimension, `P()` for None): nothing to strip or extend."""

    PARTITION_SPECS = enum.auto()
    AXES = enum.auto()


class ManualAxes(enum.Enum):
    """What a shard_map API makes manual. AXIS_NAMES: the `axis_names=` set, every mesh axis when it is
    absent (rename and add-axis append their axis to a literal set); AXIS_NAME: its one `axis_name` only
    (no other axis can be made manual, so rename and add-axis fail under it)."""

    AXIS_NAMES = enum.auto()
    AXIS_NAME = enum.auto()


# eq=False, repr=False: an enum member's value, looked up by identity; each generated method is compiled when
# the module is imported (on the serial start of a run: bench/README.md, "The imports before the fork").
@record(frozen=True)
class ShardMapAdapter:
    """What one shard_map API takes, as far as the analysis, the rules and the fixes need to know.

    names: its qualified names; specs: where its specs come from (`SpecSource`); check_flag: the keyword that
    turns its checks off (`check_vma`, `check_rep`), None when it always checks; manual_axes: what it makes
    manual (`ManualAxes`).
    """

    names: frozenset[str]
    specs: SpecSource
    check_flag: str | None
    manual_axes: ManualAxes


class ShardMapApi(enum.Enum):
    """The shard_map APIs spmdfix recognises, each with its adapter (`ShardMapAdapter`, read through the
    properties below): the one place that knows how they differ.

    NEW: `jax.shard_map` (check_vma); OLD: `jax.experimental.shard_map.shard_map` (check_rep, positional
    mesh); SMAP: `jax.smap` (specs from in_axes/out_axes, its one axis_name manual, always check_vma=True).
    """

    NEW = ShardMapAdapter(SHARD_MAP_NEW, SpecSource.PARTITION_SPECS, "check_vma", ManualAxes.AXIS_NAMES)
    OLD = ShardMapAdapter(SHARD_MAP_OLD, SpecSource.PARTITION_SPECS, "check_rep", ManualAxes.AXIS_NAMES)
    SMAP = ShardMapAdapter(SMAP_NAMES, SpecSource.AXES, None, ManualAxes.AXIS_NAME)

    @property
    def specs(self) -> SpecSource:
        return self.value.specs

    @property
    def check_flag(self) -> str | None:
        return self.value.check_flag

    @property
    def manual_axes(self) -> ManualAxes:
        return self.value.manual_axes

    @property
    def written_specs(self) -> bool:
        """Its specs are PartitionSpec trees written in the call (strip, lift-captures can edit them)."""
        return self.value.specs is SpecSource.PARTITION_SPECS

    @property
    def one_manual_axis(self) -> bool:
        """Only its own axis is manual: rename and add-axis cannot make theirs manual too."""
        return self.value.manual_axes is ManualAxes.AXIS_NAME


# qualified name -> the shard_map API it spells
SHARD_MAP_APIS = {name: api for api in ShardMapApi for name in api.value.names}

INFER_NAMES = frozenset({"jax.sharding.Infer"})  # an in_specs leaf that names no axis

PARTITION_SPEC_NAMES = frozenset(
    {
        "jax.sharding.PartitionSpec",
        "jax.P",
        "jax.sharding.P",
        "jax.experimental.PartitionSpec",
        "jax.experimental.pjit.PartitionSpec",
        "jax._src.partition_spec.PartitionSpec",
    }
)

# Mesh(devices, axis_names, axis_types=None): Auto axes by default.
MESH_NAMES = frozenset({"jax.sharding.Mesh", "jax.experimental.maps.Mesh", "jax._src.mesh.Mesh"})
# jax.make_mesh(axis_shapes, axis_names, axis_types=None, *, devices=None): Explicit axes by default.
# (`jax._src.sharding_impls.make_mesh` is `jax.make_mesh`: safety/measurements/multi_return_mesh_helper.py; jax's own
# test utility `jtu.create_mesh` returns it)
MAKE_MESH_NAMES = frozenset({"jax.make_mesh", "jax.sharding.make_mesh", "jax._src.sharding_impls.make_mesh"})
# jax's own test utility (`jtu.create_mesh(mesh_shape, axis_names, iota_order=False, axis_types=None)`, the tests
# of the jax repository): a mesh with these axis names, Auto axes unless `axis_types` is given, whichever of its
# two returns (`Mesh(...)` or `make_mesh(...)`) `iota_order` picks (safety/measurements/multi_return_mesh_helper.py).
# The analysis does not follow `jax.*` modules: it knows it by name. (mesh_shape, axis_names, axis_types) positions:
TEST_MESH_NAMES = frozenset({"jax._src.test_util.create_mesh"})
TEST_MESH_AXIS_TYPES_POSITION = 3
CREATE_DEVICE_MESH_NAMES = frozenset({"jax.experimental.mesh_utils.create_device_mesh"})
AXIS_TYPE_AUTO = frozenset({"jax.sharding.AxisType.Auto"})
AXIS_TYPE_EXPLICIT = frozenset({"jax.sharding.AxisType.Explicit"})

# The config option that turns off JAX's "spmd_axis_name cannot appear in shard_map in_specs" check.
DISABLE_VMAP_SHMAP_ERROR = "jax_disable_vmap_shmap_error"
DEVICES_NAMES = frozenset({"jax.devices", "jax.local_devices"})
# (`jax._src.sharding_impls.NamedSharding` and `jax._src.named_sharding.NamedSharding` are the same class, jax
# 0.10.2: jax's own tests import it from there)
NAMED_SHARDING_NAMES = frozenset(
    {
        "jax.sharding.NamedSharding", "jax.NamedSharding", "jax._src.sharding_impls.NamedSharding",
        "jax._src.named_sharding.NamedSharding",
    }
)
# `with jax.set_mesh(mesh):` gives shard_map its mesh when mesh= is omitted.
# Functions that return the context mesh (the one `jax.set_mesh` set): reads of a mesh without naming it.
CONTEXT_MESH_GETTERS = frozenset({"jax.sharding.get_abstract_mesh", "jax.sharding.get_mesh"})
SET_MESH_NAMES = frozenset({"jax.set_mesh", "jax.sharding.use_mesh", "jax.sharding.set_mesh"})
# Calls that return their array operand placed by a sharding: the parameter (position, keyword) holding the
# sharding. An array they place on a mesh carries that mesh in `.sharding.mesh` (mesh_uses.MeshUses).
# The placements of an input SPMD006 reads (`analysis.placement`): `jax.device_put(x, NamedSharding(...))`, and
# `jax.reshard(x, NamedSharding(...))`, which places x as device_put does (measured with jax 0.10.2: a plain vmap
# over it reaching a shard_map that names the axis fails the same way; docs/rules.md, SPMD006).
DEVICE_PUT_NAMES = frozenset({"jax.device_put"})
RESHARD_NAMES = frozenset({"jax.reshard", "jax.sharding.reshard"})
PLACING_SHARDING_PARAM = {
    "jax.device_put": (1, "device"),
    "jax.reshard": (1, "out_shardings"),
    "jax.sharding.reshard": (1, "out_shardings"),
    "jax.lax.with_sharding_constraint": (1, "shardings"),
    "jax.experimental.pjit.with_sharding_constraint": (1, "shardings"),
}
# `jax.typeof(x)`: the abstract value of x, whose `.sharding` is the array's sharding (its mesh abstract).
TYPEOF_NAMES = frozenset({"jax.typeof"})

PARTIAL_NAMES = frozenset({"functools.partial", "jax.tree_util.Partial"})
# Builtins and standard-library functions that call the callables they are given while they run (`map(block,
# rows)`, `sorted(xs, key=f)`, `functools.reduce(step, xs)`): a function passed to them is reached, its
# arguments not known (breaker14 w06: `list(map(block, [v]))` in an spmd-vmapped function was silent while JAX
# raised SPMD001's error). A builtin counts only where its name is not bound by the module.
CALLING_BUILTINS = frozenset({"map", "filter", "sorted", "min", "max"})
CALLING_STDLIB = frozenset(
    {
        "functools.reduce", "itertools.starmap", "itertools.accumulate", "itertools.filterfalse",
        "itertools.takewhile", "itertools.dropwhile", "itertools.groupby",
    }
)
# Standard-library wrappers returning the callable they are given, its attributes updated: `functools.wraps(fn)(g)`
# and `functools.update_wrapper(g, fn)` are `g` (breaker6 r02: a project decorator returning
# `functools.wraps(fn)(jax.shard_map(fn, ...))` was silent while JAX raised SPMD001's error).
SAME_CALLABLE_WRAPS = frozenset({"functools.wraps"})
SAME_CALLABLE_UPDATE = frozenset({"functools.update_wrapper"})

# Standard-library copies of an instance with fields given anew: `dataclasses.replace(layer, AXIS='data')` (and
# Python 3.13's `copy.replace`) build the instance without naming its class, so what its fields hold is not what
# the class's constructions give (breaker9 t27: a vmap of such a copy was silent while JAX raised SPMD001's error).
INSTANCE_REPLACE = frozenset({"dataclasses.replace", "copy.replace"})

# Transparent wrappers: calling `wrapper(f)` yields a callable that traces f when called.
WRAPPER_NAMES = frozenset(
    {
        "jax.jit",
        "jax.pjit",
        "jax.experimental.pjit.pjit",
        "jax.checkpoint",
        "jax.remat",
        "jax.ad_checkpoint.checkpoint",
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacfwd",
        "jax.jacrev",
        "jax.hessian",
        "jax.named_call",
        "jax.custom_jvp",
        "jax.custom_vjp",
        "flax.linen.jit",
        "flax.linen.remat",
        "flax.linen.checkpoint",
        "flax.nnx.jit",
        "flax.nnx.remat",
    }
)

# Decorators giving a function custom derivative rules, and the methods that register them (`f.defvjp(fwd, bwd)`,
# `f.defjvp(jvp)`, `@f.defjvp`): the rules run in place of the function when it is differentiated (measured:
# safety/measurements/custom_vjp_fwd_shard_map.py).
CUSTOM_DERIVATIVE_NAMES = frozenset({"jax.custom_vjp", "jax.custom_jvp"})
CUSTOM_RULE_METHODS = frozenset({"defvjp", "defjvp", "defjvps"})
# A decorator giving a function a custom batching rule, and the method registering it (`@f.def_vmap`): under a vmap
# (the spmd vmap is always on a shard_map body's way) the rule runs in place of the function (breaker16 s03: a rule's
# `psum` over 'y' was not read, the rename to 'y' was SAFE and the renamed program's values changed).
CUSTOM_VMAP_NAMES = frozenset({"jax.custom_batching.custom_vmap"})
CUSTOM_VMAP_RULE_METHODS = frozenset({"def_vmap"})
# Transforms that differentiate the function they are given: on the way from a vmap, a function with custom
# derivative rules runs its rules (`CUSTOM_DERIVATIVE_NAMES`).
DIFFERENTIATING_NAMES = frozenset(
    {
        "jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.hessian", "jax.vjp", "jax.jvp",
        "jax.linearize",
    }
)

# Wrappers whose result, called at once, calls their function with that call's arguments (`jax.jit(block)(x,
# 'data')`, `jax.checkpoint(f)(x)`, `jax.grad(loss)(w, 'data')`; `jax.vmap(f, in_axes)(a, ...)` with each
# example's slice of the arrays): the function's parameters are those arguments (`reach.Reacher._local_bound`).
# flax's lifted transforms are not among them (they wrap Modules, whose calls are the Module's).
ARGUMENT_PASSING_NAMES = frozenset(
    {
        "jax.jit",
        "jax.pjit",
        "jax.experimental.pjit.pjit",
        "jax.checkpoint",
        "jax.remat",
        "jax.ad_checkpoint.checkpoint",
        "jax.named_call",
        "jax.grad",
        "jax.value_and_grad",
    }
) | JAX_VMAP_NAMES

# jit-like wrappers: a value closed over inside a function they compile is an operand of that compiled
# call, not a batched tracer, so the capture hazard stops at them (measured, docs/rules.md SPMD003).
JIT_NAMES = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit", "flax.linen.jit", "flax.nnx.jit"})
# pjit takes `in_shardings` / `out_shardings` as its 2nd and 3rd positional arguments too (`pjit(fun,
# in_shardings, out_shardings, ...)`); `jax.jit` and `flax.nnx.jit` take them by keyword only (jax 0.10.2).
PJIT_NAMES = frozenset({"jax.pjit", "jax.experimental.pjit.pjit"})

# Higher-order functions whose callable arguments JAX traces while the caller is traced. Together
# with WRAPPER_NAMES and VMAP_NAMES this is the one list of "passing f here reaches f".
HIGHER_ORDER_NAMES = WRAPPER_NAMES | VMAP_NAMES | frozenset(
    {
        "jax.lax.scan",
        "jax.lax.cond",
        "jax.lax.switch",
        "jax.lax.fori_loop",
        "jax.lax.while_loop",
        "jax.lax.map",
        "jax.lax.associative_scan",
        "jax.lax.custom_root",
        "jax.lax.custom_linear_solve",
        "jax.tree.map",
        "jax.tree_util.tree_map",
        "jax.tree_map",
        "jax.eval_shape",
        "jax.linearize",
        "jax.vjp",
        "jax.jvp",
        "flax.linen.scan",
        "flax.nnx.scan",
        "flax.linen.cond",
        "flax.linen.while_loop",
    }
)

# `jax.lax.map(f, xs)`: `f` gets each slice of `xs` along its leading axis, with or without a `batch_size`; a
# value computed from a slice still comes from `xs` (`analysis.batched.BatchedValues._lax_map_hop`).
LAX_MAP_NAMES = frozenset({"jax.lax.map"})

# A `jax.lax.map` given a `batch_size` (not None) vmaps its function over chunks of that size: between the
# spmd vmap and a shard_map it is an inner vmap (hazard H2, SPMD007; measured on jax 0.10.2:
# safety/measurements/lax_map_and_smap_infer.py). With `batch_size=None` it is a scan and runs.
BATCHED_MAP_NAMES = frozenset({"jax.lax.map"})

# Calls that, written in a shard_map body (or wrapping it) under an spmd vmap with check_vma on, fail as an inner
# `jax.vmap` does (hazard H2, SPMD007), measured on jax 0.10.2 (CPU, eager and under jit, the spmd axis free of
# the specs or a new size-1 axis; a plain vmap and `check_vma=False` run): transforms that batch their function
# with a vmap of their own (`jnp.vectorize(lambda t: t * 2.0)` and `lambda t: t * t` raise `pvary is a
# invariant->variant collective`; `jax.jacfwd`, `jax.jacrev`, `jax.hessian` raise `pvary` / `Primitive mul
# requires varying manual axes to match` even of `jnp.sin`), and functions whose batching rule mixes invariant
# and varying values: `jnp.interp`, `jnp.searchsorted`, `jnp.digitize`, `jnp.histogram` (`pvary`), `jnp.polyval`
# (`mul requires varying`), `jnp.piecewise` (`clamp requires varying`), `jax.lax.cond` over binary branches
# (`pvary`, or `branches of cond produced mismatched varying manual axes` for a predicate closed over) and
# `jax.lax.switch` (`clamp requires varying`); safety/trials/breaker13 s09, s27-s38. A `cond` / `switch` whose
# predicate is a Python literal is not batched and runs (breaker13 r28): `shard_map_facts` leaves those out.
# Never read as unary (`primitives.UnaryCheck.vmap_of_unary` reads `jax.vmap` only). This list makes SPMD007's
# finding and message (hazard H2 with these calls as its inner vmaps); the safety of rename / add-axis / strip
# does not rest on it but on the measured allowlist (`analysis.h2_calls`, docs/safety.md "Hazard H2: the calls a
# body may make"), which every name here is off.
INNER_BATCHING_NAMES = frozenset(
    {
        "jax.numpy.vectorize", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian",
        "jax.numpy.interp", "jax.numpy.searchsorted", "jax.numpy.digitize", "jax.numpy.histogram",
        "jax.numpy.polyval", "jax.numpy.piecewise", "jax.lax.cond", "jax.lax.switch",
    }
)
# (among them, those whose first argument, a Python literal, decides the branch without batching)
LITERAL_PREDICATE_NAMES = frozenset({"jax.lax.cond", "jax.lax.switch"})

# Functions that trace the function they are given into a jaxpr before an enclosing vmap batches it: a shard_map
# body reached through one closes over a batched value without failing on an Auto mesh (measured on jax 0.10.2,
# eager and under jit, check_vma True and False: safety/measurements/capture_under_staging_hof.py); on an
# Explicit mesh with the batch placed on the spmd axis the capture does what it does without them.
STAGING_NAMES = JIT_NAMES | frozenset(
    {
        "jax.checkpoint",
        "jax.remat",
        "jax.ad_checkpoint.checkpoint",
        "jax.lax.scan",
        "jax.lax.map",
        "jax.lax.cond",
        "jax.lax.switch",
        "jax.lax.fori_loop",
        "jax.lax.while_loop",
    }
)

# Functions measured to trace the function they are given into a jaxpr before an eager enclosing vmap batches
# it, as `jax.jit` does for SPMD008's eager case: a `check_vma=False` shard_map reached through one, by an eager
# vmap over a batch placed on an Explicit mesh axis (spmd vmap or plain), runs and matches where reached directly
# it raises `out_specs argument must refer to an axis marked as manual` (jax 0.10.2, `jax.lax.map` with any
# `batch_size` included: safety/measurements/explicit_check_vma_false_staged.py; fuzz seed 90054).
# `jax.checkpoint` and an inner `jax.vmap` fail as the direct call does, and so do `lax.cond`/`lax.switch` on a
# predicate or index the vmap batches (on an unbatched one they run: `STATIC_PREDICATE_STAGING_NAMES`).
EAGER_STAGING_NAMES = frozenset({"jax.lax.map", "jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop"})
# `lax.cond`/`lax.switch` stage their branches as those loops do for that eager case when the vmap does not batch
# the predicate (index): measured with a literal (`True`, `0`) and a module constant (`K > 0`), spmd and plain
# vmap, `P()` (safety/measurements/spmd008_cond_unbatched_predicate.py, explicit_check_vma_false_staged.py).
# Told apart only where the evaluator reads the predicate as a constant (`analysis.reach`, `ReachedSite.cond_staged`);
# any other predicate may be batched and keeps the finding. For nothing else (captures, nested shard_maps): not
# measured there.
STATIC_PREDICATE_STAGING_NAMES = frozenset({"jax.lax.cond", "jax.lax.switch"})

WITH_SHARDING_CONSTRAINT_NAMES = frozenset(
    {"jax.lax.with_sharding_constraint", "jax.experimental.pjit.with_sharding_constraint"}
)
# Flax's logical-axis constraint, `nn.with_logical_constraint(x, ('batch', 'embed'), rules=None, mesh=None)` (also
# spelled `flax.linen.partitioning.with_sharding_constraint`, the same function in flax 0.12.8): it maps the
# logical names to mesh axes by its `rules=` or the rules in force when it runs (`nn.logical_axis_rules(...)`),
# and calls `jax.lax.with_sharding_constraint` with that spec; with no rules in force it returns x unchanged.
# Under an spmd vmap a rule mapping a name to the spmd axis raises SPMD005's error (measured:
# safety/measurements/flax_logical_constraint_under_spmd_vmap.py). Which axes it names depends on run-time
# context, so its spec is never read: an SPMD910 record (`specs.logical_constraint_tree`).
# Parameters annotated for the mesh: `nn.with_partitioning(init, names)` (Linen; flax.core.meta),
# `nnx.with_partitioning(init, sharding)` (NNX; flax.nnx.spmd), and the logical `nn.with_logical_partitioning(init,
# names)`. Created inside an spmd vmap (a Linen module's `self.param` under `nn.vmap`, an NNX model built under
# `nnx.vmap`), flax constrains the parameter to its names when a mesh is set, and names naming the spmd axis raise
# SPMD005's error; without a mesh Linen runs (NNX's eager sharding raises its own error). Whether a mesh is set
# where it runs is not known statically: names naming the spmd axis (or not read, or logical) are an SPMD910
# record, never a finding (measured: safety/measurements/flax_partitioned_params_under_spmd_vmap.py).
PARTITIONED_PARAM_NAMES = frozenset(
    {
        "flax.linen.with_partitioning",
        "flax.core.meta.with_partitioning",
        "flax.nnx.with_partitioning",
        "flax.nnx.spmd.with_partitioning",
    }
)
LOGICAL_PARTITIONED_PARAM_NAMES = frozenset({"flax.linen.with_logical_partitioning", "flax.linen.spmd.with_logical_partitioning"})
LOGICAL_CONSTRAINT_NAMES = frozenset(
    {
        "flax.linen.with_logical_constraint",
        "flax.linen.spmd.with_logical_constraint",
        "flax.linen.partitioning.with_sharding_constraint",
    }
)

# Collectives and axis queries: the axis name is the `axis_name` keyword or this positional index.
COLLECTIVE_AXIS_POSITION = {
    "jax.lax.psum": 1,
    "jax.lax.pmean": 1,
    "jax.lax.pmax": 1,
    "jax.lax.pmin": 1,
    "jax.lax.psum_scatter": 1,
    "jax.lax.all_gather": 1,
    "jax.lax.all_to_all": 1,
    "jax.lax.ppermute": 1,
    "jax.lax.pshuffle": 1,
    "jax.lax.pswapaxes": 1,
    "jax.lax.pbroadcast": 1,
    "jax.lax.pvary": 1,
    "jax.lax.axis_index": 0,
}
# Not listed: jax.lax.axis_size, which returns the right size under an spmd vmap (measured, docs/rules.md).
COLLECTIVE_AXIS_KEYWORD = "axis_name"

# Functions that act element by element: a shard_map body made only of these (and arithmetic operators)
# computes the same values whatever its block shape, which is what makes strip value-preserving (docs/safety.md).
_ELEMENTWISE_JNP = (
    "abs absolute add arccos arccosh arcsin arcsinh arctan arctan2 arctanh cbrt ceil clip conj conjugate cos "
    "cosh deg2rad degrees divide equal exp exp2 expm1 fabs float_power floor floor_divide fmax fmin fmod "
    "greater greater_equal heaviside hypot imag isfinite isinf isnan less less_equal log log10 log1p log2 "
    "logaddexp logical_and logical_not logical_or logical_xor maximum minimum mod multiply nan_to_num "
    "negative not_equal positive power rad2deg radians real reciprocal remainder rint round sign sin sinc "
    "sinh sqrt square subtract tan tanh true_divide trunc where asarray array"
).split()
_ELEMENTWISE_NN = (
    "relu relu6 sigmoid silu swish gelu elu selu celu leaky_relu softplus soft_sign hard_tanh hard_sigmoid "
    "hard_silu hard_swish log_sigmoid mish squareplus sparse_plus"
).split()
_ELEMENTWISE_LAX = (
    "abs add sub mul div neg exp log sin cos tanh sqrt rsqrt max min pow sign floor ceil round logistic "
    "integer_pow select convert_element_type"
).split()
ELEMENTWISE_NAMES = frozenset(
    [f"jax.numpy.{n}" for n in _ELEMENTWISE_JNP]
    + [f"jax.nn.{n}" for n in _ELEMENTWISE_NN]
    + [f"jax.lax.{n}" for n in _ELEMENTWISE_LAX]
    + ["numpy.float32", "jax.numpy.float32"]
)
# Array methods that are elementwise (`x.astype(dtype)`).
ELEMENTWISE_METHODS = frozenset({"astype", "conj", "clip", "round"})

# Functions measured to lower to one unary primitive: a body under an inner `jax.vmap` that applies only
# these runs under check_vma=True (jax 0.10.2, docs/rules.md SPMD007); relu, gelu, silu, softplus and
# `v ** 0.5` were measured to fail like any binary primitive.
_UNARY_JNP = "sin cos tanh exp exp2 expm1 log log1p sqrt abs floor square negative sign reciprocal".split()
UNARY_NAMES = frozenset(
    [f"jax.numpy.{n}" for n in _UNARY_JNP] + ["jax.nn.sigmoid", "jax.lax.rsqrt"]
)
UNARY_METHODS = frozenset({"astype"})
# Cumulative ops (scans along one axis) measured to run under hazard H2's conditions like the unary primitives,
# called with the array and at most an integer `axis` (and lax's boolean `reverse`): jax 0.10.2,
# safety/measurements/spmd007_cumulative_ops.py (fuzz seed 1077). `nancumsum` / `nancumprod` raise the `pvary`
# error (they select with a binary `where`) and are not listed.
CUMULATIVE_NAMES = frozenset(
    [f"jax.numpy.{n}" for n in ("cumsum", "cumprod", "cumulative_sum", "cumulative_prod")]
    + [f"jax.lax.{n}" for n in ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp")]
)

# Slices with static bounds, measured to run under hazard H2's conditions like the unary primitives (jax 0.10.2,
# safety/measurements/spmd007_lax_map_body_ops.py, fuzz seed 110652): `jax.lax.dynamic_slice_in_dim(v, 0, n,
# axis=-1)` with an integer literal start (a traced start index is a second operand: not measured) and the
# static size and axis, under an inner `jax.vmap` and under `jax.lax.map(..., batch_size=k)` alike.
STATIC_SLICE_NAMES = frozenset({"jax.lax.dynamic_slice_in_dim"})

# Collectives measured to run under hazard H2's conditions like a unary step (jax 0.10.2,
# safety/measurements/spmd007_body_collectives_constants.py): `psum`, `pmax`, `pmin` given the value and one axis
# name written as a string literal (or a name bound once to one) that is not an spmd axis of the vmap (`'y'` of
# the block's spec, `'z'` of no spec), or a tuple of such names (a display, or a name bound once to one). Each
# name maps to whether a tuple of several axes was measured to run. For `psum` it was not at first (`psum(b,
# ('y', 'z'))` under `P('y')` raises `psum can only accept axis_name which corresponds to ...`), but that error is
# JAX's own check that a psum's axes share the operand's varying state (all split by the specs, or none): it is
# raised without any vmap, and a psum over axes of one state (`P(('y', 'z'))` or `P()` with `('y', 'z')`) runs
# under the inner vmap and `lax.map` (safety/measurements/spmd007_tuple_collective_axes.py): H2 adds nothing.
# Over the spmd axis every one raises the `pvary` error (a psum over several axes among them may raise the psum
# error instead); `pmean` (a psum then a division) and `axis_index` combined with the
# block fail (safety/measurements/spmd007_gather_permute_index_local_constants.py: `b + axis_index('y')`,
# `b * axis_index('y')`, `b * 0 + axis_index('y')` raise everywhere): not listed.
H2_FREE_COLLECTIVES = {"jax.lax.psum": True, "jax.lax.pmax": True, "jax.lax.pmin": True}

# Collectives measured to run under hazard H2's conditions like a unary step only over an axis the block is split
# on (jax 0.10.2, safety/measurements/spmd007_gather_permute_index_local_constants.py, inner `jax.vmap` and
# `lax.map(batch_size=2)`, eager and jit): `all_gather(b, 'y')` (untiled, or `tiled=True`/`False` literal; then
# sliced back or whole), `ppermute(b, 'y', perm)` (a literal list of int pairs), `psum_scatter(all_gather(b, 'y',
# tiled=True), 'y', tiled=True)` (a psum_scatter of anything else is not measured), under `in_specs = out_specs = P('y')` on a (2, 4) and a (2, 2, 2) mesh; over an axis no spec
# names (`'y'` under `P()`, `'z'` under `P('y')`) they raise `... out_specs which require replication`. Each name
# maps to the keywords measured and the literal values each may take; `ppermute`'s `perm` is checked apart.
H2_SPLIT_AXIS_COLLECTIVES = {
    "jax.lax.all_gather": {"tiled": (True, False)},
    "jax.lax.ppermute": {},
    "jax.lax.psum_scatter": {"tiled": (True,)},
}

# Products with a constant the body closes over, measured to run under hazard H2's conditions like a unary step
# (same measurement): `b @ M`, `M @ b`, `jnp.dot(b, M)`, `jnp.dot(M, b)`, `jnp.matmul(b, M)` and
# `jnp.einsum(subscripts, b, M)` (a string literal; measured `'i,ij->j'`, `'a,ab->b'`, `'i,ji->j'`, `'...i,ij->...j'`,
# `'i,ij'`) with `M` a module-level constant (`np.linspace(...).reshape(...)`, an `np.array`
# literal, `jnp.ones(...)`), or one bound inside a function (the spmd-vmapped one, the one applying the shard_map
# under the inner vmap, the body itself) or written inline (`b @ jnp.eye(n, dtype=b.dtype)`): measured alike,
# numpy and jax.numpy constructors, eager and under jit
# (safety/measurements/spmd007_gather_permute_index_local_constants.py). Each name maps to the operand positions the constant was measured at (einsum's
# subscripts string is position 0). An elementwise product with a captured array (`b * W`) fails (`ManualAxisType`,
# `Primitive mul requires varying manual axes to match`), and so does a product with a value the spmd vmap batches.
CONSTANT_PRODUCT_NAMES = {"jax.numpy.dot": (0, 1), "jax.numpy.matmul": (1,), "jax.numpy.einsum": (2,)}

# --- The forms the prefilter must keep, read from the tables above -----------------------------------------
# `spmdfix.prefilter` decides from the raw text, before any parse, whether a module can hold a finding. Every
# resolution of a name the analysis recognises ends in an identifier written in the text: the last part of a
# qualified name above (`jax.vmap` -> `vmap`, `flax.linen.partitioning.vmap_with_axes` -> `vmap_with_axes`).
# So the prefilter's words are computed here from the same tables the recognisers use: a name taught to the
# analysis is known to the prefilter without a second list (tests/test_prefilter.py generates its cases from
# these tables).


def last_names(qualified: frozenset[str] | set[str]) -> tuple[str, ...]:
    """The last parts of qualified names, sorted, once each (`{"jax.vmap", "flax.nnx.vmap"}` -> `("vmap",)`)."""
    return tuple(sorted({name.rpartition(".")[2] for name in qualified}))


PREFILTER_VMAP_WORDS = last_names(VMAP_NAMES)
# A shard_map (any API), a sharding constraint, a jit whose in/out_shardings may name the spmd axis
# (SPMD005, `rules.constraint`), or a reshard whose spec may name the axis the batch is placed on (SPMD005/006's
# reshard form: no shard_map needed) the vmap may reach in the module.
PREFILTER_REACHED_WORDS = last_names(
    SHARD_MAP_NAMES | SMAP_NAMES | WITH_SHARDING_CONSTRAINT_NAMES | LOGICAL_CONSTRAINT_NAMES | PARTITIONED_PARAM_NAMES
    | LOGICAL_PARTITIONED_PARAM_NAMES | JIT_NAMES
    | RESHARD_NAMES
)
PREFILTER_PARTIAL_WORDS = last_names(PARTIAL_NAMES)
PREFILTER_PLACEMENT_WORDS = last_names(DEVICE_PUT_NAMES | RESHARD_NAMES)
# The keyword of each placement's sharding parameter (`device=`, `out_shardings=`): a placement passing a
# sharding by it, whatever the sharding is, may give SPMD006 or an SPMD910 record (issue 22).
PREFILTER_SHARDING_KEYWORDS = frozenset(
    keyword for name, (_, keyword) in PLACING_SHARDING_PARAM.items() if name in DEVICE_PUT_NAMES | RESHARD_NAMES
)
# The fewest positional arguments that reach spmd_axis_name among the vmaps (jax.vmap's 6th; flax.linen's 8th).
SPMD_MIN_POSITIONAL = 1 + min(position for _, _, position in VMAP_SIGNATURES.values() if position is not None)
