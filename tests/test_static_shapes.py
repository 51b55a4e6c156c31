"""`StaticShapes.shape` reads a shape exactly or not at all: for each spelling, the shape it reads (when it reads
one) is the shape numpy and jax.numpy give when the statements run. A wrong shape feeds the batch a rename's
divisibility is judged by (a SAFE rename then raised `not evenly divisible`: golden
add-axis/auto_shape_list_changed_through_alias, auto_numpy_matlib_matrix_batch), so a spelling not read exactly
must give None. The runs of the statements here are the measurement: no shape below is written by hand.
"""

from __future__ import annotations

import ast
import warnings

import numpy as np
import pytest

from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.shapes import StaticShapes

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

# (statements binding `x`, whether the shape must be read: True where the reading is exact and expected)
SPELLINGS = [
    ("x = np.array([[0.0, 1.0, 2.0, 3.0]] * 6)", True),  # list repetition: (6, 4), read (1, 4) before
    ("row = [1.0] * 8\nx = np.array([row] * 6)", True),
    ("x = np.array(4 * [1.0, 2.0])", True),
    ("x = jnp.asarray((1.0, 2.0) * 4)", True),
    ("n = 6\nx = np.array([[1.0] * 8] * n)", True),
    ("x = np.array(3 * [[1.0, 2.0]] * 2)", True),
    ("x = np.array([1.0, 2.0] + [3.0])", True),
    ("x = np.abs([1.0, 2.0] * 2)", True),
    ("x = np.array([[1.0, 2.0]] * 3, ndmin=2)", True),
    ("x = np.array([1.0] * -2)", False),
    ("x = np.array([1.0, 2.0] + [[3.0]])", False),
    ("x = jnp.arange(-3)", True),  # empty, not negative
    ("x = jnp.arange(6, 2)", True),
    ("x = jax.device_put([1.0, 2.0])", False),  # a list of placed numbers, no array
    ("import numpy.matlib\nx = numpy.matlib.ones(8)", False),  # a (1, 8) matrix
    ("x = np.ones(48).reshape(-1, 8)", True),
    ("shape = [8, 8]\nalias = shape\nalias[0] = 6\nx = jax.random.normal(jax.random.key(0), shape)", False),
    ("shape = [8, 8]\nholder = [shape]\nholder[0][0] = 6\nx = np.ones(shape)", False),
    ("shape = [8, 8]\nfor s in [shape]:\n    s[0] = 6\nx = np.ones(shape)", False),
    ("shape = [8, 8]\nd = {'s': shape}\nd['s'][0] = 6\nx = np.ones(shape)", False),
    ("shape = [8, 8]\nother = shape or [1]\nother[0] = 6\nx = np.ones(shape)", False),
    ("rows = [[1.0, 2.0], [3.0, 4.0]]\nfor r in rows:\n    r.append(0.0)\nx = np.array(rows)", False),
    ("rows = [[1.0, 2.0], [3.0, 4.0]]\nrows[0].append(0.0)\nrows[1].append(0.0)\nx = np.array(rows)", False),
    ("shape = [6, 8]\nn = shape[0] * len(shape)\nx = np.ones(shape)", True),  # reads of a flat list
    ("B, D = 6, 8\nx = np.ones((B, D))", True),
    ("x = np.array([[1.0] * 8 for _ in range(6)])", False),
    ("x = jnp.tile(jnp.ones(8), (6, 1))", False),
    ("x = np.stack([np.ones(8)] * 6)", False),
    ("x = np.concatenate([np.ones((2, 8)), np.ones((4, 8))])", False),
    ("x = np.ones((8, 6)).T", False),
    ("x = np.ones(8)[None]", False),
    ("x = jnp.broadcast_to(jnp.ones(8), (6, 8))", False),
    ("x = jnp.ones((6, 8)).astype(jnp.float32)", True),
    ("x = np.repeat(np.ones((1, 8)), 6, axis=0)", False),
    ("o = np.ones((6, 8))\nx = np.ones_like(o)", False),
    ("x = np.ones(8) + np.ones((6, 8))", False),
    ("x = (np.ones(8),) * 6", False),
    ("x = np.array([np.ones(8)] * 6)", False),
]


def _real(statements: str) -> tuple[int, ...]:
    env = {"np": np, "jnp": jnp, "jax": jax}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(statements, env)
    return tuple(np.shape(env["x"]))


def _read(statements: str) -> tuple[int, ...] | None:
    source = f"import numpy as np\nimport jax\nimport jax.numpy as jnp\n{statements}\ny = x\n"
    tree = ast.parse(source)
    model = ModuleModel.build(source, tree)
    use = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "x" and isinstance(n.ctx, ast.Load)][-1]
    return StaticShapes(model).shape(use, model.ix.scope_at(use))


@pytest.mark.parametrize("statements, read", SPELLINGS, ids=[s.replace("\n", "; ") for s, _ in SPELLINGS])
def test_a_shape_read_is_the_shape_the_program_builds(statements: str, read: bool) -> None:
    got = _read(statements)
    if read:
        assert got == _real(statements)
    else:
        assert got is None, f"read {got}, runs as {_real(statements)}"
