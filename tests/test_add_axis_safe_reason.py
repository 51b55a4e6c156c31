"""The SAFE reason of add-axis says what is true of the mesh's axis types (breaker10 t01, t02).

add-axis is safe on an Auto mesh, and on an Explicit one (`jax.make_mesh`'s default) only when every call of the
vmap is traced under `jax.jit` with its batch dimension placed `None` (docs/safety.md, rows 17-18). The reason
said "a size-1 axis on an Auto mesh partitions nothing" on Explicit meshes too.
"""

from __future__ import annotations

import pathlib

from spmdfix.api import check_source
from spmdfix.model import Applicability

GOLDEN = pathlib.Path(__file__).resolve().parent.parent / "golden" / "add-axis"


def _add_axis_fix(case: str):
    text = (GOLDEN / case / "input.py").read_text()
    fixes = [f for finding in check_source(text) for f in finding.fixes if f.transform.value == "add-axis"]
    assert fixes, f"{case}: no add-axis fix offered"
    return fixes[0]


def test_explicit_mesh_reason_names_the_jitted_unplaced_calls_not_an_auto_mesh():
    fix = _add_axis_fix("make_mesh_explicit")  # jax.make_mesh((2, 4), ('x', 'y')): Explicit axes
    assert fix.applicability is Applicability.SAFE
    assert "Auto mesh" not in fix.reason
    assert "Explicit mesh" in fix.reason and "`jax.jit`" in fix.reason


def test_auto_mesh_reason_is_kept():
    fix = _add_axis_fix("make_mesh_auto_types")  # axis_types=(AxisType.Auto, AxisType.Auto)
    assert fix.applicability is Applicability.SAFE
    assert fix.reason.startswith("a size-1 axis on an Auto mesh partitions nothing")
