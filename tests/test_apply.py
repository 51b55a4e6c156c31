"""Fix edits built on snippets (`codemods._apply.ModuleEditor`) equal the edits built on the whole module.

`ModuleEditor` parses with libcst only the smallest statement (or compound statement header) holding each
edit; these tests pin that the edits it returns are byte for byte the ones a whole-module parse gives
(`edits_for` on `parse(source)`, the former way), on layouts where a snippet could differ: CRLF and CR line
endings, tabs, comments inside the edited statement, a coding declaration, non-ASCII text before the edit,
one-line compound statements, `;`, `elif`, decorators, multi-line continuations, and several fixes in one file.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import libcst as cst
import pytest

from spmdfix.api import Options, check_source, fix_edits_for, fix_source
from spmdfix.codemods._apply import FixNotBuilt, ModuleEditor, edits_for, parse
from spmdfix.codemods._snippets import snippets_for
from spmdfix.model import EditKind, NodeEdit, Span, Transform
from spmdfix.positions import LineIndex, apply_edits

MODULE = '''\
# -*- coding: latin-1 -*-
"""Module docstring: größe."""
import jax

AXES = ('x',    # the data axis
        'y')


class Model:
    @jax.jit
    @partial(jax.vmap, spmd_axis_name='x')  # größe
    def f(self, a):
        if a: b = P('x')
        elif a > 1:
            c = P('x', None)
        else:
            c = f(P('x'),
                  'z')  # continuation, nested
        d = 1; e = P('x')
        return lambda q: q


def g():
    with mesh_of('x'):
        pass
    for i in range(P('x')):
        pass
    try:
        pass
    except E(P('x')):
        pass
'''


def _nth(source: str, text: str, n: int) -> Span:
    at = -1
    for _ in range(n + 1):
        at = source.index(text, at + 1)
    return Span(at, at + len(text))


def _node_edits(source: str) -> list[NodeEdit]:
    """One edit of each kind and place the transforms use, located by text in `source`."""
    edits = [NodeEdit(_nth(source, "'x'", n), EditKind.REPLACE, "None") for n in range(1, 9)]
    edits.append(NodeEdit(Span(source.index("('x',"), source.index("'y')") + 4), EditKind.INSERT, "'batch'", 0))
    name = source.index("def f") + len("def ")
    edits.append(NodeEdit(Span(name, name + 1), EditKind.PARAM, "batch"))  # a def's "param" edits name its name
    lam = source.index("lambda q: q")
    edits.append(NodeEdit(Span(lam, lam + len("lambda q: q")), EditKind.PARAM, "batch"))
    return edits


VARIANTS = {
    "lf": lambda s: s,
    "crlf": lambda s: s.replace("\n", "\r\n"),
    "cr": lambda s: s.replace("\n", "\r"),
    "tabs": lambda s: "\n".join(
        "\t" * ((len(line) - len(line.lstrip(" "))) // 4) + line.lstrip(" ") if line.startswith("    ") else line
        for line in s.split("\n")
    ),
    "nested": lambda s: "if True:\n" + "".join("    " + line if line.strip() else line for line in s.splitlines(True)),
}


def _whole_module(source: str, node_edits: list[NodeEdit]):
    return edits_for(parse(source), LineIndex(source), node_edits)


def _outcome(build, node_edits: list[NodeEdit]):
    """The edits, or the message of the `FixNotBuilt` raised instead."""
    try:
        return build(node_edits)
    except FixNotBuilt as err:
        return str(err)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_edit_equals_the_whole_module_edit(variant: str) -> None:
    source = VARIANTS[variant](MODULE)
    ast.parse(source)
    editor = ModuleEditor(source)
    outcomes = []
    for edit in _node_edits(source):
        outcome = _outcome(editor.edits, [edit])
        assert outcome == _outcome(lambda e: _whole_module(source, e), [edit]), edit
        outcomes.append(outcome)
    # (lone-CR line endings too: libcst positions them as `ast` does, and only drops a module's last CR when
    # it prints it, which `edits_for` allows since breaker20; no fix was built there before)
    assert all(isinstance(o, tuple) for o in outcomes), outcomes
    assert None not in editor._parsed, "every edit was built on a snippet, never on the whole module"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_one_fix_editing_many_statements(variant: str) -> None:
    source = VARIANTS[variant](MODULE)
    edits = _node_edits(source)
    built = ModuleEditor(source).edits(edits)
    assert built == _whole_module(source, edits)
    new = apply_edits(source, built)
    ast.parse(new)
    # Bytes outside the edited nodes (and a def's parameter list) are the same.
    def_f = source.index("def f")
    params = Span(source.index("(", def_f), source.index(")", def_f) + 1)
    for edit in built:
        assert any(e.span.contains(edit.span) for e in edits) or params.contains(edit.span), edit


def test_snippets_are_statements_headers_and_whole_statements() -> None:
    source = MODULE
    tree, lines = ast.parse(source), LineIndex(source)

    def first(span: Span) -> str:
        chain = snippets_for(tree, lines, span)
        return chain[0].text(source)

    assert first(_nth(source, "'x'", 5)) == "pass\ne = P('x')\n"  # after `;`: the statement alone
    assert first(_nth(source, "'x'", 4)) == "pass\nc = f(P('x'),\n                  'z')\n"  # continuation kept
    assert first(_nth(source, "'x'", 1)) == (  # a decorator: the header, its body replaced by `pass`
        "if 1:\n    @jax.jit\n    @partial(jax.vmap, spmd_axis_name='x')  # größe\n    def f(self, a):\n        pass\n"
    )
    assert first(_nth(source, "'x'", 2)) == "pass\nb = P('x')\n"  # the body of a one-line `if`
    assert first(_nth(source, "'x'", 3)) == "pass\nc = P('x', None)\n"
    elif_test = _nth(source, "a > 1", 0)
    assert first(elif_test) == "if 1:\n        if 1: pass\n        elif a > 1:\n            pass\n"
    assert first(_nth(source, "'x'", 6)) == "if 1:\n    with mesh_of('x'):\n        pass\n"
    assert first(_nth(source, "'x'", 7)) == "if 1:\n    for i in range(P('x')):\n        pass\n"
    # An `except` clause's header: the whole `try` statement.
    assert first(_nth(source, "'x'", 8)).startswith("if 1:\n    try:\n")
    # A span in no statement (the module's end): only the whole module holds it.
    assert snippets_for(tree, lines, Span(len(source), len(source))) == []


def test_a_span_matching_no_node_is_refused_after_the_whole_module() -> None:
    source = MODULE
    editor = ModuleEditor(source)
    with pytest.raises(FixNotBuilt, match="no node at offsets"):
        editor.edits([NodeEdit(Span(source.index("'x'") + 1, source.index("'x'") + 2), EditKind.REPLACE, "None")])
    assert None in editor._parsed  # every snippet was tried, then the module


def test_a_source_ast_cannot_parse_raises_libcst_error() -> None:
    source = MODULE + "def broken(:\n"
    with pytest.raises(cst.ParserSyntaxError):
        ModuleEditor(source).edits([NodeEdit(_nth(source, "'x'", 4), EditKind.REPLACE, "None")])


def test_an_edit_whose_output_does_not_parse_is_refused() -> None:
    source = MODULE
    target = source.index("b = P")  # an assignment target replaced by a literal: `1 = P('x')`
    with pytest.raises(FixNotBuilt, match="the edited code does not parse"):
        ModuleEditor(source).edits([NodeEdit(Span(target, target + 1), EditKind.REPLACE, "1")])


COLLISIONS = '''\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def scale_shift(v):
    return v * 2.0 + 1.0


def layer(x):
    return jax.shard_map(scale_shift, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)  # one


if True:
    def other(x):
        return jax.shard_map(scale_shift, mesh=mesh,
                             in_specs=P('x'),  # two
                             out_specs=P('x'))(x)


def main(xs):
    return jax.vmap(layer, spmd_axis_name='x')(xs), jax.vmap(other, spmd_axis_name='x')(xs)
'''


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_several_fixes_in_one_file(newline: str) -> None:
    source = COLLISIONS.replace("\n", newline)
    result = fix_source(source, Options(strategy=Transform.STRIP))
    expected = source.replace("P('x'))(x)", "P(None))(x)").replace("in_specs=P('x')", "in_specs=P(None)")
    assert result.source == expected
    assert len(result.applied) >= 2 and not result.remaining and not result.errors
    # The same edits as on the whole module, fix by fix.
    fixes = [x for f in check_source(source, Options(strategy=Transform.STRIP)) for x in f.fixes]
    for key, built in fix_edits_for(source, fixes).items():
        fix = next(x for x in fixes if x.key == key)
        assert built == _whole_module(source, list(fix.node_edits)), key


GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize("variant", ["lf", "nested"])
def test_random_expressions_of_golden_inputs(variant: str) -> None:
    """Half the golden inputs, a sample of their expressions (seeded): replacing one, or inserting into a call
    or display, gives on snippets exactly what it gives on the whole module (edits, or the same refusal)."""
    rng = random.Random(variant)
    for path in sorted(GOLDEN.glob("*/*/input.py"))[::2]:
        source = VARIANTS[variant](path.read_text(encoding="utf-8"))
        tree, lines = ast.parse(source), LineIndex(source)
        nodes = [n for n in ast.walk(tree) if isinstance(n, ast.expr)]
        editor, whole = ModuleEditor(source, tree), parse(source)
        for node in rng.sample(nodes, min(4, len(nodes))):
            span = lines.span_of_ast(node)
            if isinstance(node, (ast.Call, ast.Tuple, ast.List)):
                edit = NodeEdit(span, EditKind.INSERT, "'batch'", rng.choice([0, -1]))
            else:
                edit = NodeEdit(span, EditKind.REPLACE, "None")
            expected = _outcome(lambda e: edits_for(whole, lines, e), [edit])
            assert _outcome(editor.edits, [edit]) == expected, (path, edit)
