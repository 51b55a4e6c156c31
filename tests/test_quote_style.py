"""The string literals a fix writes (add-axis's new axis in the mesh and at spmd_axis_name, rename's axis, the
axis appended to a shard_map's `axis_names`) take the quote of the literal beside them, else the style most of
the module's one-line strings are written in, else double quotes (ruff's formatter and Black): a formatter run
after `spmdfix fix` changes nothing it wrote (newuser6's trial: `'batch'` in a module of `"..."`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from spmdfix.analysis.scopes import ModuleIndex
from spmdfix.api import fix_modules, fix_source
from spmdfix.model import Options, Transform


@pytest.mark.parametrize(
    ("source", "quote"),
    [
        ('x = "a"\n', '"'),
        ("x = 'a'\n", "'"),
        ('"""doc"""\nx = 1\n', '"'),  # a docstring says nothing; no string at all: `"`
        ("'''doc'''\n", '"'),
        ("x = 'a'\ny = 'b'\nz = \"c\"\n", "'"),  # most of them
        ("x = 'a'\nz = \"c\"\n", '"'),  # as many of each
        ("x = f'{a}'\ny = rb'q'\nz = \"\"\n", "'"),  # prefixes skipped; f-strings count
        ("x = f'{a!r:>{w}}' + 'b'\ny = \"c\"\n", "'"),  # an f-string counts once, not its parts
        ("x = ('a'\n     'b')\ny = \"c\"\nz = \"d\"\n", '"'),  # implicit concatenation: one literal
    ],
)
def test_module_quote(source: str, quote: str) -> None:
    assert ModuleIndex(source, ast.parse(source)).quote() == quote


def _literals_by_ast_walk(tree: ast.Module) -> set[int]:
    """A reference for `quotes.string_literals`: `ast.walk`, each f-string's parts left out."""
    inside = {id(n) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for n in ast.walk(node) if n is not node}
    return {
        id(node)
        for node in ast.walk(tree)
        if id(node) not in inside
        and (isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))))
    }


def test_string_literals_are_those_ast_walk_finds() -> None:
    """The walk over the fields holding nodes finds each literal `ast.walk` finds, once, on the golden
    inputs, spmdfix's own modules and texts with annotations, f-strings in f-strings and format specs."""
    from golden import GOLDEN

    from spmdfix.analysis.quotes import string_literals

    texts = [p.read_text() for p in sorted(GOLDEN.rglob("*.py"))]
    texts += [p.read_text() for p in sorted((Path(__file__).parents[1] / "spmdfix").rglob("*.py"))]
    texts += [
        "def f(x: 'T' = b'q') -> \"R\":\n    y: 'U' = f'{x!r:>{w}} {d[\"k\"]}'\n    return y\n",
        "class C('B', metaclass=M['x']):\n    z = [f'{a}' 'b' for a in 'cd' if a != 'e']\n",
        "match v:\n    case {'k': 'v'} | ['a', *_]:\n        pass\n",
    ]
    literals = 0
    for text in texts:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        found = string_literals(tree)
        assert len(found) == len({id(n) for n in found})
        assert {id(n) for n in found} == _literals_by_ast_walk(tree)
        literals += len(found)
    assert literals > 1000


# newuser6's trial project in one module: axis names bound to constants in double quotes
ONE_MODULE = '''\
"""A layer and its batched loss."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

DATA = "data"
MODEL = "model"
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))


def dense(x, w):
    return jax.shard_map(
        lambda x, w: jnp.tanh(x @ w), mesh=MESH, in_specs=(P(DATA, None), P(None, MODEL)), out_specs=P(DATA, MODEL)
    )(x, w)


def batched(w, xs):
    return jax.vmap(lambda x: jnp.mean(dense(x, w) ** 2), spmd_axis_name=DATA)(xs)


batched(jnp.ones((8, 16)), jnp.ones((4, 8, 8)))
'''


def test_add_axis_writes_the_module_s_double_quotes() -> None:
    result = fix_source(ONE_MODULE)
    assert [f.transform for f in result.applied] == [Transform.ADD_AXIS]
    assert '("batch", DATA, MODEL)' in result.source
    assert 'spmd_axis_name="batch"' in result.source
    assert "'batch'" not in result.source


def test_add_axis_keeps_a_single_quoted_module_single_quoted() -> None:
    source = ONE_MODULE.replace('"data"', "'data'").replace('"model"', "'model'")
    result = fix_source(source)
    assert "('batch', DATA, MODEL)" in result.source and "spmd_axis_name='batch'" in result.source


def test_the_literal_beside_decides_over_the_module() -> None:
    """A mesh written with literal names keeps their quote even in a module of double quotes."""
    source = ONE_MODULE.replace("(DATA, MODEL))", "('data', 'model'))")
    result = fix_source(source)
    assert "('batch', 'data', 'model')" in result.source
    assert 'spmd_axis_name="batch"' in result.source  # the vmap's argument is a name: the module's style


def test_rename_writes_the_module_s_quotes() -> None:
    """The spmd_axis_name rename writes is in the vmap's module's style, not in the mesh's names'."""
    source = ONE_MODULE.replace('(DATA, MODEL))', "(DATA, MODEL, 'free'))").replace("reshape(2, 4)", "reshape(2, 2, 2)")
    result = fix_source(source, Options(strategy=Transform.RENAME, unsafe_fixes=True))
    assert [f.transform for f in result.applied] == [Transform.RENAME], result.remaining
    assert 'spmd_axis_name="free"' in result.source


def test_axis_names_display_of_names_takes_the_module_s_quotes() -> None:
    """A partial-manual shard_map whose `axis_names` names constants: the new axis appended in `"`."""
    source = ONE_MODULE.replace("out_specs=P(DATA, MODEL)\n", "out_specs=P(DATA, MODEL), axis_names={DATA, MODEL}\n")
    result = fix_source(source)
    assert [f.transform for f in result.applied] == [Transform.ADD_AXIS], result.remaining
    assert "{DATA, MODEL, \"batch\"}" in result.source.replace(" ,", ",")


def test_a_fix_across_modules_follows_each_module_s_style(tmp_path: Path) -> None:
    """The mesh in a config module of `"`, the vmap in a module of `'`: each literal takes its own module's."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(
        'import jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\nDATA = "data"\nMODEL = "model"\n'
        "MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))\n"
    )
    (pkg / "train.py").write_text(
        "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import PartitionSpec as P\n\n"
        "from pkg import config\n\nNAME = 'loss'\n\n\n"
        "def dense(x, w):\n"
        "    return jax.shard_map(lambda x, w: x @ w, mesh=config.MESH, in_specs=(P(config.DATA, None), P(None, config.MODEL)),"
        " out_specs=P(config.DATA, config.MODEL))(x, w)\n\n\n"
        "def batched(w, xs):\n"
        "    return jax.vmap(lambda x: dense(x, w), spmd_axis_name=config.DATA)(xs)\n"
    )
    result = fix_modules([pkg / "train.py"], Options(), tmp_path)
    assert not result.errors
    texts = {Path(k).name: v for k, v in result.texts.items()}
    assert '("batch", DATA, MODEL)' in texts["config.py"]
    assert "spmd_axis_name='batch'" in texts["train.py"]
