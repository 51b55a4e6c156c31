"""A dataclass field read as `self.axis` in a shard_map's specs, its class built with positional arguments
(newuser11 p3: `Shift(0.5)` with `shift: float = 1.0, axis: str = DATA`). A plain dataclass's `__init__` takes
its fields in the order its body declares them, so `Shift(0.5)` leaves `axis` at its default: read, a finding
(it was an SPMD910 record whose reason said the default "is an expression spmdfix does not evaluate"). Where a
construction does give the field, or the mapping is not known, the record says so."""

from __future__ import annotations

import textwrap

import pytest

from spmdfix import api

HEAD = """\
import dataclasses
import jax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
"""

CALL = """
    def __call__(self, v):
        return jax.shard_map(lambda b: b + self.shift, mesh=MESH, in_specs=P(self.axis), out_specs=P(self.axis))(v)
"""


def _analyse(cls: str, build: str):
    """The analysis of a module holding the class `cls` (its `__call__` appended) and `step(v)` returning
    `build(v)`, under `jax.vmap(step, spmd_axis_name='x')`."""
    text = HEAD + textwrap.dedent(cls) + textwrap.indent(textwrap.dedent(CALL), "    ") + (
        f"\n\ndef step(v):\n    return {build}(v)\n\n\nf = jax.vmap(step, spmd_axis_name='x')\n"
    )
    return api.analyse_source(text)


PLAIN = """

@dataclasses.dataclass(frozen=True)
class Shift:
    shift: float = 1.0
    axis: str = 'x'
"""


@pytest.mark.parametrize("build", ["Shift(0.5)", "Shift()", "Shift(shift=0.5)"])
def test_a_field_left_at_its_default_is_read(build: str) -> None:
    analysis = _analyse(PLAIN, build)
    assert {f.code for f in analysis.findings} == {"SPMD001", "SPMD002"}, [u.what for u in analysis.unfollowed]


def test_a_field_given_by_position_is_named_in_the_record() -> None:
    """The construction gives `axis` (the value `self.axis` then holds is not read through the instance)."""
    analysis = _analyse(PLAIN, "Shift(0.5, 'x')")
    assert not analysis.findings
    whats = [u.what for u in analysis.unfollowed]
    assert any("gives `axis` by position" in w for w in whats), whats
    assert not any("an expression spmdfix does not evaluate" in w for w in whats), whats


@pytest.mark.parametrize("cls,why", [
    ("""

@dataclasses.dataclass
class Base:
    shift: float = 1.0


@dataclasses.dataclass(frozen=True)
class Shift(Base):
    axis: str = 'x'
""", "which fields they set is not known"),
    ("""

@dataclasses.dataclass(frozen=True)
class Shift:
    shift: float = 1.0
    axis: str = dataclasses.field(default='x')
""", None),
    ("""

@dataclasses.dataclass(kw_only=True)
class Shift:
    shift: float = 1.0
    axis: str = 'x'
""", "which fields they set is not known"),
])
def test_positional_arguments_not_mapped_stay_a_record(cls: str, why: str | None) -> None:
    """A base class (its fields come first), a `field(...)` default, `kw_only`: not mapped, never a guess."""
    analysis = _analyse(cls, "Shift(0.5)")
    assert not analysis.findings, [f.message for f in analysis.findings]
    whats = [u.what for u in analysis.unfollowed]
    assert whats
    if why is not None:
        assert any(why in w for w in whats), whats
