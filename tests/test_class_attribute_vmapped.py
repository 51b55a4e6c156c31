"""A shard_map held by a class attribute and given to the spmd vmap itself: `jax.vmap(Layer.fn, ...)`.

`fn = jax.shard_map(...)` in `Layer`'s body. The call `Layer.fn(x)` in a vmapped function was followed
(`Reacher._class_attribute_called`, breaker11 a31), but the same value given as the vmapped callable was not:
"All checks passed!" while JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs`
(safety/trials/newuser13, probe ef3b). A class attribute bound to `staticmethod(jax.shard_map(...))` is read as
the value it wraps (`instances.static_value`: attribute access unwraps a staticmethod), in both forms: silent
before (probe ef3).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spmdfix.api import analyse_source
from spmdfix.model import Applicability, Options

HEAD = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n\n\n"
)
SMAP = "jax.shard_map(lambda b: b + 1.0, mesh=MESH, in_specs=P('data'), out_specs=P('data'))"


def _analyse(tmp_path: Path, held: str, vmapped: str):
    source = f"{HEAD}class Layer:\n    fn = {held}\n\n\ndef run(xs):\n    return jax.vmap({vmapped}, spmd_axis_name='data')(xs)\n"
    path = tmp_path / "layer.py"
    path.write_text(source)
    return analyse_source(source, Options(), path=path)


def test_a_class_attribute_given_to_the_vmap_is_followed(tmp_path: Path) -> None:
    result = _analyse(tmp_path, SMAP, "Layer.fn")
    assert sorted(f.code for f in result.findings) == ["SPMD001", "SPMD002"]
    for finding in result.findings:
        safe = sorted(fix.transform.value for fix in finding.fixes if fix.applicability is Applicability.SAFE)
        assert safe == ["add-axis", "drop-spmd-axis"], safe


def test_the_call_form_reads_the_same(tmp_path: Path) -> None:
    assert sorted(f.code for f in _analyse(tmp_path, SMAP, "lambda x: Layer.fn(x)").findings) == ["SPMD001", "SPMD002"]


@pytest.mark.parametrize("vmapped", ["Layer.fn", "lambda x: Layer.fn(x)"])
def test_a_staticmethod_value_is_followed(tmp_path: Path, vmapped: str) -> None:
    result = _analyse(tmp_path, f"staticmethod({SMAP})", vmapped)
    assert sorted(f.code for f in result.findings) == ["SPMD001", "SPMD002"]
    plain = _analyse(tmp_path, SMAP, vmapped)
    safe = lambda r: sorted(  # noqa: E731 - the safe fixes of every finding
        (f.code, fix.transform.value) for f in r.findings for fix in f.fixes if fix.applicability is Applicability.SAFE
    )
    assert safe(result) == safe(plain)

