"""rename writes the constant that holds the new axis name where the project spells axes by constants
(`spmd_axis_name=DATA` -> `spmd_axis_name=MODEL`; newuser11's trial, finding 8), and the literal wherever that
constant is not proven the one value there (analysis/axis_constants.py)."""

from __future__ import annotations

import pytest

from spmdfix.api import check_source
from spmdfix.model import Transform

HEADER = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
{constants}
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, 'model'))


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(DATA), out_specs=P(DATA))(x)


def main():
{local}    xs = jnp.ones((8, 16))
    return jax.vmap(layer, spmd_axis_name={spmd})(xs)
"""


def _rename_code(constants: str, spmd: str = "DATA", local: str = "") -> str:
    source = HEADER.format(constants=constants, spmd=spmd, local=local)
    finding = next(f for f in check_source(source) if f.code == "SPMD001")
    fix = finding.fix_for(Transform.RENAME)
    assert fix is not None, finding.refusals
    return fix.node_edits[0].code


def test_the_constant_holding_the_new_axis_is_written() -> None:
    assert _rename_code("DATA = 'data'\nMODEL = 'model'\n") == "MODEL"


@pytest.mark.parametrize(
    ("constants", "spmd", "local"),
    [
        ("DATA = 'data'\nMODEL = 'model'\nALSO = 'model'\n", "DATA", ""),  # two constants hold it: which one?
        ("DATA = 'data'\nMODEL = 'model'\n", "DATA", "    MODEL = 'other'\n"),  # shadowed where the vmap is
        ("DATA = 'data'\nMODEL = 'model'\nMODEL = 'model'\n", "DATA", ""),  # bound twice
        ("DATA = 'data'\nMODEL = 'model'\n", "'data'", ""),  # the site writes a literal: it keeps to literals
    ],
)
def test_the_literal_is_written_where_the_constant_is_not_proven(constants: str, spmd: str, local: str) -> None:
    assert _rename_code(constants, spmd, local) in ('"model"', "'model'")
