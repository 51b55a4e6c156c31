"""`P(*T[a:b:c])`: a slice of a tuple or list display of the module, starred into a PartitionSpec, is read
as the entries it takes (`values.Evaluator.sliced_display`; newuser15 m05 `P(*AXES[:1])` was an SPMD910
record). Bounds and step are integers (negative ones count from the end) or omitted; a step of 0, or a bound
that is not known, leaves the spec unknown (a record, never a guess)."""

from __future__ import annotations

import pytest

from spmdfix.api import analyse_source

TEMPLATE = """\
import jax
from jax.sharding import AxisType, PartitionSpec as P

N = 1
AXES = ('data', 'model')
MESH = jax.make_mesh((2, 4), AXES, axis_types=(AxisType.Auto,) * 2)


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(*SLICE), out_specs=P(*SLICE))(x)


f = jax.vmap(layer, spmd_axis_name='data')
"""

DATA = TEMPLATE.index("'data'")  # where the entry naming the spmd axis is written (the display's item)


@pytest.mark.parametrize(
    "cut", ["AXES[:1]", "AXES[0:1]", "AXES[-2:-1]", "AXES[:-1]", "AXES[::-1]", "AXES[0:1:1]", "AXES[:N]", "AXES[-2::2]"]
)
def test_a_slice_taking_the_spmd_axis_is_read(cut: str) -> None:
    result = analyse_source(TEMPLATE.replace("SLICE", cut))
    assert sorted(f.code for f in result.findings) == ["SPMD001", "SPMD002"], cut
    assert {f.span.start for f in result.findings} == {DATA}
    assert result.unfollowed == ()


@pytest.mark.parametrize("cut", ["AXES[1:]", "AXES[-1:]", "AXES[1::5]"])
def test_a_slice_leaving_it_out_is_read_and_clean(cut: str) -> None:
    result = analyse_source(TEMPLATE.replace("SLICE", cut))
    assert result.findings == [] and result.unfollowed == (), cut


def test_a_list_display_is_read_as_p_of_the_list_is() -> None:
    text = TEMPLATE.replace("AXES = ('data', 'model')", "AXES = ['data', 'model']").replace("SLICE", "AXES[:1]")
    assert sorted(f.code for f in analyse_source(text).findings) == ["SPMD001", "SPMD002"]


@pytest.mark.parametrize("cut", ["AXES[::0]", "AXES[:M]", "AXES[:1.0]"])
def test_a_slice_not_known_is_a_record(cut: str) -> None:
    result = analyse_source(TEMPLATE.replace("SLICE", cut))
    assert result.findings == []
    assert result.unfollowed and all("is not known" in u.what for u in result.unfollowed), result.unfollowed
