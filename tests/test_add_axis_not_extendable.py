"""add-axis not offered because the mesh's shape or axis names cannot be extended where the mesh is built: the
refusal says which one and where it is written (newuser11's trial, finding 8: "the mesh's shape or axis names are
not literals" of `jax.make_mesh(MESH_SHAPE, AXES, ...)`, `MESH_SHAPE = (2, 4)` in config.py)."""

from __future__ import annotations

import textwrap

import pytest

from spmdfix.api import check_source
from spmdfix.model import Transform

BODY = """
def layer(x):
    return jax.shard_map(lambda v: v * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def step(xs):
    return jax.vmap(layer, spmd_axis_name='x')(xs)
"""

HEADER = """\
import jax
import numpy as np
from jax.sharding import AxisType, Mesh, PartitionSpec as P
"""


def _add_axis_refusal(mesh_lines: str) -> str:
    source = HEADER + textwrap.dedent(mesh_lines) + BODY
    findings = [f for f in check_source(source) if f.code == "SPMD001"]
    assert findings
    assert findings[0].fix_for(Transform.ADD_AXIS) is None
    reasons = [r.reason for r in findings[0].refusals if r.transform == Transform.ADD_AXIS]
    assert reasons, findings[0].refusals
    return reasons[0]


@pytest.mark.parametrize(
    ("mesh_lines", "said"),
    [
        (
            "SHAPE = (2, 4)\nmesh = jax.make_mesh(SHAPE, ('x', 'y'), axis_types=(AxisType.Auto,) * 2)\n",
            "its shape `SHAPE` (line 5), a name for `(2, 4)` (line 4), not a tuple written at the construction",
        ),
        (
            "SHAPE = (2, 4)\nmesh = Mesh(np.array(jax.devices()).reshape(SHAPE), ('x', 'y'))\n",
            "its devices `np.array(jax.devices()).reshape(SHAPE)` (line 5), not an array reshaped there to literal sizes",
        ),
        (
            "NAMES: tuple = ('x', 'y')\nmesh = Mesh(np.array(jax.devices()).reshape(2, 4), NAMES)\n",
            "its axis names `NAMES` (line 5), neither a tuple written there nor a module constant bound once to one",
        ),
    ],
)
def test_the_refusal_names_what_cannot_be_extended_and_where(mesh_lines: str, said: str) -> None:
    reason = _add_axis_refusal(mesh_lines)
    assert reason.startswith("the mesh cannot be extended where it is built: "), reason
    assert said in reason, reason
