"""Issue 22: the mesh, `axis_names`, `check_vma` and collective axes of a reached shard_map are read, or give an
SPMD910 record naming the expression and why (`analysis.unknown_values.unread`) where the value could change a
finding (`analysis.unread_matters`); fixes that rely on such a value are unsafe and name it. The runnable
programs are golden cases under golden/unfollowed/ (axis_names_bound_twice, check_vma_from_environment,
collective_axis_from_table, mesh_bound_twice); these are the edges around them."""

from __future__ import annotations

import textwrap
from pathlib import Path

from spmdfix import api
from spmdfix.model import Applicability, Options, Transform
from spmdfix.prefilter import may_have_findings
from spmdfix.source_analysis import analyse_text

HEAD = """\
import os

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
xmesh = jax.make_mesh((2, 4), ('x', 'y'))
CHECK = os.environ.get("CHECK", "0") == "1"
AXIS = 'x'
if os.environ.get("OTHER"):
    AXIS = 'y'
"""


def _analyse(tmp_path: Path, tail: str):
    text = HEAD + textwrap.dedent(tail)
    path = tmp_path / "m.py"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    return api.analyse_source(text, path=path, index=api.new_project_index(tmp_path))


def _lost(analysis) -> list[str]:
    return [u.what for u in analysis.unfollowed]


CHECK_VMA_WHY = (
    "`check_vma` (`CHECK`) is not known: `CHECK` is assigned on line 9, where "
    "`os.environ.get('CHECK', '0') == '1'` is an expression spmdfix does not evaluate"
)
AXIS_WHY = "`AXIS` is bound 2 times (lines 10, 12), so its value where it is read is not known"


def test_a_check_vma_no_rule_reads_there_gives_no_record(tmp_path: Path) -> None:
    # no inner vmap, capture, collective or placed batch: every rule concludes the same whatever check_vma is
    analysis = _analyse(tmp_path, """
        def block(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=CHECK)(v)
        f = jax.vmap(block, spmd_axis_name='x')
        """)
    assert analysis.findings == [] and _lost(analysis) == []


def test_a_check_vma_hazard_h2_depends_on_gives_a_record_beside_the_finding(tmp_path: Path) -> None:
    analysis = _analyse(tmp_path, """
        def block(v):
            return jax.shard_map(jax.vmap(lambda r: r * r), mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=CHECK)(v)
        f = jax.vmap(block, spmd_axis_name='x')
        """)
    assert [f.code for f in analysis.findings] == ["SPMD007"]  # (reported while check_vma is not known off)
    assert _lost(analysis) == [CHECK_VMA_WHY]


def test_a_check_vma_an_eager_explicit_placement_depends_on_gives_a_record(tmp_path: Path) -> None:
    analysis = _analyse(tmp_path, """
        def block(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=xmesh, in_specs=P('y'), out_specs=P('y'), check_vma=CHECK)(v)
        def main(xs):
            placed = jax.device_put(xs, NamedSharding(xmesh, P('x', 'y')))
            return jax.vmap(block, spmd_axis_name='x')(placed)
        """)
    assert analysis.findings == [] and _lost(analysis) == [CHECK_VMA_WHY]


def test_a_check_vma_of_a_plain_vmap_over_an_explicit_placement_gives_a_record(tmp_path: Path) -> None:
    analysis = _analyse(tmp_path, """
        def block(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=xmesh, in_specs=P('y'), out_specs=P('y'), check_vma=CHECK)(v)
        def main(xs):
            placed = jax.device_put(xs, NamedSharding(xmesh, P('x', 'y')))
            return jax.vmap(block)(placed)
        """)
    assert analysis.findings == [] and _lost(analysis) == [CHECK_VMA_WHY]


def test_an_unread_collective_axis_gives_a_record_and_makes_the_fixes_unsafe(tmp_path: Path) -> None:
    analysis = _analyse(tmp_path, """
        def body(b):
            return b + jax.lax.psum(b, AXIS)
        def block(v):
            return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        f = jax.vmap(block, spmd_axis_name='x')
        """)
    why = f"the axis of `psum` (`AXIS`) is not known: {AXIS_WHY}"
    assert _lost(analysis) == [why]
    fixes = {fix.id.transform: fix for f in analysis.findings for fix in f.fixes}
    assert fixes[Transform.ADD_AXIS].applicability is Applicability.UNSAFE
    assert f"{why}: it may name the new axis `'batch'`" in fixes[Transform.ADD_AXIS].reason
    assert fixes[Transform.RENAME].applicability is Applicability.UNSAFE and why in fixes[Transform.RENAME].reason


def test_a_read_collective_axis_gives_no_record(tmp_path: Path) -> None:
    analysis = _analyse(tmp_path, """
        def body(b):
            return b + jax.lax.psum(b, 'y')
        def block(v):
            return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)
        f = jax.vmap(block, spmd_axis_name='x')
        """)
    assert analysis.findings == [] and _lost(analysis) == []


def test_unread_axis_names_give_a_record_read_ones_the_finding(tmp_path: Path) -> None:
    unread = _analyse(tmp_path, """
        MANUAL = {'y'}
        if os.environ.get("FULL"):
            MANUAL = {'x', 'y'}
        def block(v):
            return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P('y'), out_specs=P('y'), axis_names=MANUAL)(v)
        f = jax.vmap(block, spmd_axis_name='x')
        """)
    assert unread.findings == []
    assert _lost(unread) == [
        "`axis_names` (`MANUAL`) is not known: `MANUAL` is bound 2 times (lines 14, 16), so its value where it is "
        "read is not known"
    ]
    read = _analyse(tmp_path, """
        def block(v):
            return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P('y'), out_specs=P('y'), axis_names={'y'})(v)
        f = jax.vmap(block, spmd_axis_name='x')
        """)
    assert [f.code for f in read.findings] == ["SPMD008"] and _lost(read) == []


def test_an_unread_mesh_matters_only_when_the_batch_is_placed(tmp_path: Path) -> None:
    tail = """
        def block(v, m):
            return jax.shard_map(lambda b: b * 2.0, mesh=m, in_specs=P('y'), out_specs=P('y'), check_vma=False)(v)
        def main(xs):
            placed = {placed}
            return jax.vmap(lambda v: block(v, xmesh if xs.ndim else mesh), spmd_axis_name='x')(placed)
        """
    unplaced = _analyse(tmp_path, tail.format(placed="xs"))
    assert unplaced.findings == [] and _lost(unplaced) == []
    placed = _analyse(tmp_path, tail.format(placed="jax.device_put(xs, NamedSharding(xmesh, P('x', 'y')))"))
    assert placed.findings == []
    assert _lost(placed) == [
        "the shard_map's mesh (`m`) is not known: `m` is a parameter of `block` (line 14), and its one call (line 18) "
        "passes `xmesh if xs.ndim else mesh`: `xmesh if xs.ndim else mesh` is a conditional expression, whose "
        "condition spmdfix does not decide"
    ]


def test_an_spmd_axis_a_base_class_assigns_from_a_condition_says_so(tmp_path: Path) -> None:
    # (maxtext's pipeline: `self.spmd_axis_name = "stage" if ... else None` in the base class's __init__)
    analysis = _analyse(tmp_path, """
        def block(v):
            return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
        class Base:
            def __init__(self, auto):
                self.stage_axis = 'x' if auto else None
        class Pipeline(Base):
            def run(self, xs):
                return jax.vmap(block, spmd_axis_name=self.stage_axis)(xs)
        """)
    assert analysis.findings == []
    assert _lost(analysis) == [
        "the value of `spmd_axis_name` (`self.stage_axis`) is not known: class `Pipeline` inherits `stage_axis` from "
        "`Base`: `stage_axis` is assigned on line 18, where `'x' if auto else None` is a conditional expression, "
        "whose condition spmdfix does not decide"
    ]


def test_an_unread_placement_of_a_plain_vmap_reaching_a_shard_map_gives_a_record(tmp_path: Path) -> None:
    tail = """
        def block(v):
            return jax.shard_map(lambda b: b * 2.0, mesh=xmesh, in_specs=P('x'), out_specs=P('x'))(v)
        def run(xs, sharding):
            placed = jax.device_put(xs, {sharding})
            return jax.vmap({fun})(placed)
        """
    # (the prefilter dropped this text, which has no `NamedSharding(...)` call; it keeps it now)
    text = HEAD + textwrap.dedent(tail.format(sharding="sharding", fun="block"))
    assert may_have_findings(text)
    unread = analyse_text(text, Options())[0]
    assert unread.findings == []
    assert _lost(unread) == [
        "the input's sharding (`sharding`) is not known: `sharding` is a parameter of `run` (line 16), which no "
        "call in its module makes (calls from other modules are not read)"
    ]
    # the function reaches no shard_map, or the input goes to a device (no spec to read): no record
    for sharding, fun in (("sharding", "jax.numpy.sin"), ("jax.devices()[0]", "block")):
        assert _lost(analyse_text(HEAD + textwrap.dedent(tail.format(sharding=sharding, fun=fun)), Options())[0]) == []
    # readable: the finding (SPMD006), no record
    read = _analyse(tmp_path, tail.format(sharding="NamedSharding(xmesh, P('x', None))", fun="block"))
    assert [f.code for f in read.findings] == ["SPMD006", "SPMD006"] and _lost(read) == []


def test_a_method_of_an_unannotated_parameter_gives_a_record_only_where_a_class_here_reaches_a_shard_map(
    tmp_path: Path,
) -> None:
    """`blk.apply(v)` with `blk` a parameter of unknown object: a record when a class of the module defines an
    `apply` reaching a shard_map (golden unfollowed/method_of_unannotated_parameter); none for a method no
    class here defines so (an array's `v.mean()`, a library model's `model.apply`), which cannot lead to a
    finding; and the finding itself when `blk` is annotated with the class."""
    tail = """
        class Block:
            def apply(self, v):
                return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
            def mean(self, v):
                return v
        def layer(blk{annotation}, v):
            return blk.{method}(v) + v.mean()
        def step(blk, xs):
            return jax.vmap(lambda v: layer(blk, v), spmd_axis_name='x')(xs)
        """
    lost = _analyse(tmp_path, tail.format(annotation="", method="apply"))
    assert lost.findings == []
    assert _lost(lost) == [
        "`blk` is a parameter of `layer`: which object it receives, and so what `blk.apply` calls, is not known; "
        "`Block.apply` (line 15) reaches a shard_map"
    ]
    for method in ("mean", "init"):  # (defined here without a shard_map; defined nowhere here)
        assert _lost(_analyse(tmp_path, tail.format(annotation="", method=method))) == []
    found = _analyse(tmp_path, tail.format(annotation=": Block", method="apply"))
    assert [f.code for f in found.findings] == ["SPMD001", "SPMD002"] and _lost(found) == []  # (in_specs, out_specs)


def test_a_field_default_no_construction_here_shows_says_why(tmp_path: Path) -> None:
    # paxml's sgf.py: `spmd_axis_name: str | None = None` on a Fiddle-configured class built nowhere in its
    # module. Its default is rightly not read (a configuration may give another axis); the words named the
    # default `None` "an expression spmdfix does not evaluate".
    result = _analyse(
        tmp_path,
        """
        class Grad:
            spmd_axis_name: str | None = None

            def run(self, xs):
                smap = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
                return jax.vmap(smap, spmd_axis_name=self.spmd_axis_name)(xs)
        """,
    )
    whats = [u.what for u in result.unfollowed]
    assert len(whats) == 1, whats
    assert "`spmd_axis_name` is a field whose default (line 15) is not read: `Grad` may be constructed" in whats[0]
    assert "is an expression spmdfix does not evaluate" not in whats[0]
