"""Axis names read through a tuple's item or a helper's return (`values.Evaluator._evaluated`):
`spmd_axis_name=AXES[0]`, `P(AXES[DATA])`, `pick(('x', 'y'), 0)` with `def pick(names, i): return names[i]`.
Each gave an SPMD910 record where JAX raised. What may hold another value stays a record: a list (it may
change), an index out of range or not an integer, a parameter the helper binds again, a helper with two
returns, a starred display."""

from __future__ import annotations

import pytest

from spmdfix.api import analyse_source
from spmdfix.model import Options

HEAD = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "AXES = ('x', 'y')\nLISTED = ['x', 'y']\nMORE = (*AXES, 'z')\nDATA = 0\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))\n"
    "layer = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P({spec}), out_specs=P({spec}))\n\n\n"
    "def pick(names, i):\n    return names[i]\n\n\n"
    "def again(names, i):\n    i = 1 - i\n    return names[i]\n\n\n"
    "def either(first):\n    if first:\n        return 'x'\n    return 'y'\n\n\n"
    "def run(xs, k):\n    return jax.vmap(layer, spmd_axis_name={spmd})(xs)\n"
)


def _analyse(spmd: str, spec: str = "'x'"):
    return analyse_source(HEAD.format(spmd=spmd, spec=spec), Options())


@pytest.mark.parametrize(
    ("spmd", "spec"),
    [
        ("AXES[0]", "'x'"),
        ("AXES[-2]", "'x'"),
        ("AXES[DATA]", "'x'"),
        ("pick(AXES, 0)", "'x'"),
        ("pick(('y', 'x'), i=1)", "'x'"),
        ("'x'", "AXES[DATA]"),
        ("'x'", "pick(AXES, DATA)"),
    ],
)
def test_an_item_of_a_tuple_or_a_helper_s_return_is_read(spmd: str, spec: str) -> None:
    result = _analyse(spmd, spec)
    assert [f.code for f in result.findings] == ["SPMD001", "SPMD002"]
    assert all("axis `'x'`" in f.message for f in result.findings)
    assert not result.unfollowed


def test_an_item_naming_another_axis_collides_with_nothing() -> None:
    result = _analyse("pick(AXES, 1)")
    assert not result.findings and not result.unfollowed


@pytest.mark.parametrize(
    "spmd",
    [
        "LISTED[0]",  # a list may change (`LISTED.reverse()` anywhere)
        "AXES[2]",
        "AXES[k]",
        "AXES[0:1]",
        "MORE[0]",
        "again(AXES, 1)",  # the helper binds `i` again
        "either(True)",
        "pick(AXES)",  # the call cannot be bound
    ],
)
def test_what_may_hold_another_value_stays_a_record(spmd: str) -> None:
    result = _analyse(spmd)
    assert not result.findings
    assert result.unfollowed and "spmd_axis_name" in result.unfollowed[0].what
