"""add-axis on a one-axis mesh over the device list itself: `Mesh(jax.devices(), ('i',))` (issue 23).

Measured (safety/measurements/add_axis_device_list_mesh.py, jax 0.10.2): `Mesh(jax.devices(), ('batch', 'i'))`
raises (a list is 1-D), while `np.array(jax.devices()).reshape(1, -1)` and `[jax.devices()]` with
`('batch', 'i')` keep the device order and the values. add-axis makes the argument 2-D where it is passed, in the
numpy spelling when the module has numpy as `np`, else as a nested list; the mesh's other uses are judged by the
same allowlist as every add-axis.
"""

from __future__ import annotations

import textwrap

import pytest

from spmdfix.api import check_source

BODY = """
def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('i'), out_specs=P('i'))(x)
jax.vmap(layer, spmd_axis_name='i')
"""


def _add_axis(header: str, extra: str = ""):
    text = textwrap.dedent(header) + BODY + textwrap.dedent(extra)
    finding = check_source(text)[0]
    fix = next((f for f in finding.fixes if f.transform.value == "add-axis"), None)
    return text, fix


CASES = {
    "numpy_as_np": (
        """
        import jax
        import numpy as np
        from jax.sharding import Mesh, PartitionSpec as P
        mesh = Mesh(jax.devices(), ('i',))
        """,
        "np.array(jax.devices()).reshape(1, -1)",
    ),
    "without_numpy": (
        """
        import jax
        from jax.sharding import Mesh, PartitionSpec as P
        mesh = Mesh(jax.devices(), ('i',))
        """,
        "[jax.devices()]",
    ),
    "numpy_under_another_name": (
        """
        import jax
        import numpy
        from jax.sharding import Mesh, PartitionSpec as P
        mesh = Mesh(jax.local_devices(), ('i',))
        """,
        "[jax.local_devices()]",
    ),
    "slice_through_a_name": (
        """
        import jax
        import numpy as np
        from jax.sharding import Mesh, PartitionSpec as P
        devs = jax.devices()[:4]
        mesh = Mesh(devs, axis_names=('i',))
        """,
        "np.array(devs).reshape(1, -1)",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_add_axis_makes_the_device_list_two_dimensional_where_it_is_passed(name: str) -> None:
    header, wrapped = CASES[name]
    _, fix = _add_axis(header)
    assert fix is not None and fix.applicability.value == "safe", name
    codes = [e.code for e in fix.node_edits]
    assert wrapped in codes and "'batch'" in codes, (name, codes)


def test_the_mesh_allowlist_still_judges_a_device_list_mesh() -> None:
    header, _ = CASES["numpy_as_np"]
    _, fix = _add_axis(header, "n = mesh.devices.shape[0]\n")
    assert fix is not None and fix.applicability.value == "unsafe"
    assert "`n = mesh.devices.shape[0]` (line" in fix.reason
    _, fix = _add_axis(header, "n = mesh.shape['i']\n")
    assert fix is not None and fix.applicability.value == "safe"


def test_a_device_list_spmdfix_cannot_size_is_still_refused() -> None:
    header = CASES["numpy_as_np"][0].replace("jax.devices()", "jax.devices('cpu')")
    _, fix = _add_axis(header)
    assert fix is None
