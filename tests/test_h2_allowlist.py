"""Hazard H2's allowlist (`analysis.h2_calls`, data `analysis.h2_allowlist`): rename, add-axis and strip, which keep
the spmd vmap, are SAFE under `check_vma=True` only when every call the read shard_map body makes is measured to
run after them (safety/measurements/h2_call_allowlist.py). Before, a denylist (`jaxapi.INNER_BATCHING_NAMES`)
decided, and a body applying `jax.lax.map(lambda r: r * scale, b)` got a SAFE rename whose program raised
`Primitive mul requires varying manual axes to match` (golden/refuse/rename_body_lax_map_constant_product)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spmdfix import jaxapi
from spmdfix.analysis import h2_allowlist
from spmdfix.analysis.h2_calls import KINDS, allowed
from spmdfix.api import check_source
from spmdfix.model import Applicability, Transform

ROOT = Path(__file__).resolve().parents[1]
HEAD = (
    "import einops\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n"
    "from jax.sharding import AxisType, PartitionSpec as P\n\n"
    "MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
    "@jnp.vectorize\ndef vec(t):\n    return t * 2.0\n\n\n"
    "def body(b):\n    scale = jnp.linspace(0.5, 1.5, 8)\n    return {body}\n\n\n"
    "def block(v):\n    return jax.shard_map(body, mesh=MESH, in_specs=P('x'), out_specs=P('x'){check})(v)\n\n\n"
    "def main():\n    xs = jnp.ones((8, 4, 8))\n    return jax.vmap(block, spmd_axis_name='x')(xs)\n"
)
# (body, the call the reason names) measured to fail or not measured
OFF = {
    "lax.map of a product": ("lax.map(lambda r: r * scale, b)", "lax.map"),
    "unary, measured to fail": ("jnp.diagonal(b)", "jnp.diagonal"),
    "stack beside a constant": ("jnp.stack([b, b * 0.0 + scale])", "jnp.stack"),
    "decorator of a reached def": ("vec(b)", "jnp.vectorize"),
    "unknown library": ("einops.rearrange(b, 'a b -> a b')", "einops.rearrange"),
    "method not of an array": ("b.frobnicate()", "b.frobnicate"),
    # a library function read from a container: the walk holds no function of the project there (a probe of the
    # merged tree: rename SAFE, the renamed program raised `pvary is a invariant->variant collective`)
    "item of a dict": ('{"interp": jnp.interp}["interp"](b, scale, scale)', '{"interp": jnp.interp}["interp"]'),
    # a callee bound by a walrus: the call runs what it binds (breaker15 h16: rename SAFE, the renamed program raised
    # `pvary is a invariant->variant collective`)
    "walrus callee": ("(f := jnp.interp)(b, scale, scale)", "f := jnp.interp"),
    # either branch of a conditional callee may run (breaker15 h28), and a `getattr` whose name is not a literal
    # is no function the walk reads (breaker15 h23): both kept rename SAFE, the renamed programs raised `pvary`
    "conditional callee": ("(jnp.interp if True else jnp.sin)(b, scale, scale)", "jnp.interp if True else jnp.sin"),
    "getattr of a computed name": ("getattr(jnp, 'in' + 'terp')(b, scale, scale)", "getattr(jnp, 'in' + 'terp')"),
}
ON = {
    "unary and product": "jnp.tanh(b) * scale",
    "reduction, method, builtin": "abs(b - jnp.mean(b, axis=-1, keepdims=True)) + b.sum()",
    "psum over the block's axis": "lax.psum(b, 'x') * 2.0",
    "cond on a literal": "lax.cond(True, jnp.sin, jnp.cos, b)",
}


def _fixes(source: str) -> dict[Transform, tuple[Applicability, str]]:
    found = [f for f in check_source(source) if f.code in ("SPMD001", "SPMD002")]
    assert found, "the collision is found"
    return {fix.id.transform: (fix.applicability, fix.reason) for f in found for fix in f.fixes}


@pytest.mark.parametrize("name", sorted(OFF))
def test_a_body_call_off_the_allowlist_makes_rename_and_add_axis_unsafe(name: str) -> None:
    body, callee = OFF[name]
    fixes = _fixes(HEAD.format(body=body, check=""))
    for transform in (Transform.RENAME, Transform.ADD_AXIS):
        applicability, reason = fixes[transform]
        assert applicability is not Applicability.SAFE, (transform, reason)
        assert f"`{callee}`" in reason and "allowlist" in reason, reason


@pytest.mark.parametrize("name", sorted(ON))
def test_a_body_of_allowlisted_calls_keeps_rename_safe(name: str) -> None:
    fixes = _fixes(HEAD.format(body=ON[name], check=""))
    applicability, reason = fixes[Transform.RENAME]
    assert applicability is Applicability.SAFE, reason


def test_check_vma_false_is_no_hazard() -> None:
    fixes = _fixes(HEAD.format(body=OFF["lax.map of a product"][0], check=", check_vma=False"))
    applicability, reason = fixes[Transform.RENAME]
    assert "allowlist" not in reason, reason


def test_the_data_is_measured_for_every_kind_and_refuses_the_old_denylist() -> None:
    """The data names the JAX it was measured with and each fix kind; every call breaker13 found failing
    (`jaxapi.INNER_BATCHING_NAMES`, measured with traced predicates) is off rename's and add-axis's allowlists."""
    assert h2_allowlist.JAX_VERSION
    assert set(h2_allowlist.ALLOWED) == set(KINDS)
    assert all(len(names) > 500 for names in h2_allowlist.ALLOWED.values())
    for name in jaxapi.INNER_BATCHING_NAMES:
        for kind in ("rename", "add_axis"):
            assert not allowed(name, kind), (name, kind)
    assert allowed("jax.lax.cond:literal", "rename") and allowed("jax.numpy.sin", "strip")


_REMEASURE = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("h2_measure", sys.argv[1])
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)
entries = set(sys.argv[2:])
forms = [f for f in script.candidates() if f.entry in entries]
table = script.verdicts(*script.measure(forms, chunk=8, log=lambda *a: None))
print(json.dumps({entry: dict(table[entry]) for entry in entries}))
"""


@pytest.mark.runtime
def test_the_data_matches_this_jax() -> None:
    """Re-measure a handful of entries with the running JAX, in a process of its own with the 8 virtual devices
    the measurement's meshes need (this process's JAX may have started with one: `.ci/run`): the verdicts equal
    the stored ones."""
    import jax

    assert jax.__version__ == h2_allowlist.JAX_VERSION, "re-run safety/measurements/h2_call_allowlist.py --write"
    entries = ["jax.numpy.sin", "jax.numpy.polyval", "jax.lax.map", "Array.sum", "builtins.abs", "jax.lax.psum", "numpy.prod"]
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8", "JAX_PLATFORMS": "cpu"}
    proc = subprocess.run(
        [sys.executable, "-c", _REMEASURE, str(ROOT / "safety/measurements/h2_call_allowlist.py"), *entries],
        capture_output=True, text=True, env=env, timeout=1200, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    table = json.loads(proc.stdout.strip().splitlines()[-1])
    for entry in sorted(entries):
        for kind in KINDS:
            assert (table[entry][kind] == "ok") == allowed(entry, kind), (entry, kind, table[entry][kind])


def test_each_fix_reads_its_own_allowlist() -> None:
    """`jnp.nanmax` is measured to run after rename and add-axis and to fail after strip (in its `P()` body:
    `ManualAxisType`): the body keeps a safe rename, and its strip's reason names the call."""
    assert allowed("jax.numpy.nanmax", "rename") and not allowed("jax.numpy.nanmax", "strip")
    fixes = _fixes(HEAD.format(body="b - jnp.nanmax(b)", check=""))
    assert fixes[Transform.RENAME][0] is Applicability.SAFE, fixes[Transform.RENAME][1]
    applicability, reason = fixes[Transform.STRIP]
    assert applicability is not Applicability.SAFE and "`jnp.nanmax`" in reason, reason


def test_a_library_function_an_instance_holds_is_judged_not_taken_for_the_projects() -> None:
    """``op` set to `jnp.interp` in `__init__`, called by the method body `self._block` as `self.op(...)`: the walk
    finds the member `op`, a value, not a function of the project it reads; judged as the project's, rename was
    SAFE and the renamed program raised `pvary is a invariant->variant collective` (golden
    refuse/rename_method_body_calls_library_function_held_by_self)."""
    source = (ROOT / "golden/refuse/rename_method_body_calls_library_function_held_by_self/input.py").read_text()
    fixes = _fixes(source)
    for transform in (Transform.RENAME, Transform.ADD_AXIS):
        applicability, reason = fixes[transform]
        assert applicability is not Applicability.SAFE, (transform, reason)
    source = source.replace("self.op = jnp.interp", "self.op = jnp.tanh").replace("self.op(b, XP, FP)", "self.op(b)")
    source = source.replace("jax.vmap(Layer(), spmd_axis_name='x')", "jax.vmap(Layer(), spmd_axis_name='x')")
    fixes = _fixes(source)
    applicability, reason = fixes[Transform.RENAME]
    assert "`self.op` (line" in reason, reason
