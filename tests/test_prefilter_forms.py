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


# (kind, table, alias, program using the name spelled `{it}`): one row a form the analysis recognises.
_SHARD_MAPPED = "def f(v):\n    return jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n"
_SPMD_VMAPPED = "out = jax.vmap(f, spmd_axis_name='x')(xs)\n"
_EXPLICIT = "explicit = jax.make_mesh((2, 4), ('S', 'T'))\n"
FORMS = [
    ("vmap", jaxapi.VMAP_NAMES, "the_vmap", _SHARD_MAPPED + "out = {it}(f, spmd_axis_name='x')(xs)\n"),
    (
        "shard_map", jaxapi.SHARD_MAP_NAMES, "the_shard_map",
        "def f(v):\n    return {it}(lambda b: b * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n" + _SPMD_VMAPPED,
    ),
    (
        "smap", jaxapi.SMAP_NAMES, "the_smap",
        "def f(v):\n    return {it}(lambda b: b * 2, in_axes=0, out_axes=0, axis_name='x')(v)\n" + _SPMD_VMAPPED,
    ),
    (
        "constraint", jaxapi.WITH_SHARDING_CONSTRAINT_NAMES, "the_constraint",
        "def f(v):\n    return {it}(v * 2, P('x'))\n" + _SPMD_VMAPPED,
    ),
    (
        "jit", jaxapi.JIT_NAMES, "the_jit",
        "def f(v):\n    return {it}(lambda u: u * 2, out_shardings=NamedSharding(mesh, P('x')))(v)\n" + _SPMD_VMAPPED,
    ),
    ("partial", jaxapi.PARTIAL_NAMES, "the_partial", _SHARD_MAPPED + "out = {it}(jax.vmap, spmd_axis_name='x')(f)(xs)\n"),
    (
        "placement", jaxapi.DEVICE_PUT_NAMES | jaxapi.RESHARD_NAMES, "the_place",
        _EXPLICIT
        + "def f(v):\n"
        "    return jax.shard_map(lambda b: b * 2, mesh=explicit, in_specs=P('S'), out_specs=P('S'))(v)\n"
        "def main(a):\n"
        "    placed = {it}(a, NamedSharding(explicit, P('S', None)))\n"
        "    return jax.vmap(f)(placed)\n",
    ),
    (
        # a reshard inside a plain vmap's function naming the Explicit axis the batch is placed on (SPMD006; no
        # shard_map: the reshard is the reached word)
        "reshard_inside", jaxapi.RESHARD_NAMES, "the_reshard",
        _EXPLICIT
        + "def f(v):\n"
        "    return {it}(v * 2, NamedSharding(explicit, P('S')))\n"
        "def main(a):\n"
        "    placed = jax.device_put(a, NamedSharding(explicit, P('S', None)))\n"
        "    return jax.vmap(f)(placed)\n",
    ),
    (
        "set_mesh", jaxapi.SET_MESH_NAMES, "the_set_mesh",
        _EXPLICIT
        + "def main(a):\n"
        "    with {it}(explicit):\n"
        "        placed = jax.sharding.reshard(a, P('S', None))\n"
        "        return jax.vmap(jax.shard_map(lambda b: b * 2, in_specs=P('S'), out_specs=P('S')))(placed)\n",
    ),
]


def _programs() -> list[tuple[str, str]]:
    """(id, program) for every row of `FORMS`, every public name of its table and every import spelling."""
    return [
        (f"{kind} {name} via {imports.split()[0]}", imports + template.replace("{it}", it))
        for kind, table, alias, template in FORMS
        for name in _public(table)
        for imports, it in _imported(name, alias)
    ]


PROGRAMS = _programs()


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
    assert set(jaxapi.PREFILTER_REACHED_WORDS) == {
        "shard_map", "smap", "with_sharding_constraint", "jit", "pjit", "reshard",
        # flax's logical constraint and mesh-annotated parameters (SPMD910 records inside an spmd vmap: newuser9)
        "with_logical_constraint", "with_partitioning", "with_logical_partitioning",
    }
    assert jaxapi.SPMD_MIN_POSITIONAL == 6  # jax.vmap(fun, in_axes, out_axes, axis_name, axis_size, spmd_axis_name)
    # A name added to a table reaches the prefilter's words without a second list.
    assert jaxapi.last_names(jaxapi.VMAP_NAMES | {"somelib.batching.spmd_vmap"}) == (
        "spmd_vmap", "vmap", "vmap_with_axes"
    )


# Issue 22: a placement whose sharding the analysis cannot read gives an SPMD910 record when the plain vmap over
# it reaches a shard_map, and such a text names neither `NamedSharding` nor `jax.set_mesh` nor an Explicit mesh:
# the prefilter keeps it all the same. One program a placement name, import spelling and sharding form below,
# with no such word in the header (the shard_map's mesh is built over the devices: an Auto mesh).
_RECORD_HEADER = (
    "import jax\n"
    "import numpy as np\n"
    "from jax.sharding import Mesh, PartitionSpec as P\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))\n"
    "def f(v):\n"
    "    return jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n"
)
# (form, the parameters of `main`, the sharding argument): a sharding passed in (by position and by the
# placement's keyword, `jaxapi.PLACING_SHARDING_PARAM`), a bare spec with no `jax.set_mesh` in sight, and a
# sharding built by `jax.NamedSharding` over a mesh passed in.
_UNREAD_SHARDINGS = [
    ("parameter", "a, sharding", "sharding"),
    ("parameter by keyword", "a, sharding", "{keyword}=sharding"),
    ("bare spec", "a", "P('x', None)"),
    ("mesh parameter", "a, m", "jax.NamedSharding(m, P('x', None))"),
]


def _record_programs() -> list[tuple[str, str]]:
    """(id, program) for every placement name of the tables, import spelling and unread sharding form."""
    programs = []
    for name in _public(jaxapi.DEVICE_PUT_NAMES | jaxapi.RESHARD_NAMES):
        keyword = jaxapi.PLACING_SHARDING_PARAM[name][1]
        for imports, it in _imported(name, "the_place"):
            for form, parameters, sharding in _UNREAD_SHARDINGS:
                body = (
                    f"def main({parameters}):\n"
                    f"    placed = {it}(a, {sharding.format(keyword=keyword)})\n"
                    "    return jax.vmap(f)(placed)\n"
                )
                programs.append((f"{form}: {name} via {imports.split()[0]}", _RECORD_HEADER + imports + body))
    return programs


RECORD_PROGRAMS = _record_programs()


@pytest.mark.parametrize("source", [p for _, p in RECORD_PROGRAMS], ids=[i for i, _ in RECORD_PROGRAMS])
def test_every_placement_whose_sharding_cannot_be_read_gives_a_record_and_is_kept(source: str) -> None:
    analyzer = Analyzer(ModuleModel.build(source, ast.parse(source)))
    assert not plan_findings(analyzer.facts())
    assert len(analyzer.unknown_placements) == 1, "the analysis gives no SPMD910 record: the program does not use the form"
    assert not any(word in source for word in ("NamedSharding(mesh", "set_mesh", "Explicit", "make_mesh"))
    assert may_have_findings(source)
