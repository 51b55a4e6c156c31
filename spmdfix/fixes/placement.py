"""Where the batch of a vmap site is placed before and after a fix: the sentence every fix's reason ends with.

The safety class says whether a fix keeps the program's values (measured, docs/safety.md); what it does to
the layout is said here, in words, never in the class (issue 24): which mesh axis the batch dimension is
split over, how many ways, and how much of the batch each device holds, before and after.

Pure: analysis facts in (`VmapFacts`: the spmd axes, the reached shard_maps' resolved meshes with their
literal axis sizes, `MeshInfo.size_of`, and the calls of the vmapped function with their batch sizes,
`VmapFacts.calls`), text out. A size that is not a literal of the module is said "unknown"; a batch size that
no call makes visible gives the share as a fraction of the batch and says "batch size not visible".
"""

from __future__ import annotations

from fractions import Fraction
from math import prod
from typing import TYPE_CHECKING

from spmdfix.fixes.edits import backticked, resolved_meshes
from spmdfix.model import Fix, Transform

if TYPE_CHECKING:  # annotations only: `spmdfix.rules` imports the fixes without the analysis
    from spmdfix.analysis.facts import VmapFacts
    from spmdfix.analysis.values import MeshInfo

# The transforms that leave the batch where it is: they edit a shard_map (its specs, its operands, its
# check flag), never the vmap's spmd_axis_name nor the input's placement.
_UNCHANGED = (Transform.STRIP, Transform.LIFT_CAPTURES, Transform.DISABLE_CHECK_VMA)


def _meshes(vmap: VmapFacts) -> list[MeshInfo]:
    """The meshes the batch's axes are sizes of: a plain vmap's placement mesh (SPMD006), else the resolved
    mesh of every reached shard_map ([] when one is not resolved: every size is then unknown)."""
    if vmap.placement is not None:
        return [vmap.placement.mesh]
    return resolved_meshes(vmap) or []


def ways(names: tuple[str, ...], meshes: list[MeshInfo], sizes: dict[str, int] | None = None) -> int | None:
    """How many ways the batch is split over mesh axes `names`: the product of their sizes, the same on
    every mesh; None when a size is not a literal, the meshes disagree, or no mesh is known. `sizes` gives
    axes the meshes do not have yet (add-axis's new size-1 axis)."""
    known = sizes or {}
    if not names:
        return 1
    products = set()
    for mesh in meshes:
        each = [known.get(n, mesh.size_of(n)) for n in names]
        products.add(None if None in each else prod(each))
    if not meshes and all(n in known for n in names):
        return prod(known[n] for n in names)
    return products.pop() if len(products) == 1 else None


def batches(vmap: VmapFacts) -> tuple[int, ...] | None:
    """The distinct batch sizes of the vmapped function's calls, in call order, when every use of it is a
    call spmdfix followed and every call's batch is a literal of the module (`VmapFacts.calls`); else None."""
    calls = vmap.calls
    if calls is None or not calls.complete or any(call.batch is None for call in calls.calls):
        return None
    return tuple(dict.fromkeys(call.batch for call in calls.calls if call.batch is not None))


def _count(value: Fraction) -> str:
    """An example count: `4`, or `5/2` when the split does not divide the batch."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def share(split: int | None, sizes: tuple[int, ...] | None) -> str:
    """The part of the batch each device holds when the batch is split `split` ways: examples per device
    when the batch sizes are visible, else a fraction of the batch ("batch size not visible")."""
    if split is None:
        return "per-device share unknown"
    if sizes is None:
        part = "the whole batch" if split == 1 else f"1/{split} of the batch"
        return f"{part} per device; batch size not visible"
    counts = " or ".join(_count(Fraction(b, split)) for b in sizes)
    return f"{counts} example{'' if counts == '1' else 's'} per device"


def _whole(sizes: tuple[int, ...] | None) -> str:
    """What a device holds when the batch is not split: the examples, or that the batch size is not visible."""
    return share(1, sizes) if sizes is not None else "batch size not visible"


def layout(names: tuple[str, ...], split: int | None, sizes: tuple[int, ...] | None, new: bool = False) -> str:
    """`split 2 ways over `'x'` (4 examples per device)`; a size-1 split says the whole batch is on every
    device (`new`: on an axis the fix adds); no axes says the batch is on no mesh axis."""
    if new and split == 1:
        return f"on the new size-1 axis {backticked(names)}, not split: every device holds the whole batch ({_whole(sizes)})"
    if not names:
        return f"no longer placed on any mesh axis, every device holds the whole batch ({_whole(sizes)})"
    if split is None:
        return f"split an unknown number of ways over {backticked(names)} (a size is not a literal; per-device share unknown)"
    if split == 1:
        return f"on {backticked(names)} of size 1, not split: every device holds the whole batch ({_whole(sizes)})"
    return f"split {split} ways over {backticked(names)} ({share(split, sizes)})"


def _before(vmap: VmapFacts) -> str:
    names = tuple(vmap.spmd.names)
    return layout(names, ways(names, _meshes(vmap)), batches(vmap))


def changed(vmap: VmapFacts, names: tuple[str, ...], new_sizes: dict[str, int] | None = None) -> str:
    """The placement sentence of a fix that puts the batch on mesh axes `names` (rename's targets, add-axis's
    new axis with `new_sizes` {name: 1}, () for none): after, then before."""
    after = layout(names, ways(names, _meshes(vmap), new_sizes), batches(vmap), new=bool(new_sizes))
    return f"batch placement after the fix: {after}; before: {_before(vmap)}"


def unchanged(vmap: VmapFacts) -> str:
    """The placement sentence of a fix that does not move the batch (strip, lift-captures, disable-check-vma)."""
    return f"batch placement unchanged: {_before(vmap)}"


def moved_off(vmap: VmapFacts) -> str:
    """The placement sentence of move-placement: the input's batch entry becomes None."""
    after = layout((), 1, batches(vmap))
    return f"batch placement after the fix: the input's batch entry becomes `None`, {after}; before: {_before(vmap)}"


def sentence(vmap: VmapFacts, fix: Fix) -> str:
    """The placement sentence of `fix` planned at `vmap`'s site: the one its planner wrote (`Fix.placement`:
    rename and add-axis, which alone know their target axes), else the one its transform implies."""
    if fix.placement:
        return fix.placement
    if fix.transform is Transform.DROP_SPMD_AXIS:
        return changed(vmap, ())
    if fix.transform is Transform.MOVE_PLACEMENT:
        return moved_off(vmap)
    if fix.transform in _UNCHANGED:
        return unchanged(vmap)
    raise ValueError(f"{fix.transform}: its planner must say where it places the batch")
