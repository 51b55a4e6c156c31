"""The kinds the analysis' facts carry (`spmdfix.analysis.facts`): one enum per field that says which of a few
forms a fact takes, so that the rules and fixes compare members, never strings.

Part of the fact contract, kept apart from the records so that the rules and fixes, which the CLI's main
process imports, can compare kinds at run time without importing the records (bench/README.md, "The
imports"). Plain enums: no kind is printed or pickled.
"""

from __future__ import annotations

import enum


class VmapKind(enum.Enum):
    """Which vmap a `VmapFacts` describes. SPMD: one given a (resolved) `spmd_axis_name`; EXPLICIT: a plain vmap
    whose input's batch dimension is placed on Explicit mesh axes (`Placement`) [SPMD006]."""

    SPMD = enum.auto()
    EXPLICIT = enum.auto()


class UnreadKind(enum.Enum):
    """Which value of a reached shard_map an `UnreadValue` is (`analysis.unread_matters` judges per kind
    whether it could change a finding)."""

    MESH = enum.auto()
    AXIS_NAMES = enum.auto()
    CHECK_VMA = enum.auto()
    COLLECTIVE = enum.auto()
    # the input of a value a shard_map body closes over through a staging function on an Explicit mesh, not
    # traced back to the vmap's arguments: its placement decides SPMD003 (analysis.capture.capture_facts)
    CAPTURE_INPUT = enum.auto()
    # the rank of a leaf of a pytree operand whose structure at the shard_map's application is not read: it
    # decides SPMD003's broadcast exemption for an unbatched array meeting it (analysis.ranks.pytree_unread); also
    # a closed-over value that may be an array whose shape is not read (analysis.capture.unread_arrays)
    OPERAND_RANK = enum.auto()
    # a shard_map body held by a value of a function on the way (a loop variable, a parameter, `fns[0]`) that
    # the analysis does not resolve to a function: what it closes over decides SPMD003 (shard_maps.local_body_holder)
    BODY = enum.auto()


class CaptureKind(enum.Enum):
    """What a shard_map body closes over (`Capture`). BATCHED: a value the spmd vmap batches [SPMD003]; ARRAY: a
    non-scalar array the vmap does not batch, read by a body whose specs name no mesh axis while check_vma is on."""

    BATCHED = enum.auto()
    ARRAY = enum.auto()
    # an array placed on an Explicit mesh (`jax.device_put(w, NamedSharding(mesh, spec))`), any specs and
    # check_vma: JAX refuses closures over inputs sharded on Explicit axes [SPMD003]
    PLACED = enum.auto()


class SpecsForm(enum.Enum):
    """How a shard_map's in_specs is written where lift-captures extends it (`LiftSite.in_specs_form`). SPEC: a
    single `P(...)` (it becomes a tuple); SEQ: a tuple/list display of specs; EMPTY: `()`."""

    SPEC = enum.auto()
    SEQ = enum.auto()
    EMPTY = enum.auto()


class BatchPlacement(enum.Enum):
    """How a call places a mapped argument's batch dimension (`VmapCall.batch_placement`). NONE: placed
    (`jax.device_put(x, NamedSharding(mesh, spec))`) with `None` there; AXES: placed on mesh axes there;
    UNKNOWN: not placed, or not known."""

    NONE = enum.auto()
    AXES = enum.auto()
    UNKNOWN = enum.auto()


class MeshKind(enum.Enum):
    """Which constructor builds a mesh (`values.MeshInfo.kind`): `jax.sharding.Mesh(devices, axis_names)` (Auto
    axes by default), `jax.make_mesh(axis_shapes, axis_names)` (Explicit axes by default) or jax's test utility
    `jtu.create_mesh` (Auto by default)."""

    MESH = enum.auto()
    MAKE_MESH = enum.auto()
    # jax's test utility `jtu.create_mesh(mesh_shape, axis_names, iota_order=False, axis_types=None)` (Auto axes
    # by default; `jaxapi.TEST_MESH_NAMES`): read, never edited (add-axis refuses it)
    TEST_MESH = enum.auto()


class ShapeForm(enum.Enum):
    """Where a mesh's shape is written, so where add-axis puts a new leading size (`MeshInfo.shape_form`).
    ARGS: the positional arguments of a `reshape(2, 4)` call; SEQ: a tuple/list display such as `(2, 4)`; FLAT:
    the devices argument of a one-axis `Mesh`, a flat array of devices (reshaped where it is passed); LIST: the
    devices argument of a one-axis `Mesh`, the device list `jax.devices()` itself (made 2-D where it is
    passed: `np.array(...).reshape(1, -1)`, or `[...]` in a module without numpy as `np`)."""

    ARGS = enum.auto()
    SEQ = enum.auto()
    FLAT = enum.auto()
    LIST = enum.auto()


class AxisType(enum.Enum):
    """The type of a mesh axis (`MeshInfo.type_of`, `MeshInfo.types`), or of a whole mesh's axes
    (`MeshInfo.axis_types`): AUTO, EXPLICIT (`jax.sharding.AxisType.Auto` / `.Explicit`, or a constructor's
    default), UNKNOWN (not a literal `AxisType.*`, or not an axis of the mesh); MIXED only for a whole mesh,
    whose axes are of both known types (JAX decides per axis: safety/measurements/capture_explicit_mesh.py)."""

    AUTO = enum.auto()
    EXPLICIT = enum.auto()
    MIXED = enum.auto()
    UNKNOWN = enum.auto()


class AxisTypesForm(enum.Enum):
    """How a mesh's `axis_types` argument is written (`MeshInfo.axis_types_form`), so how add-axis extends it.
    SEQ: a tuple display (extended by a copy of its first element); REPEAT: `(A,) * n` (n raised by one);
    REPEAT_LEN: `(A,) * len(AXES)` with `AXES` the module constant the axis names are (`MeshInfo.names_constant`):
    it grows with them, nothing to edit."""

    SEQ = enum.auto()
    REPEAT = enum.auto()
    REPEAT_LEN = enum.auto()
