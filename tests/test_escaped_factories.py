"""Vmap factories (`partial(jax.vmap, spmd_axis_name=...)`) that go where the analysis does not follow them.

Passed to a library (jax_privacy's `clipping.py` hands one to `optax.microbatching.micro_vmap`) or to another
module's function, held in a container, returned by a function, or bound to a name bound twice: each was
"All checks passed!" while JAX raised on the shard_map the vmap reached. Each is now an SPMD910 record at the
factory's spmd_axis_name (`analysis.escaped_factories`); the uses the analysis follows stay as they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spmdfix import project_graph
from spmdfix.api import analyse_source, new_project_index
from spmdfix.model import Options

HEAD = (
    "import functools\nimport jax\nimport some_lib\nfrom functools import partial\n"
    "from flax import nnx\n"
    "from jax.sharding import PartitionSpec as P\n\n"
    "mesh = jax.make_mesh((2,), ('x',))\n"
    "layer = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))\n\n\n"
)


def _analyse(source: str, tmp_path: Path | None = None, name: str = "script.py"):
    if tmp_path is None:
        return analyse_source(HEAD + source, Options())
    path = tmp_path.resolve() / name
    path.write_text(HEAD + source)
    project_graph.forget_graphs()
    return analyse_source(path.read_text(), Options(), path=path, index=new_project_index(tmp_path.resolve()))


def _records(result) -> list[str]:
    return [u.what for u in result.unfollowed]


@pytest.mark.parametrize(
    ("source", "words"),
    [
        (
            "def run(xs):\n    return some_lib.micro_vmap(layer, vmap_fn=functools.partial(jax.vmap, spmd_axis_name='x'))(xs)\n",
            "a vmap factory is passed to `some_lib.micro_vmap` here",
        ),
        (
            "vec = partial(jax.vmap, spmd_axis_name='x')\n\n\ndef run(xs):\n    return some_lib.apply(vec, layer, xs)\n",
            "a vmap factory is passed to `some_lib.apply` here",
        ),
        (
            "def run(xs):\n    return some_lib.apply(nnx.vmap(in_axes=0, spmd_axis_name='x'), layer, xs)\n",
            "a vmap factory is passed to `some_lib.apply` here",
        ),
        (
            "def helper(vec, xs):\n    return some_lib.apply(vec, layer, xs)\n\n\n"
            "def run(xs):\n    return helper(partial(jax.vmap, spmd_axis_name='x'), xs)\n",
            "a vmap factory is passed to `some_lib.apply` here",
        ),
        (
            "def run(xs):\n    return {'x': partial(jax.vmap, spmd_axis_name='x')}['x'](layer)(xs)\n",
            "a vmap factory is held in a dict display here",
        ),
        (
            "def run(xs, flag):\n    vec = partial(jax.vmap, spmd_axis_name='x')\n    if flag:\n        vec = jax.vmap\n"
            "    return vec(layer)(xs)\n",
            "`vec` is called here, and which vmap factory it is is not known",
        ),
        (
            "def run(xs):\n    (vec, other) = (partial(jax.vmap, spmd_axis_name='x'), 1)\n    return some_lib.apply(vec, layer, xs)\n",
            "a vmap factory is passed to `some_lib.apply` here",
        ),
        (
            "def make():\n    return lambda: partial(jax.vmap, spmd_axis_name='x')\n\n\n"
            "def run(xs):\n    return make()()(layer)(xs)\n",
            "a vmap factory is used here (`lambda: partial(jax.vmap, spmd_axis_name='x')`)",
        ),
    ],
    ids=["library", "name_to_library", "nnx_factory", "parameter_to_library", "dict", "bound_twice", "unpacked", "lambda"],
)
def test_a_factory_going_where_the_analysis_does_not_follow_is_a_record(source: str, words: str) -> None:
    result = _analyse(source)
    assert not result.findings
    records = _records(result)
    assert len(records) == 1 and words in records[0], records


@pytest.mark.parametrize(
    "source",
    [
        "def run(xs):\n    return partial(jax.vmap, spmd_axis_name='x')(layer)(xs)\n",
        "vec = partial(jax.vmap, spmd_axis_name='x')\n\n\ndef run(xs):\n    return vec(layer)(xs)\n",
        "def apply(vec, f, xs):\n    return vec(f)(xs)\n\n\ndef run(xs):\n    return apply(partial(jax.vmap, spmd_axis_name='x'), layer, xs)\n",
        "vec = partial(jax.vmap, spmd_axis_name='x')\n\n\n@vec\ndef run(xs):\n    return layer(xs)\n",
        "def run(xs):\n    (vec, other) = (partial(jax.vmap, spmd_axis_name='x'), 1)\n    return vec(layer)(xs)\n",
    ],
    ids=["applied", "named", "parameter_applied", "decorator", "unpacked"],
)
def test_a_factory_the_analysis_follows_gives_the_finding_and_no_record(source: str) -> None:
    result = _analyse(source)
    assert {f.code for f in result.findings} >= {"SPMD001"}, result.findings
    assert not any("vmap factory" in what for what in _records(result)), _records(result)


@pytest.mark.parametrize(
    "source",
    [
        # a factory of a plain vmap: nothing to follow
        "def run(xs):\n    return some_lib.apply(partial(jax.vmap, spmd_axis_name=None), layer, xs)\n",
        # compared, and made and dropped: handed on to nothing
        "vec = partial(jax.vmap, spmd_axis_name='x')\nassert vec is not None\npartial(jax.vmap, spmd_axis_name='x')\n",
    ],
    ids=["spmd_none", "compared_and_dropped"],
)
def test_a_factory_handed_on_to_nothing_gives_no_record(source: str) -> None:
    result = _analyse(source)
    assert not result.findings and not _records(result), _records(result)


def test_a_factory_passed_to_another_modules_function_is_a_record(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "probe"\n')
    (tmp_path / "util.py").write_text("def apply(vmap_fn, f, xs):\n    return vmap_fn(f)(xs)\n")
    source = "from util import apply\n\n\ndef run(xs):\n    return apply(partial(jax.vmap, spmd_axis_name='x'), layer, xs)\n"
    result = _analyse(source, tmp_path)
    records = _records(result)
    assert len(records) == 1 and "a vmap factory is passed to `util.apply` here" in records[0], records
