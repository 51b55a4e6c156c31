"""`exported_factories._lines_holding`: the lines holding the spmd keyword are numbered as `ast` numbers them,
so that the statement holding a factory is asked (a module with "\\r" line endings was numbered by "\\n" alone:
the statement on line 3 was read as line 2 and passed over)."""

from __future__ import annotations

import ast

import pytest

from spmdfix.analysis.exported_factories import _lines_holding
from spmdfix.analysis.scopes import ModuleIndex


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_lines_are_numbered_as_ast_numbers_them(newline: str) -> None:
    source = newline.join(["import jax", "f = 1", "g = partial(jax.vmap, spmd_axis_name='x')", ""])
    tree = ast.parse(source)
    assert _lines_holding(ModuleIndex(source, tree), "spmd_axis_name") == [tree.body[-1].lineno] == [3]
