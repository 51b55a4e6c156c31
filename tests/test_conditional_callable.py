"""A vmapped (or called) callable given by a conditional expression: `fn = a if flag else b`, `fn = custom or
default`. Either branch may be the callable, as both branches of an `if` statement are walked; a condition the
evaluator decides picks one. Silent before (silence13): the walk met an `ast.IfExp` and stopped without a record."""

from __future__ import annotations

import pytest

from spmdfix import api

HEAD = """\
import jax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
DEBUG = False


def sharded(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def plain(v):
    return v * 2.0


def run(xs, flag, custom=None):
    fn = {CHOICE}
    return jax.vmap(fn, spmd_axis_name='x')(xs)
"""


@pytest.mark.parametrize("choice", [
    "sharded if flag else plain", "plain if flag else sharded", "custom or sharded", "sharded if not DEBUG else plain",
])
def test_a_branch_reaching_the_shard_map_is_followed(choice: str) -> None:
    analysis = api.analyse_source(HEAD.replace("{CHOICE}", choice))
    assert {f.code for f in analysis.findings} == {"SPMD001", "SPMD002"}, [u.what for u in analysis.unfollowed]


def test_a_decided_condition_picks_its_branch() -> None:
    analysis = api.analyse_source(HEAD.replace("{CHOICE}", "sharded if DEBUG else plain"))
    assert not analysis.findings
