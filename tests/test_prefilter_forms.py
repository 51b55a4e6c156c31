"""The prefilter keeps every form the analysis recognises, generated from the one table both read (`jaxapi`).

For each qualified name of a vmap, a shard_map API, a sharding constraint, `functools.partial` and an input
placement that `spmdfix.jaxapi` lists, and each import spelling of it, a small program using that name is
built; the analysis (run without the prefilter) must find something in it, and the prefilter must keep it.
A name added to a table is then tested here without a new test: the prefilter's words come from the same
table (`jaxapi.PREFILTER_*`), so soundness for a new name holds by construction and this proves it.
"""

from __future__ import annotations

import ast

import pytest

from spmdfix import jaxapi
from spmdfix.analysis.analyzer import Analyzer
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.plan import plan_findings
from spmdfix.prefilter import may_have_findings

HEADER = (
    "import functools\n"
    "import jax\n"
    "import numpy as np\n"
    "from jax.sharding import Mesh, NamedSharding, PartitionSpec as P\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))\n"
    "xs = np.zeros((4, 8))\n"
)


def _imported(qualified: str, alias: str) -> list[tuple[str, str]]:
    """(import lines, expression) spellings that make `alias`-like code name `qualified`: `from M import N as
    alias`, and `import M as m` then `m.N`."""
    module, _, name = qualified.rpartition(".")
    return [
        (f"from {module} import {name} as {alias}\n", alias),
        (f"import {module} as {alias}_module\n", f"{alias}_module.{name}"),
    ]


def _public(names: frozenset[str]) -> list[str]:
    # (the private `jax._src` spellings resolve the same way; one of each public module is enough here, and the
    # table-derived words cover the private ones as well: their last part is the same)
    return sorted(n for n in names if "._src." not in n)


def _vmap_programs() -> list[tuple[str, str]]:
    out = []
    for name in _public(jaxapi.VMAP_NAMES):
        for imports, vmap in _imported(name, "the_vmap"):
            body = (
                "def f(v):\n"
                "    return jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n"
                f"out = {vmap}(f, spmd_axis_name='x')(xs)\n"
            )
            out.append((f"vmap {name} via {imports.split()[0]}", imports + body))
    return out


def _shard_map_programs() -> list[tuple[str, str]]:
    out = []
    for name in _public(jaxapi.SHARD_MAP_NAMES):
        for imports, shard_map in _imported(name, "the_shard_map"):
            body = (
                "def f(v):\n"
                f"    return {shard_map}(lambda b: b * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n"
                "out = jax.vmap(f, spmd_axis_name='x')(xs)\n"
            )
            out.append((f"shard_map {name} via {imports.split()[0]}", imports + body))
    for name in _public(jaxapi.SMAP_NAMES):
        for imports, smap in _imported(name, "the_smap"):
            body = (
                "def f(v):\n"
                f"    return {smap}(lambda b: b * 2, in_axes=0, out_axes=0, axis_name='x')(v)\n"
                "out = jax.vmap(f, spmd_axis_name='x')(xs)\n"
            )
            out.append((f"smap {name} via {imports.split()[0]}", imports + body))
    for name in _public(jaxapi.WITH_SHARDING_CONSTRAINT_NAMES):
        for imports, constraint in _imported(name, "the_constraint"):
            body = "def f(v):\n" f"    return {constraint}(v * 2, P('x'))\n" "out = jax.vmap(f, spmd_axis_name='x')(xs)\n"
            out.append((f"constraint {name} via {imports.split()[0]}", imports + body))
    for name in _public(jaxapi.JIT_NAMES):
        for imports, jit in _imported(name, "the_jit"):
            body = (
                "def f(v):\n"
                f"    return {jit}(lambda u: u * 2, out_shardings=NamedSharding(mesh, P('x')))(v)\n"
                "out = jax.vmap(f, spmd_axis_name='x')(xs)\n"
            )
            out.append((f"jit {name} via {imports.split()[0]}", imports + body))
    return out


def _partial_programs() -> list[tuple[str, str]]:
    out = []
    for name in _public(jaxapi.PARTIAL_NAMES):
        for imports, partial in _imported(name, "the_partial"):
            body = (
                "def f(v):\n"
                "    return jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n"
                f"out = {partial}(jax.vmap, spmd_axis_name='x')(f)(xs)\n"
            )
            out.append((f"partial {name} via {imports.split()[0]}", imports + body))
    return out


def _placement_programs() -> list[tuple[str, str]]:
    out = []
    for name in _public(jaxapi.DEVICE_PUT_NAMES | jaxapi.RESHARD_NAMES):
        for imports, place in _imported(name, "the_place"):
            body = (
                "explicit = jax.make_mesh((2, 4), ('S', 'T'))\n"
                "def f(v):\n"
                "    return jax.shard_map(lambda b: b * 2, mesh=explicit, in_specs=P('S'), out_specs=P('S'))(v)\n"
                "def main(a):\n"
                f"    placed = {place}(a, NamedSharding(explicit, P('S', None)))\n"
                "    return jax.vmap(f)(placed)\n"
            )
            out.append((f"placement {name} via {imports.split()[0]}", imports + body))
    for name in _public(jaxapi.SET_MESH_NAMES):
        for imports, set_mesh in _imported(name, "the_set_mesh"):
            body = (
                "explicit = jax.make_mesh((2, 4), ('S', 'T'))\n"
                "def main(a):\n"
                f"    with {set_mesh}(explicit):\n"
                "        placed = jax.sharding.reshard(a, P('S', None))\n"
                "        return jax.vmap(jax.shard_map(lambda b: b * 2, in_specs=P('S'), out_specs=P('S')))(placed)\n"
            )
            out.append((f"set_mesh {name} via {imports.split()[0]}", imports + body))
    return out


PROGRAMS = _vmap_programs() + _shard_map_programs() + _partial_programs() + _placement_programs()


def _findings_without_prefilter(source: str):
    return plan_findings(Analyzer(ModuleModel.build(source, ast.parse(source))).facts())


@pytest.mark.parametrize("source", [p for _, p in PROGRAMS], ids=[i for i, _ in PROGRAMS])
def test_every_form_of_the_table_is_found_by_the_analysis_and_kept_by_the_prefilter(source: str) -> None:
    text = HEADER + source
    assert _findings_without_prefilter(text), "the analysis finds nothing: the program does not use the form"
    assert may_have_findings(text)


def test_the_table_covers_every_name_the_prefilter_words_come_from() -> None:
    """Each table feeding the prefilter has a program here per public name (nothing listed goes untested)."""
    tested = {i.split()[1] for i, _ in PROGRAMS}
    tables = (
        jaxapi.VMAP_NAMES | jaxapi.SHARD_MAP_NAMES | jaxapi.SMAP_NAMES | jaxapi.WITH_SHARDING_CONSTRAINT_NAMES
        | jaxapi.JIT_NAMES | jaxapi.PARTIAL_NAMES | jaxapi.DEVICE_PUT_NAMES | jaxapi.RESHARD_NAMES | jaxapi.SET_MESH_NAMES
    )
    assert set(_public(tables)) == tested


def test_the_prefilter_words_are_the_last_parts_of_the_table_names() -> None:
    assert "vmap" in jaxapi.PREFILTER_VMAP_WORDS and "vmap_with_axes" in jaxapi.PREFILTER_VMAP_WORDS
    assert set(jaxapi.PREFILTER_REACHED_WORDS) == {"shard_map", "smap", "with_sharding_constraint", "jit", "pjit"}
    assert jaxapi.SPMD_MIN_POSITIONAL == 6  # jax.vmap(fun, in_axes, out_axes, axis_name, axis_size, spmd_axis_name)
    # A name added to a table reaches the prefilter's words without a second list.
    assert jaxapi.last_names(jaxapi.VMAP_NAMES | {"somelib.batching.spmd_vmap"}) == (
        "spmd_vmap", "vmap", "vmap_with_axes"
    )
