"""The textual prefilter never drops a file that has a finding (soundness), and does drop plain files."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from golden import GOLDEN, cases
from spmdfix.analysis.analyzer import Analyzer
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.files import decode
from spmdfix.plan import plan_findings
from spmdfix.prefilter import may_have_findings

CASES = cases()


def _findings_without_prefilter(source: str):
    return plan_findings(Analyzer(ModuleModel.build(source, ast.parse(source))).facts())


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_prefilter_keeps_every_file_with_a_finding(case) -> None:
    source = decode(case.input, case.input.read_bytes()).text
    if _findings_without_prefilter(source):
        assert may_have_findings(source)


def test_golden_corpus_has_findings_to_check() -> None:
    # Guard against the soundness test above passing vacuously.
    with_findings = [c for c in CASES if _findings_without_prefilter(decode(c.input, c.input.read_bytes()).text)]
    assert len(with_findings) >= 20


POSITIONAL = """
from jax import vmap as v
from jax.experimental.shard_map import shard_map as sm
from jax.sharding import Mesh, PartitionSpec as P
import numpy as np, jax
mesh = Mesh(np.array(jax.devices()), ('i',))
def f(x):
    return sm(lambda b: b, mesh, P('i'), P('i'))(x)
v(f, 0, 0, None, None, 'i')
"""


def test_positional_spmd_axis_name_passes_the_prefilter() -> None:
    assert "spmd_axis_name" not in POSITIONAL
    assert may_have_findings(POSITIONAL)
    assert _findings_without_prefilter(POSITIONAL)


def test_a_module_whose_only_shard_map_is_a_jax_smap_passes_the_prefilter() -> None:
    text = (
        "import jax\n"
        "def f(v):\n    return jax.smap(lambda b: b, in_axes=0, out_axes=0, axis_name='x')(v)\n"
        "jax.vmap(f, spmd_axis_name='x')\n"
    )
    assert "shard_map" not in text and may_have_findings(text)
    assert _findings_without_prefilter(text)


def test_prefilter_drops_files_that_cannot_hold_a_finding() -> None:
    # An spmd vmap site with no shard_map in reach is kept (a wrapper's SPMD910 record: `WRAPPERS` below); a
    # plain vmap there is not.
    assert not may_have_findings("import jax\njax.vmap(f, in_axes=1)(x)\n")
    assert not may_have_findings("from jax import shard_map\n")
    assert may_have_findings("jax.vmap(f, spmd_axis_name='x')\njax.lax.with_sharding_constraint(x, s)\n")
    # JAX's own internals mention vmap and shard_map without any spmd vmap site: not parsed.
    assert not may_have_findings("from jax import vmap, shard_map\nvmap(f, in_axes=(0, None))(x)\n")


def test_positional_spmd_axis_name_through_aliases_passes_the_prefilter() -> None:
    header = "from jax.experimental.shard_map import shard_map\n"
    for text in (
        "import jax\nv = jax.vmap\nw = v\nw(f, 0, 0, None, None, 'x')\n",
        "from jax import vmap as vm\nvm(f, 0, 0, None, None, 'x')\n",
        "import jax\nx = 1; a = b = jax.vmap\nb(f, 0, 0, None, None, 'x')\n",
        "import jax\njax.vmap(f, ')', 0, None, None, 'x')\n",
    ):
        assert may_have_findings(header + text), text
    assert not may_have_findings(header + "import jax\njax.vmap(f, (0, 1), 0, g(a, b, c, d))\n")


# One module with a collision; each site below spells its spmd vmap differently. Every spelling is one the
# detector follows (the test checks that first), so the prefilter must keep every one of them.
FORM_BASE = """import functools
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
from jax.experimental.shard_map import shard_map
mesh = Mesh(np.array(jax.devices()), ('i',))
def f(x):
    return shard_map(lambda b: b, mesh, P('i'), P('i'))(x)
"""
SPMD_VMAP_FORMS = {
    "keyword": "jax.vmap(f, spmd_axis_name='i')",
    "multiline": "jax.vmap(\n    f,  # the model (a ')' in a comment\n    in_axes=0,\n    spmd_axis_name='i',\n)",
    "bracket_in_string": "jax.vmap(f, in_axes=0, axis_name=')', spmd_axis_name='i')",
    "spaced": "jax . vmap (f, spmd_axis_name='i')",
    "kwargs_dict": "kw = {'spmd_axis_name': 'i'}\njax.vmap(f, **kw)",
    "kwargs_dict_call": "kw = dict(spmd_axis_name='i')\njax.vmap(f, **kw)",
    "kwargs_display": "jax.vmap(f, in_axes=0,  # c\n    **{'spmd_axis_name': 'i'})",
    "kwargs_call": "jax.vmap(f, **dict(spmd_axis_name='i'))",
    "partial_value": "functools.partial(jax.vmap, spmd_axis_name='i')(f)",
    "partial_decorator": "@functools.partial(jax.vmap, spmd_axis_name='i')\ndef g(x):\n    return f(x)",
    "partial_alias_multiline": (
        "from functools import partial as pt\n@pt(\n    jax.vmap,  # batch\n    spmd_axis_name='i')\n"
        "def g(x):\n    return f(x)"
    ),
    "partial_bound": "bv = functools.partial(jax.vmap, spmd_axis_name='i')\nbv(f)",
    "alias_chain": "v = jax.vmap\nw = v\nw(f, spmd_axis_name='i')",
    "alias_annotated": "v: object = jax.vmap\nv(f, spmd_axis_name='i')",
    "alias_after_semicolon": "x = 1; v = jax.vmap\nv(f, spmd_axis_name='i')",
    "alias_parenthesized_multiline": "v = (\n    jax.vmap  # a comment\n)\nv(f, spmd_axis_name='i')",
    "alias_walrus": "(v := jax.vmap)\nv(f, spmd_axis_name='i')",
    "import_alias_positional": "from jax import vmap as vm\nvm(f, 0, 0, None, None, 'i')",
    "positional": "jax.vmap(f, 0, 0, None, None, 'i')",
    "module_alias": "import jax as jx\njx.vmap(f, spmd_axis_name='i')",
    "after_strings_holding_quotes_and_hashes": (
        "s = 'it\\'s #1'; t = \"'''\"  # a comment with a ' quote\njax.vmap(f, spmd_axis_name='i')"
    ),
}


@pytest.mark.parametrize("form", sorted(SPMD_VMAP_FORMS))
def test_prefilter_keeps_every_spmd_vmap_form(form: str) -> None:
    source = FORM_BASE + SPMD_VMAP_FORMS[form] + "\n"
    assert _findings_without_prefilter(source), "the detector no longer follows this form: update the list"
    assert may_have_findings(source)


@pytest.mark.parametrize(
    "text",
    [
        # JAX's own api.py: defines vmap and forwards the parameter; neither is a vmap site.
        (
            "def vmap(fun, in_axes=0, spmd_axis_name=None):\n"
            "    return batching.batch(fun, spmd_axis_name=spmd_axis_name)\n# shard_map\n"
        ),
        # flax: a vmap passed to something other than functools.partial.
        "from jax import vmap, shard_map\nlift_transform(flax.core.lift.vmap, target, spmd_axis_name=None)\n",
        # a plain vmap over a device_put without a NamedSharding.
        "from jax import vmap, shard_map, device_put\nvmap(f)(device_put(x, jax.devices()[0]))\n",
        # a docstring example and a commented-out call.
        '"""Example:\n\n  jax.vmap(f, spmd_axis_name="i")(x) under shard_map\n"""\n'
        "# jax.vmap(f, spmd_axis_name='i')\nimport jax\n",
        # spmd_axis_name only in a comment and a string.
        "from jax import vmap, shard_map  # spmd_axis_name\nvmap(f, in_axes=0)\nx = 'spmd_axis_name=1'\n",
    ],
)
def test_prefilter_drops_text_without_an_spmd_vmap_site(text: str) -> None:
    assert not may_have_findings(text)


# Spellings a review (a helper trying to break the prefilter) found dropped, each with a finding; kept now:
# NFKC identifiers (A), Unicode identifiers (B), continuations and comments between tokens (C, D, G),
# parenthesised callees and arguments (E), a comment ending in `def` (F), several statements on a line (H),
# form feeds and continuations after a value (I), "\r" line endings (J), backslash-newlines in strings (K).
HOLE_HEADER = "import jax\ndef f(x): return jax.shard_map(g, in_specs=jax.P('i'), out_specs=0)(x)\n"
HOLE_CALL = "(f, spmd_axis_name='i')\n"
HOLES_FOUND = {
    "A1 fullwidth callee": HOLE_HEADER + "jax.\uff56map" + HOLE_CALL,
    "A2 fullwidth kw": HOLE_HEADER + "jax.vmap(f, \uff53pmd_axis_name='i')\n",
    "A3 fullwidth partial": HOLE_HEADER + "import functools\nfunctools.\uff50artial(jax.vmap, spmd_axis_name='i')(f)\n",
    "B1 import-as non-ascii": HOLE_HEADER + "from jax import vmap as \u00e9v\n\u00e9v" + HOLE_CALL,
    "B2 walrus non-ascii": HOLE_HEADER + "(\u00e9v := jax.vmap)\n\u00e9v" + HOLE_CALL,
    "B3 partial dotted prefix non-ascii": HOLE_HEADER
    + "import functools, jax as \u0135\nfunctools.partial(\u0135.vmap, spmd_axis_name='i')(f)\n",
    "C1 import-as backslash": HOLE_HEADER + "from jax import vmap \\\n as v\nv" + HOLE_CALL,
    "C2 import-as comment": HOLE_HEADER + "from jax import (vmap  # c\n as v)\nv" + HOLE_CALL,
    "D1 kw backslash": HOLE_HEADER + "jax.vmap(f, spmd_axis_name\\\n='i')\n",
    "D2 kw comment": HOLE_HEADER + "jax.vmap(f, spmd_axis_name  # c\n='i')\n",
    "E1 paren callee": HOLE_HEADER + "(jax.vmap)" + HOLE_CALL,
    "E2 paren partial arg": HOLE_HEADER + "import functools\nfunctools.partial((jax.vmap), spmd_axis_name='i')(f)\n",
    "E3 paren partial callee": HOLE_HEADER + "import functools\n(functools.partial)(jax.vmap, spmd_axis_name='i')(f)\n",
    "F1 def comment": HOLE_HEADER + "from jax import vmap  # def\nvmap" + HOLE_CALL,
    "G1 walrus newline": HOLE_HEADER + "(v\n := jax.vmap)\nv" + HOLE_CALL,
    "G2 walrus backslash": HOLE_HEADER + "(v \\\n:= jax.vmap)\nv" + HOLE_CALL,
    "G3 walrus formfeed": HOLE_HEADER + "(v\f:= jax.vmap)\nv" + HOLE_CALL,
    "H1 semicolon other stmt": HOLE_HEADER + "w = jax.vmap; v = jax .vmap\nv" + HOLE_CALL,
    "H2 multiline value + semicolon": HOLE_HEADER + "v = (\n jax.vmap); w = 0 or jax.vmap\nv" + HOLE_CALL,
    "H3 CRLF semicolon": (HOLE_HEADER + "v = jax.vmap; w = jax.vmap\nw" + HOLE_CALL).replace("\n", "\r\n"),
    "I1 formfeed after value": HOLE_HEADER + "v = jax.vmap\f\nv" + HOLE_CALL,
    "I2 backslash+blank after value": HOLE_HEADER + "v = jax.vmap \\\n\nv" + HOLE_CALL,
    "J1 CR-only alias": (HOLE_HEADER + "v = jax.vmap\nv" + HOLE_CALL).replace("\n", "\r"),
    "J2 CR-only comment first": ("# c\n" + HOLE_HEADER + "jax.vmap" + HOLE_CALL).replace("\n", "\r"),
    "K1 str backslash-newline in args": HOLE_HEADER + "jax.vmap(f, 'a\\\n)', spmd_axis_name='i')\n",
    "K2 tq str backslash-newline in args": HOLE_HEADER + "jax.vmap(f, axis_name='''\\\n)''', spmd_axis_name='i')\n",
    "K3 docstring backslash-newline desync": '"""a \\\n"""\n'
    + HOLE_HEADER
    + "jax.vmap"
    + HOLE_CALL
    + 'def h():\n    """d"""\n',
}


@pytest.mark.parametrize("hole", sorted(HOLES_FOUND))
def test_prefilter_keeps_the_spellings_a_review_found_dropped(hole: str) -> None:
    source = HOLES_FOUND[hole]
    assert _findings_without_prefilter(source)
    assert may_have_findings(source)


# A wrapper with no shard_map in reach (no shard_map word, no import of the project) still gives SPMD910 records:
# a parameter forwarded as `spmd_axis_name` (flax's nnx/transforms/iteration.py) or a callable passed in. The
# prefilter kept neither (issue 22: it may drop a file only when the analysis would give nothing).
WRAPPERS = {
    "forwarded spmd_axis_name": "import jax\ndef wrap(f, spmd_axis_name=None):\n"
    "    return jax.vmap(f, spmd_axis_name=spmd_axis_name)\n",
    "callee passed in": "import jax\ndef wrap(f):\n    return jax.vmap(f, spmd_axis_name='x')\n",
}


@pytest.mark.parametrize("form", sorted(WRAPPERS))
def test_a_wrapper_with_no_shard_map_in_reach_is_kept_for_its_spmd910_record(form: str) -> None:
    source = WRAPPERS[form]
    analyzer = Analyzer(ModuleModel.build(source, ast.parse(source)))
    facts = analyzer.facts()
    assert analyzer.unknown_spmd or any(vmap.unresolved for vmap in facts)
    assert may_have_findings(source)
    # ... while a plain vmap there gives nothing and is still dropped.
    assert not may_have_findings(source.replace(", spmd_axis_name=spmd_axis_name", "").replace(", spmd_axis_name='x'", ""))


# spmd_axis_name is passed by position only as jax.vmap's 6th positional argument (flax.linen.vmap's 8th):
# an argument list counts its positional arguments, not its keyword ones. Each list below passes it as the
# 6th positional argument, one of the others spelled so that it might be taken for a keyword argument, or
# with a comment or a line continuation where the count could slip: kept, each with a finding.
SIXTH_POSITIONAL = {
    "plain": "f, 0, 0, None, None, 'i'",
    "walrus": "f, ax := 0, 0, None, None, 'i'",
    "walrus unspaced": "f, ax:=0, 0, None, None, 'i'",
    "comparisons": "f, 0, 0, None, (a == b) or None, 'i'",
    "equality unbracketed": "f, 0, 0, None, a == b, 'i'",
    "lambda with a default": "lambda x=1: f(x), 0, 0, None, None, 'i'",
    "string with equals": "f, 0, 0, 'a=b', None, 'i'",
    "comments between": "f,  # the model\n  0,  # in_axes=\n  0, None, None, 'i'",
    "continuations": "f, \\\n 0, 0, None, None, \\\n 'i'",
    "nested keywords": "f, dict(a=1), 0, None, None, 'i'",
    "trailing comma": "f, 0, 0, None, None, 'i',",
}


@pytest.mark.parametrize("arguments", sorted(SIXTH_POSITIONAL))
def test_a_sixth_positional_argument_passes_the_prefilter(arguments: str) -> None:
    source = HOLE_HEADER + "ax = a = b = 0\njax.vmap(" + SIXTH_POSITIONAL[arguments] + ")\n"
    assert _findings_without_prefilter(source)
    assert may_have_findings(source)


# Argument lists that may pass it some other way, or whose count this cannot read: kept (the analysis
# may read a `*args` or `**kw` it can resolve; a comment or a continuation before a keyword argument
# makes it count as a positional one).
KEPT_ARGUMENTS = (
    "f, *rest)",
    "*args)",
    "f,  # c\n  *rest)",
    "f, \\\n *rest)",
    "f, **kw)",
    "f, in_axes=0, **kw)",
    "f, in_axes=0,  # c\n  **kw)",
    "f, **(self.kw))",
    "f, **self.kw[0])",
    "f, **self.kw.copy())",
    "f, in_axes=0, spmd_axis_name=name)",
    "f,  # c\n a=0,  # c\n b=0,  # c\n c=0,  # c\n d=0,  # c\n e=0)",
    "f, \\\n a=0, \\\n b=0, \\\n c=0, \\\n d=0, \\\n e=0)",
    "f, in_axes=0",  # no end
)


@pytest.mark.parametrize("arguments", KEPT_ARGUMENTS)
def test_argument_lists_that_may_pass_an_spmd_axis_name_otherwise_pass_the_prefilter(arguments: str) -> None:
    assert may_have_findings(HOLE_HEADER + "jax.vmap(" + arguments + "\n")


# Argument lists with fewer than six positional arguments and no `spmd_axis_name=`, `*` or `**`, however
# many keyword ones: dropped, and the detector finds nothing in them (flax's nnx tests, maxtext's attention).
DROPPED_ARGUMENTS = {
    "keywords only": "f, in_axes=0, out_axes=0, axis_name='i', axis_size=4, sum_match=False",
    "nnx decorator": "in_axes=(0, None), axis_size=5, graph=True, graph_updates=False, out_axes=0",
    "five positional and keywords": "f, 0, 0, None, None, axis_size=4, sum_match=False",
    "five positional, trailing comma": "f, 0, 0, None, None,",
    "a lambda's parameters": "lambda q, k, v, d, s: g(q, k, v, d, sinks=s), in_axes=(0, 0, 0, 0, None)",
    "keywords over lines": "\n  f,\n  in_axes=0,\n  out_axes=0,\n  axis_name='i',\n  axis_size=4,\n  x=1,\n",
    "comment after a keyword": "f, in_axes=0,  # c\n out_axes=0, axis_name='i', axis_size=4, x=1",
}


@pytest.mark.parametrize("arguments", sorted(DROPPED_ARGUMENTS))
def test_argument_lists_with_fewer_than_six_positional_arguments_are_dropped_with_nothing_to_find(
    arguments: str,
) -> None:
    for call in ("jax.vmap(" + DROPPED_ARGUMENTS[arguments] + ")\n", "functools.partial(jax.vmap, in_axes=0)(f)\n"):
        source = HOLE_HEADER + "import functools\ng = n = 0\n" + call
        assert _findings_without_prefilter(source) == []
        assert not may_have_findings(source), call


def test_a_kwargs_attribute_is_dropped_as_the_analysis_does_not_read_it() -> None:
    """`**self.kw`: the analysis reads the dict of a `**` argument only through a name
    (`vmap_sites._from_kwargs`): jax's hijax.py forwards `**self._vmap_params`."""
    source = HOLE_HEADER + (
        "class M:\n    kw = {'spmd_axis_name': 'i'}\n"
        "    def __init__(self):\n        self.kw = {'spmd_axis_name': 'i'}\n"
        "    def run(self, x):\n        return jax.vmap(f, in_axes=0,  # c\n            **self.kw)(x)\n"
        "    def other(self, x):\n        return jax.vmap(f, **self . kw, out_axes=0)(x)\n"
    )
    assert _findings_without_prefilter(source) == [], "the analysis reads `**self.kw`: the prefilter must keep it"
    assert not may_have_findings(source)


def test_a_partial_counts_its_vmap_among_the_positional_arguments() -> None:
    """`partial(<vmap>, ...)`: the analysis reads only its `spmd_axis_name=`; counting the vmap as the first of
    six positional arguments keeps more than that, never less."""
    header = HOLE_HEADER + "import functools\n"
    keywords = "in_axes=0, out_axes=0, axis_name='i', axis_size=4, x=1, y=2"
    assert not may_have_findings(header + "functools.partial(jax.vmap, " + keywords + ")(f)\n")
    assert may_have_findings(header + "functools.partial(jax.vmap, f, 0, 0, None, None)(x)\n")
    assert may_have_findings(header + "functools.partial(jax.vmap, *rest)(f)\n")


PLACED = """
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P
mesh = jax.make_mesh((8,), ('S',))
def layer(x):
    return jax.shard_map(lambda t: t * 2.0, mesh=mesh, in_specs=P('S'), out_specs=P('S'))(x)
xs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S', None)))
"""


@pytest.mark.parametrize(
    "application",
    [
        "jax.vmap(layer)(xs)",
        "(jax.vmap(layer))(xs)",
        "jax.jit(jax.vmap(layer))(xs)",
        "jax.jit(  # a comment (with brackets)\n    jax.vmap(layer), donate_argnums=0)(xs)",
        "jax.jit(jax.jit(jax.vmap(layer)))(xs)",
        "jax.vmap(\n    layer,\n)(\n    xs)",
        "mapped = jax.vmap(layer)\nmapped(xs)",  # a vmap bound to a name is applied where the name is called
        "mapped = jax.jit(jax.vmap(layer))\nmapped(xs)",
    ],
)
def test_an_applied_plain_vmap_over_a_placed_input_passes_the_prefilter(application: str) -> None:
    source = PLACED + application + "\n"
    assert {f.code for f in _findings_without_prefilter(source)} == {"SPMD006"}
    assert may_have_findings(source)


@pytest.mark.parametrize(
    "use",
    [
        "mapped = jax.vmap(layer)\nmapped.lower(xs)",  # bound to a name that is never called
        "jax.vmap(layer).lower(xs)",
        "'jax.vmap(layer)(xs)'",  # a string, not code
    ],
)
def test_a_plain_vmap_that_is_not_applied_is_dropped_with_nothing_to_find(use: str) -> None:
    """SPMD006 needs `jax.vmap(f)(x)` (through jit-like wrappers): a text whose vmap calls are never applied
    (jax's lax.py) has none, and is not parsed."""
    source = PLACED + use + "\n"
    assert _findings_without_prefilter(source) == []
    assert not may_have_findings(source)


MESH_MODULE = "import jax\nmesh = jax.make_mesh((8,), ('S',))\n"
PLACED_ELSEWHERE = """
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P
from pkg.meshes import mesh
def layer(x):
    return jax.shard_map(lambda t: t * 2.0, mesh=mesh, in_specs=P('S'), out_specs=P('S'))(x)
xs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S', None)))
jax.vmap(layer)(xs)
"""


def test_a_placed_plain_vmap_whose_explicit_mesh_is_built_in_another_module_passes_the_prefilter(tmp_path) -> None:
    """The analysis follows `from pkg.meshes import mesh` to its `make_mesh` (Explicit axes): the checked
    text holds neither `make_mesh` nor `Explicit`, and was dropped before (a hole found in review)."""
    from spmdfix import api
    from spmdfix.model import Options
    from spmdfix.source_analysis import analyse_text

    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "meshes.py").write_text(MESH_MODULE)
    main = tmp_path / "pkg" / "main.py"
    main.write_text(PLACED_ELSEWHERE)
    unfiltered = analyse_text(PLACED_ELSEWHERE, Options(), main, api.new_project_index(tmp_path))[0].findings
    assert {f.code for f in unfiltered} == {"SPMD006"}
    assert "make_mesh" not in PLACED_ELSEWHERE and "Explicit" not in PLACED_ELSEWHERE
    assert may_have_findings(PLACED_ELSEWHERE)
    # Issue 22: the words of the mesh no longer decide. A mesh bound nowhere (the import only in a docstring)
    # gives an SPMD910 record, which the prefilter dropped before; a mesh known to be None gives nothing, but
    # the prefilter does not resolve names (a mesh passed in gives a record): both are kept.
    for bound in ('"""\\nfrom pkg import x\\n"""', "mesh = None"):
        text = PLACED_ELSEWHERE.replace("from pkg.meshes import mesh", bound)
        assert "make_mesh" not in text and may_have_findings(text)
    unbound = PLACED_ELSEWHERE.replace("from pkg.meshes import mesh", '"""\\nfrom pkg import x\\n"""')
    assert [u.what for u in analyse_text(unbound, Options())[0].unfollowed] == [
        "the input's mesh (`mesh`) is not known: `mesh` is bound nowhere in its module (a builtin or a `*` import)"
    ]
    # A placement on a device is not a sharding the analysis reads: nothing to find, and the text is dropped.
    on_device = PLACED_ELSEWHERE.replace("NamedSharding(mesh, P('S', None))", "jax.devices()[0]")
    assert not analyse_text(on_device, Options(), main, api.new_project_index(tmp_path))[0].unfollowed
    assert not may_have_findings(on_device)


SCOPED_HEADER = """
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P
mesh = jax.make_mesh((8,), ('S',))
def layer(x):
    return jax.shard_map(lambda t: t * 2.0, mesh=mesh, in_specs=P('S'), out_specs=P('S'))(x)
"""
# Each places an input and applies a plain vmap over it in one scope, written so that indentation alone
# misleads: continuation lines at column 0, a tab, nested defs, a class body, a one-line def, `global`.
IN_ONE_SCOPE = {
    "method": "class T:\n  def test(self):\n    xs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))\n"
    "    return jax.vmap(layer)(xs)\n",
    "column-0 continuation": "def test():\n    xs = jax.device_put(jnp.ones((8, 8)),\nNamedSharding(mesh, P('S')))\n"
    "    def inner():\n        pass\n    return jax.vmap(layer)(xs)\n",
    "column-0 before the def": "def test():\n    ys = (\n1)\n    def inner():\n        pass\n"
    "    xs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))\n    return jax.vmap(layer)(xs)\n",
    "in the application": "def test():\n    return jax.vmap(layer)(\njax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S'))))\n",
    "tab": "def test():\n\txs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))\n"
    "\tdef inner():\n\t\tpass\n\treturn jax.vmap(layer)(xs)\n",
    "one-line def after nested defs": "def test():\n    def a(): pass\n"
    "    xs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))\n    def b(): pass\n"
    "    if xs is not None:\n        def c(): pass\n        return jax.vmap(layer)(xs)\n",
    "class body": "def test():\n    class C:\n        xs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))\n"
    "        def m(self): pass\n        ys = jax.vmap(layer)(xs)\n",
    "module": "def a(): pass\nxs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))\n"
    "def b(): pass\nys = jax.vmap(layer)(xs)\n",
    "formatted signature": "def test(\n    n,\n) -> None:\n"
    "    xs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))\n    return jax.vmap(layer)(xs)\n",
    "formatted signature, body at column 0": "def test(n=(1,\n2)):\n    xs = jax.device_put(jnp.ones((8, 8)),\n"
    "NamedSharding(mesh, P('S')))\n    return jax.vmap(layer)(xs)\n",
    "call closed at the def's column": "class T:\n  def test(self):\n    ys = jax.jit(\n        layer,\n"
    "  )(1)\n    xs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))\n    return jax.vmap(layer)(xs)\n",
}


@pytest.mark.parametrize("form", sorted(IN_ONE_SCOPE))
def test_a_placement_and_an_applied_vmap_in_one_scope_pass_the_prefilter(
    form: str,
) -> None:
    source = SCOPED_HEADER + IN_ONE_SCOPE[form]
    ast.parse(source)
    if form in ("method", "module", "column-0 continuation", "in the application", "formatted signature"):
        assert {f.code for f in _findings_without_prefilter(source)} == {"SPMD006"}
    assert may_have_findings(source)


def test_placements_and_applied_vmaps_in_different_functions_are_dropped_with_nothing_to_find() -> (
    None
):
    """jax's api_test.py places inputs in some test methods and applies plain vmaps in others: no SPMD006."""
    source = SCOPED_HEADER + (
        "class T:\n  def test_place(self):\n    xs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))\n"
        "    return xs\n  def test_vmap(self, xs):\n    return jax.vmap(layer)(xs)\n"
    )
    assert _findings_without_prefilter(source) == []
    assert not may_have_findings(source)


def test_a_call_closed_at_the_defs_column_does_not_end_its_function() -> None:
    """A formatter may close a call written across lines at the `def`'s own column (`)(x, y)`, a call of the
    call): that line goes on a statement of the body. Ending the region there made every region of jax's
    tpu_pallas_test.py inexact, so that placements and applied vmaps of different test methods counted as a
    pair (6,000 lines parsed for nothing)."""
    source = SCOPED_HEADER + (
        "class T:\n  def test_place(self):\n    ys = jax.jit(\n      layer,\n  )(1)\n"
        "    xs = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))\n    return xs\n"
        "  def test_vmap(self, xs):\n    return jax.vmap(layer)(xs)\n"
    )
    assert _findings_without_prefilter(source) == []
    assert not may_have_findings(source)


def test_a_formatted_signature_does_not_end_its_function() -> None:
    """A formatter writes a long signature's `):` at the `def`'s indentation; that line is inside the
    parameter list, so the function goes on (maxtext's deepseek_batchsplit.py places inputs in functions
    so written, and applies plain vmaps in others: no SPMD006)."""
    source = SCOPED_HEADER + (
        "def place(\n    ys,\n    *,\n    n,\n):\n    xs = jax.device_put(ys, NamedSharding(mesh, P('S')))\n"
        "    return xs\ndef apply(xs):\n    return jax.vmap(layer)(xs)\n"
    )
    assert _findings_without_prefilter(source) == []
    assert not may_have_findings(source)


PLACEMENT = "jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P('S')))"
# Each places an input in one scope and applies a plain vmap over it in another, nested in or around the
# first: the analysis looks for the input's assignment in the application's own scope, and finds none.
IN_NESTED_SCOPES = {
    "top-level placement, application in a function (jax's shard_map notebook)": f"xs = {PLACEMENT}\n"
    "def apply():\n    return jax.vmap(layer)(xs)\n",
    "placement in a function, application in one inside it": f"def test():\n    xs = {PLACEMENT}\n"
    "    def inner():\n        return jax.vmap(layer)(xs)\n    return inner()\n",
    "placement in a nested function, application around it": f"def test():\n    def inner():\n"
    f"        xs = {PLACEMENT}\n        return xs\n    xs = inner()\n    return jax.vmap(layer)(xs)\n",
}
# ... and where a `def`'s header is evaluated in the scope around it: defaults, and a walrus in one.
IN_ONE_SCOPE_THROUGH_A_HEADER = {
    "default": f"def test():\n    xs = {PLACEMENT}\n    def g(y=jax.vmap(layer)(xs)):\n        return y\n",
    "walrus in a default": f"def test():\n    def g(y=(xs := {PLACEMENT})):\n        return y\n"
    "    return jax.vmap(layer)(xs)\n",
    "default after a lambda": f"def test():\n    xs = {PLACEMENT}\n"
    "    def g(f=lambda: 0, y=jax.vmap(layer)(xs)):\n        return y\n",
    "formatted signature": f"def test():\n    xs = {PLACEMENT}\n    def g(\n        y=jax.vmap(layer)(xs),\n"
    "    ) -> None:\n        return y\n",
    "decorator": f"def test():\n    xs = {PLACEMENT}\n    @jax.vmap(layer)(xs)\n    def g(): pass\n",
    # (neither function's region encloses the other's: kept since headers count, dropped before)
    "defaults of two functions": f"def test():\n    def g(y=(xs := {PLACEMENT})):\n        return y\n"
    "    def h(z=jax.vmap(layer)(xs)):\n        return z\n",
}


@pytest.mark.parametrize("form", sorted(IN_NESTED_SCOPES))
def test_a_placement_and_an_applied_vmap_in_nested_scopes_are_dropped_with_nothing_to_find(form: str) -> None:
    source = SCOPED_HEADER + IN_NESTED_SCOPES[form]
    assert _findings_without_prefilter(source) == []
    assert not may_have_findings(source)
    # Written so that a region may end early (a continuation line at column 0), the pair is kept: a coarser
    # answer where indentation may mislead, never a pair dropped.
    assert may_have_findings(source + "def later():\n    y = (1,\n2)\n    return y\n")


@pytest.mark.parametrize("form", sorted(IN_ONE_SCOPE_THROUGH_A_HEADER))
def test_a_placement_and_an_applied_vmap_one_scope_evaluates_through_a_header_pass_the_prefilter(form: str) -> None:
    source = SCOPED_HEADER + IN_ONE_SCOPE_THROUGH_A_HEADER[form]
    assert {f.code for f in _findings_without_prefilter(source)} == {"SPMD006"}
    assert may_have_findings(source)


EXACTNESS = {
    "column-0 continuation": ("def f():\n    x = (1,\n2)\n    return x\n", False),
    "backslash continuation": ("def f():\n    x = 1 + \\\n2\n    return x\n", False),
    "tab-indented body": ("def f():\n\tx = 1\n\treturn x\ny = 2\n", False),
    "form feed": ("def f():\n    x = 1\n\fy = 2\n", False),
    "unbalanced": ("def f():\n    x = (1\ny = 2\n", False),
    "plain": ("def f():\n    x = (1,\n         2)\n    return x\ny = 2\n", True),
    "formatted signature": ("def f(\n    a,\n) -> None:\n    return a\ny = 2\n", True),
    "bracket in a string": ("def f():\n    return ')'\ny = 2\n", True),
    "call closed at the def's column": ("class C:\n  def f(self):\n    return g(\n      1,\n  )(2)\n  y = 2\n", True),
    "call closed at column 0": ("def f():\n    return g(\n1)\ny = 2\n", False),
}


@pytest.mark.parametrize("name", sorted(EXACTNESS))
def test_regions_are_exact_only_when_every_region_ends_at_a_statement(name: str) -> None:
    from spmdfix.prefilter.regions import _def_regions, _regions_exact

    source, exact = EXACTNESS[name]
    assert _regions_exact(source, _def_regions(source)) == exact


def test_exact_regions_hold_exactly_their_defs_lines_on_real_modules() -> None:
    """Where `_regions_exact` says so, each code line's region is the innermost space-indented `def` whose
    lines (the `def` line to the last line of its body, as `ast` gives them) hold it: golden inputs,
    spmdfix's modules, jax's and the texts of the tables above."""
    from pathlib import Path

    import jax

    from spmdfix.prefilter.regions import _def_regions, _region_of, _regions_exact
    from spmdfix.prefilter.text import in_code

    paths = [c.input for c in CASES] + sorted((Path(__file__).parents[1] / "spmdfix").rglob("*.py"))
    paths += sorted(Path(jax.__file__).parent.rglob("*.py"))[:120]
    sources = [p.read_text(encoding="utf-8") for p in paths]
    sources += [SCOPED_HEADER + t for t in (*IN_ONE_SCOPE.values(), *IN_NESTED_SCOPES.values())]
    sources += [t for t, _ in EXACTNESS.values()] + list(REGION_TEXTS.values())
    exact = 0
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        regions = _def_regions(source)
        if not _regions_exact(source, regions):
            continue
        exact += 1
        first_lines = [source.count("\n", 0, start) + 1 for start in regions[0]]
        lines = source.split("\n")
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        owner = [-1] * (len(lines) + 2)  # by line number: the first line of the innermost def holding it
        defs = sorted(
            (node.lineno, node.end_lineno)
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and lines[node.lineno - 1][: node.col_offset].strip(" ") == ""
        )
        for first, last in defs:  # (an inner def starts later, so it overrides the def around it)
            owner[first : last + 1] = [first] * (last + 1 - first)
        for number, line in enumerate(lines, 1):
            code = line.lstrip(" ")
            if not code or code.startswith("#"):
                continue
            offset = starts[number - 1] + len(line) - len(code)
            if not in_code(source, offset):
                continue
            expected = owner[number]
            k = _region_of(regions, offset)
            got = first_lines[k] if k >= 0 else -1
            assert got == expected, (number, line)
    assert exact > 150


# --- the scanner's pieces against references -------------------------------------------------------------

TRICKY_STRINGS = (
    "a = '''it''s'''\n"
    'b = """x\\"""" + "y"\n'
    "c = ''''''\n"
    "d = 'a\\'b' \"c\\\"d\" r'\\''\n"
    "e = '''x\\\n''' # a comment with ''' in it\n"
    'f = "#not a comment"  # a comment "with quotes"\n'
    "g = '''a''''' + '''b\n'' '''\n"
    'h = f"{x!r:>{w}}" + """\n"" "\n"""\n'
    "i = '\\\n'\n"
)


def test_string_literals_and_comments_end_where_python_ends_them() -> None:
    """`_strings_and_comments` (one regular expression) finds each string literal (from its first quote: a
    prefix is code) and comment that Python's tokenizer finds, and nothing else."""
    import io
    import tokenize

    from spmdfix.prefilter.text import _strings_and_comments

    rows = [0]
    for line in io.StringIO(TRICKY_STRINGS):
        rows.append(rows[-1] + len(line))
    expected = []
    for token in tokenize.generate_tokens(io.StringIO(TRICKY_STRINGS).readline):
        if token.type in (tokenize.STRING, tokenize.COMMENT):
            start = rows[token.start[0] - 1] + token.start[1]
            end = rows[token.end[0] - 1] + token.end[1]
            if token.type == tokenize.STRING:
                start += len(token.string) - len(token.string.lstrip("rbfuRBFU"))
            expected.append((start, end))
    starts, ends = _strings_and_comments(TRICKY_STRINGS)
    assert list(zip(starts, ends)) == expected


def _parameter_lists(source: str) -> list[tuple[int, int]]:
    """(offset of the `(`, offset of its `)`) of every `def`'s parameter list, by Python's tokenizer."""
    import io
    import tokenize

    starts, offset = [], 0
    for line in io.StringIO(source).readlines():
        starts.append(offset)
        offset += len(line)
    found, tokens = [], list(tokenize.generate_tokens(io.StringIO(source).readline))
    for k, token in enumerate(tokens[:-2]):
        if token.string == "def" and tokens[k + 2].string == "(":
            depth = 0
            for closing in tokens[k + 2 :]:
                depth += closing.string in "([{" and closing.type == tokenize.OP
                depth -= closing.string in ")]}" and closing.type == tokenize.OP
                if depth == 0:
                    break
            opening = tokens[k + 2].start
            found.append((starts[opening[0] - 1] + opening[1], starts[closing.start[0] - 1] + closing.start[1]))
    return found


def _regions_line_by_line(source: str) -> dict[int, int]:
    """A reference for `_def_regions`: each code line's innermost `def` (the offset of its line, -1 for the
    module), found line by line with a stack of open `def`s; lines inside a `def`'s parameter list are no
    statements (Python's tokenizer tells where the list ends)."""
    import re

    from spmdfix.prefilter.text import in_code

    parameters = _parameter_lists(source)
    stack: list[tuple[int, int]] = []
    out = {}
    for line in re.finditer(r"^( *)[^ \n#]", source, re.MULTILINE):
        if not in_code(source, line.start()):
            continue
        if any(opening < line.end() - 1 <= closing for opening, closing in parameters):
            continue
        indent = len(line.group(1))
        while stack and indent <= stack[-1][0]:
            stack.pop()
        if re.match(r"(?:async[ \t]+)?def\b", source[line.end() - 1 :]):
            stack.append((indent, line.start()))
        out[line.start()] = stack[-1][1] if stack else -1
    return out


REGION_TEXTS = {
    "one-space indents": "def f():\n x = 1\n def g():\n  y = 2\n z = 3\nw = 4\n",
    "nested": "def f():\n    def g():\n        x = 1\n    y = 2\nz = 3\n",
    "string at column 0": 'def f():\n    s = """\nnot code\n"""\n    return s\ndef g(): pass\n',
    "tab": "def f():\n\tdef g():\n\t\tpass\n\tx = 1\n",
    "comment at column 0": "def f():\n# a comment\n    x = 1\nasync  def g():\n    pass\n",
    "continuation": "def f(\na):\n    pass\nclass C:\n    def m(self): pass\n    y = 1\n",
    "formatted signature": "def f(\n    a,\n) -> None:\n    x = 1\ny = 2\n",
    "formatted method": "class C:\n    def m(\n        self, b=(1,\n  2),\n    ):\n        pass\n    z = 1\n",
    "paren in a string": "def f(a='(', # )\nb=1):\n  pass\nx = 1\n",
    "async signature": "async def f(\n):\n    pass\n",
}


@pytest.mark.parametrize("name", sorted(REGION_TEXTS))
def test_def_regions_give_each_line_the_def_a_line_by_line_walk_gives(name: str) -> None:
    from spmdfix.prefilter.regions import _def_regions, _region_of

    source = REGION_TEXTS[name]
    regions = _def_regions(source)
    starts, ends, parents = regions
    for offset, expected in _regions_line_by_line(source).items():
        inside = [k for k in range(len(starts)) if starts[k] <= offset < ends[k]]
        innermost = max(inside, key=lambda k: starts[k], default=-1)
        assert innermost == _region_of(regions, offset)
        assert (starts[innermost] if innermost >= 0 else -1) == expected, (name, offset)
        if innermost >= 0 and parents[innermost] >= 0:
            assert starts[parents[innermost]] < starts[innermost] < ends[innermost] <= ends[parents[innermost]]


def test_def_regions_agree_with_a_line_by_line_walk_on_real_modules() -> None:
    """The golden inputs and spmdfix's own modules: every code line gets the same innermost `def`."""
    from pathlib import Path

    from spmdfix.prefilter.regions import _def_regions, _region_of

    sources = [c.input.read_text() for c in CASES] + [p.read_text() for p in (Path(__file__).parents[1] / "spmdfix").rglob("*.py")]
    assert len(sources) > 50
    for source in sources:
        regions = _def_regions(source)
        for offset, expected in _regions_line_by_line(source).items():
            k = _region_of(regions, offset)
            assert (regions[0][k] if k >= 0 else -1) == expected


def test_the_argument_test_keeps_every_call_of_real_modules_that_may_pass_an_spmd_axis_name() -> None:
    """Every call of the golden inputs and spmdfix's own modules, read by `ast`: one with six positional
    arguments, a `*args`, a `**kw` (not an attribute's) or `spmd_axis_name=` is kept by the argument test.
    (Run on the corpus and site-packages too: 750,276 calls, none missed.)"""
    from pathlib import Path

    from spmdfix.prefilter.calls import _CALL_OPEN, _may_pass_spmd_axis_name

    paths = [c.input for c in CASES] + list((Path(__file__).parents[1] / "spmdfix").rglob("*.py"))
    may_pass = 0
    for path in paths:
        source = path.read_text()
        if not source.isascii() or "\r" in source:  # (ast's columns are UTF-8 bytes; lines end in "\n")
            continue
        starts = [0]
        for line in source.split("\n"):
            starts.append(starts[-1] + len(line) + 1)
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call):
                continue
            opening = _CALL_OPEN.match(source, starts[node.func.end_lineno - 1] + node.func.end_col_offset)
            assert opening is not None
            if (
                len(node.args) >= 6
                or any(isinstance(a, ast.Starred) for a in node.args)
                or any(k.arg is None and not isinstance(k.value, ast.Attribute) for k in node.keywords)
                or any(k.arg == "spmd_axis_name" for k in node.keywords)
            ):
                may_pass += 1
                assert _may_pass_spmd_axis_name(source, opening.end()), (path, node.lineno)
    assert may_pass > 100


@pytest.mark.parametrize(
    "text, expected",
    [
        ("from pkg import mesh\nimport os\n", True),  # on the first line (no line break before it)
        ("import os\n  from . import mesh\n", True),
        ("import os\nimport jax.numpy as jnp, pkg.meshes\n", True),
        ("import os\nfrom jax import numpy\nx = 'import pkg'\n", False),
        ("import os, numpy as np", False),
    ],
)
def test_imports_of_the_project_are_found_on_every_line(text: str, expected: bool) -> None:
    from spmdfix.prefilter.bindings import imports_project

    assert imports_project(text) is expected


IMPORT_LINES = (
    "from pkg import mesh\nimport os\n",
    "import os\n  from . import mesh\n\tfrom\t.x import y\n",
    "fromage = 1\nimported = 2\nx = 1; import os\n  # from pkg import a\nimport pkg\n",
    "y = f(\n    x) from e\nfrom\nimport\n from . import a\nfromfrom import x\nimport importlib, imports\n",
    "\\\nimport pkg\n\n\nfrom\x0cpkg import x\n  import a.b as c  # from d\n\"\"\"\nfrom the paper\n\"\"\"\n",
)


@pytest.mark.parametrize("text", IMPORT_LINES)
def test_import_lines_are_those_a_regex_finds_at_every_line_start(text: str) -> None:
    """`_import_lines` (`str.find` of the words) finds the matches `line_starts(source, _IMPORT)` finds."""
    from spmdfix.prefilter.bindings import _IMPORT, _import_lines
    from spmdfix.prefilter.text import line_starts

    def found(matches):
        return sorted((m.start(1), m.start(2), m.group(1), m.group(2)) for m in matches)

    assert found(_import_lines(text)) == found(line_starts(text, _IMPORT))
    assert found(line_starts(text, _IMPORT)), "the text has import lines"


@pytest.mark.parametrize(
    "text",
    [
        "x = 1\n",
        "caf\u00e9 = '\u2014 \u00a9'\n",  # non-ASCII, NFKC-stable
        "jax.\uff56map(f)\n# \u00bd \u2126\n",  # a fullwidth letter; a fraction (no identifier) and Ohm
        "\u1d50 = \U0001d44e\r\nx\rz\ud800\n",  # modifier and mathematical letters, CR line ends, a surrogate
        "e\u0301 = \u00e9\n",  # a combining accent: NFKC composes the pair, no lone character changes
    ],
)
def test_a_text_is_read_as_python_reads_it(text: str) -> None:
    """`as_python_reads_it`: line ends made "\\n", then each identifier character NFKC changes replaced
    by its normal form (when the text as a whole is not NFKC-normal), and nothing else."""
    import unicodedata

    from spmdfix.prefilter.text import as_python_reads_it

    expected = text.replace("\r\n", "\n").replace("\r", "\n")
    if not unicodedata.is_normalized("NFKC", expected):
        expected = "".join(
            unicodedata.normalize("NFKC", c) if ("a" + c).isidentifier() else c for c in expected
        )
    assert as_python_reads_it(text) == expected


# --- the test of a module's bytes (`utf8_may_have_findings`) and the runner's use of it ------------------


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_the_bytes_of_every_golden_input_with_a_finding_are_kept(case) -> None:
    from spmdfix.prefilter import utf8_may_have_findings

    raw = case.input.read_bytes()
    if _findings_without_prefilter(decode(case.input, raw).text):
        assert utf8_may_have_findings(raw)


# `vmap` spelled with characters that NFKC normalisation turns into its letters: no `vmap` in the bytes.
LOOKALIKE_VMAPS = {
    "fullwidth v": "jax.\uff56map",
    "fullwidth vmap": "jax.\uff56\uff4d\uff41\uff50",
    "mathematical italic a": "jax.vm\U0001d44ep",
    "superscript-like modifier m": "jax.v\u1d50ap",
    "small roman numeral five": "jax.\u2174map",
}


@pytest.mark.parametrize("spelling", sorted(LOOKALIKE_VMAPS))
def test_the_bytes_of_a_vmap_spelled_with_lookalikes_are_kept(spelling: str) -> None:
    from spmdfix.prefilter import utf8_may_have_findings

    source = HOLE_HEADER + LOOKALIKE_VMAPS[spelling] + "(f, spmd_axis_name='i')\n"
    raw = source.encode("utf-8")
    assert b"vmap" not in raw
    assert _findings_without_prefilter(source), "the analysis reads the identifier as vmap"
    assert utf8_may_have_findings(raw)


def test_the_bytes_of_modules_without_vmap_are_dropped() -> None:
    from spmdfix.prefilter import utf8_may_have_findings

    assert not utf8_may_have_findings(b"import jax\nx = jax.jit(f)\n")
    assert not utf8_may_have_findings("# caf\u00e9 \u2014 \u00a9 2024\nx = '\u00e9t\u00e9'\n".encode())
    assert not utf8_may_have_findings(b"\xef\xbb\xbfx = 1\n")  # a BOM
    assert utf8_may_have_findings(b"# \xe9\nx = 1\n")  # not UTF-8: kept


def test_the_reach_test_is_a_search_for_its_words() -> None:
    """`may_be_reached` (and its bytes' form) answers whether the text holds one of `REACH_WORDS`, however each
    word is searched for: over spmdfix's, the golden and the tests' modules, and texts holding each word alone,
    at the start, the end, cut short."""
    from spmdfix.prefilter.reached import REACH_WORDS, may_be_reached, may_be_reached_bytes

    root = GOLDEN.parent
    texts = [p.read_text(encoding="utf-8") for d in ("spmdfix", "golden", "tests") for p in (root / d).rglob("*.py")]
    for word in REACH_WORDS:
        texts += [word, f"x = {word}", f"{word} = 1", word[:-1], word[1:], f"# {word[:-1]} {word[1:]}"]
    texts += ["", "P (", "p(", "mesh", "MESH", "Shard_map", "\u00e9 Mesh"]
    assert any(may_be_reached(t) for t in texts) and not all(may_be_reached(t) for t in texts)
    for text in texts:
        expected = any(word in text for word in REACH_WORDS)
        assert may_be_reached(text) == expected, text[:80]
        assert may_be_reached_bytes(text.encode("utf-8")) == expected, text[:80]


def test_the_prefilters_reach_test_is_a_search_for_its_words() -> None:
    """`may_have_findings`' test of a shard_map, a constraint, a jit or a reshard in reach searches fewer words
    (`pjit` holds `jit`) the faster way: the same answer as the search for every word of `SHARD_MAP_WORDS`."""
    from spmdfix.prefilter import _names_a_reached_word
    from spmdfix.prefilter.calls import SHARD_MAP_WORDS

    root = GOLDEN.parent
    texts = [p.read_text(encoding="utf-8") for d in ("spmdfix", "golden", "tests") for p in (root / d).rglob("*.py")]
    for word in SHARD_MAP_WORDS:
        texts += [word, f"x = {word}(f)", word[:-1], word[1:], f"# {word[:-1]} {word[1:]}"]
    texts += ["", "pjit", "p jit", "JIT", "shard", "jax.jit"]
    assert any(map(_names_a_reached_word, texts)) and not all(map(_names_a_reached_word, texts))
    for text in texts:
        assert _names_a_reached_word(text) == any(word in text for word in SHARD_MAP_WORDS), text[:80]


# Files the runner reads; each must get the outcome it got when every file was decoded and prepared.
RUNNER_FILES = {
    "plain.py": b"import jax\nx = jax.jit(f)\n",
    "non_ascii.py": "# caf\u00e9\nx = '\u00e9'\n".encode(),
    "crlf.py": b"import jax\r\nx = 1\r\n",
    "bom.py": b"\xef\xbb\xbfimport jax\n",
    "undecodable.py": b"x = '\xe9'\n",
    "latin1.py": b"# -*- coding: latin-1 -*-\nx = '\xe9'\n",
    "utf8_cookie.py": b"# -*- coding: utf-8 -*-\nx = '\xc3\xa9'\n",
    "bom_latin1_cookie.py": b"\xef\xbb\xbf# coding: latin-1\nx = '\xc3\xa9'\n",  # a BOM and another cookie
    "undecodable_later.py": b"x = '\xc3\xa9'\n# \xe9\n",  # not UTF-8 on its second line
    "unknown_cookie.py": b"# -*- coding: no-such-codec -*-\nx = 1\n",
    "generated.py": b"# @generated by a tool\nx = 1\n",
    "generated_later.py": b"x = 1\n" * 5 + b"# @generated\n",  # line 6: not marked
    "generated_line_5.py": b"x = 1\n" * 4 + b"# @generated",
    "lookalike.py": (HOLE_HEADER + "jax.\uff56map(f, spmd_axis_name='i')\n").encode(),
    "found.py": (HOLE_HEADER + "jax.vmap(f, spmd_axis_name='i')\n").encode(),
    # ASCII bytes without `vmap` whose declared encoding spells it (UTF-7: `+AHY-` is "v")
    "utf7.py": b"# -*- coding: utf-7 -*-\n" + (HOLE_HEADER + "jax.+AHY-map(f, spmd_axis_name='i')\n").encode(),
    "empty.py": b"",
    # No vmap, but a spec another module's spmd vmap may reach (a partial run when the run does not walk the
    # whole project: `runner.one_file.run_reached`)
    "spec_only.py": b"from jax.sharding import PartitionSpec as P\nSPEC = P('i')\n",
    "stub.pyi": b"def f(x: int) -> int: ...\n",
    "notebook.ipynb": b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}',
    "bad_notebook.ipynb": b"{not json",
}


def _outcome_when_every_file_was_decoded(job):
    """What the runner gave before the test of the bytes: read, decode, then `run_source`."""
    from spmdfix import runner
    from spmdfix.files import FileError, read_source
    from spmdfix.results import Unreadable

    try:
        source = read_source(job.path)
    except FileError as err:
        return Unreadable(job.path, job.display, str(err), position=err.position)
    return runner.run_source(job, source)


@pytest.mark.parametrize("name", sorted(RUNNER_FILES))
@pytest.mark.parametrize("include_generated", [False, True])
@pytest.mark.parametrize("walked", [False, True])
def test_files_cleared_by_their_bytes_get_the_outcome_a_full_read_gives(tmp_path, name, include_generated, walked) -> None:
    from spmdfix import runner
    from spmdfix.model import Options

    path = tmp_path / name
    path.write_bytes(RUNNER_FILES[name])
    job = runner.Job(path, name, Options(), include_generated=include_generated, walked=_walked(tmp_path, walked))
    outcome = runner.run_file(job)
    assert outcome == _outcome_when_every_file_was_decoded(job)
    if name in ("lookalike.py", "found.py", "utf7.py"):
        assert outcome.findings, "a finding the test of the bytes must not drop"
    deferred = runner.run_file(job, defer=True)
    assert isinstance(deferred, runner.Deferred) == bool(outcome.findings)


def _walked(tmp_path, walked: bool) -> tuple[str, ...]:
    """`Job.walked` of a run over the whole of `tmp_path` (the project root of its files), or of none."""
    return (os.path.realpath(tmp_path),) if walked else ()


def test_a_file_over_the_size_limit_is_skipped_unread(tmp_path) -> None:
    from spmdfix import runner
    from spmdfix.model import Options
    from spmdfix.results import Checked, Skipped, Unreadable

    path = tmp_path / "big.py"
    path.write_bytes(b"x = 1\n" * 100)
    outcome = runner.run_file(runner.Job(path, "big.py", Options(), max_bytes=599))
    assert isinstance(outcome, Skipped) and "600 bytes is over the 599 bytes limit" in outcome.reason
    assert isinstance(runner.run_file(runner.Job(path, "big.py", Options(), max_bytes=600)), Checked)
    missing = runner.run_file(runner.Job(tmp_path / "missing.py", "missing.py", Options()))
    assert isinstance(missing, Unreadable) and missing.reason == "cannot read: No such file or directory"


@pytest.mark.parametrize("include_generated", [False, True])
@pytest.mark.parametrize("max_bytes", [None, 30])
@pytest.mark.parametrize("walked", [False, True])
def test_a_workers_batch_gets_the_outcomes_run_file_gives(tmp_path, include_generated, max_bytes, walked) -> None:
    """A worker's packed batch (`runner.wire.run_packed`, which packs the files their bytes clear without building
    a job or an outcome for them) gives, through pickling, the outcomes `run_file` gives each job: unreadable,
    too large, cleared, deferred and analysed files alike, and a module without vmap that names a spec, whose
    check is a partial run unless the run walks its whole project (it was packed as cleared: a run with
    workers over part of a project dropped the findings an importer's vmap places in such a module)."""
    import pickle

    from spmdfix import runner
    from spmdfix.model import Options
    from spmdfix.runner import wire

    size = {} if max_bytes is None else {"max_bytes": max_bytes}
    jobs = []
    for name in [*sorted(RUNNER_FILES), "missing.py"]:
        if name in RUNNER_FILES:
            (tmp_path / name).write_bytes(RUNNER_FILES[name])
        jobs.append(
            runner.Job(tmp_path / name, name, Options(), include_generated=include_generated, walked=_walked(tmp_path, walked), **size)
        )
    for defer in (False, True):
        packed = pickle.loads(pickle.dumps(wire.pack_jobs(jobs)))
        assert isinstance(packed, tuple), "the jobs share their settings: packed"
        sent = pickle.loads(pickle.dumps(wire.run_packed(packed, defer)))
        assert wire.unpack_results(sent, jobs) == [runner.run_file(job, defer) for job in jobs]


def _dropped_but_reported(paths) -> tuple[int, list[str]]:
    """(files the prefilter drops, those of them the analysis run anyway gives a finding or an SPMD910 record:
    the same records `source_analysis.analyse_tree` reports)."""
    dropped, wrong = 0, []
    for path in paths:
        try:
            source = decode(path, path.read_bytes()).text
            tree = ast.parse(source)
        except (OSError, SyntaxError, ValueError, UnicodeError):
            continue
        if may_have_findings(source):
            continue
        dropped += 1
        analyzer = Analyzer(ModuleModel.build(source, tree))
        facts = analyzer.facts()
        if plan_findings(facts) or any(vmap.unresolved for vmap in facts) or _placement_records(analyzer):
            wrong.append(str(path))
    return dropped, wrong


def _placement_records(analyzer: Analyzer) -> list:
    """The SPMD910 records of plain vmaps whose input's placement could not be read (issue 22), and of spmd
    vmaps whose `spmd_axis_name` could not be (`analyzer.unknown_spmd`: a wrapper forwarding its parameter,
    flax's nnx/transforms/iteration.py, which the prefilter had dropped), which `source_analysis.analyse_tree`
    reports."""
    return [*analyzer.unknown_placements, *analyzer.unknown_spmd]


def test_a_dropped_golden_or_test_module_gives_no_finding_and_no_spmd910_record() -> None:
    """Silence is a claim: a module the prefilter drops would give neither a finding nor an SPMD910 record
    (an spmd vmap the analysis could not follow) if analysed anyway. Over every golden module, the tests' and
    the fuzzer's modules and spmdfix's own."""
    root = GOLDEN.parent
    paths = [p for d in ("golden", "tests", "fuzz", "spmdfix", "safety", "examples") for p in (root / d).rglob("*.py")]
    dropped, wrong = _dropped_but_reported(paths)
    assert dropped > 200 and wrong == []


def test_a_dropped_module_of_the_corpus_gives_no_finding_and_no_spmd910_record() -> None:
    """The same over the eight public repositories of the benchmark corpus (bench/README.md), where
    `SPMDFIX_CORPUS` names its directory (built by bench/corpus.py; not in CI)."""
    corpus = os.environ.get("SPMDFIX_CORPUS")
    if not corpus:
        pytest.skip("SPMDFIX_CORPUS is not set: the corpus of bench/corpus.py is not on this machine")
    dropped, wrong = _dropped_but_reported(sorted(Path(corpus).rglob("*.py")))
    assert dropped > 3000 and wrong == []


# A def decorated by a plain vmap is applied where its name is called, and the analysis reads the placement
# in that call's scope among the loads of the def's own binding (`analysis.placement`): jax's test modules
# decorate a local `f` in one test and call another `f` beside a placement in the next.
DECORATED_APART = (
    "def test_a(xs):\n    @jax.vmap\n    def f(x):\n        return layer(x)\n    return f(xs)\n"
    f"def test_b():\n    f = jnp.sin\n    xs = {PLACEMENT}\n    return f(xs)\n"
)
DECORATED_TOGETHER = {
    "module-level def, called beside the placement": "@jax.vmap\ndef f(x):\n    return layer(x)\n"
    f"def test():\n    xs = {PLACEMENT}\n    return f(xs)\n",
    "local def, called beside the placement": f"def test():\n    xs = {PLACEMENT}\n"
    "    @jax.vmap\n    def f(x):\n        return layer(x)\n    return f(xs)\n",
    "partial decorator, jitted call": f"import functools\ndef test():\n    xs = {PLACEMENT}\n"
    "    @functools.partial(jax.vmap, in_axes=0)\n    def f(x):\n        return layer(x)\n    return jax.jit(f)(xs)\n",
}


def test_a_vmap_decorated_def_called_apart_from_every_placement_is_dropped_with_nothing_to_find() -> None:
    source = SCOPED_HEADER + DECORATED_APART
    assert _findings_without_prefilter(source) == []
    assert not may_have_findings(source)
    # Where a region may end early (a continuation line at column 0), every use of the name counts.
    assert may_have_findings(source + "def later():\n    y = (1,\n2)\n    return y\n")


@pytest.mark.parametrize("form", sorted(DECORATED_TOGETHER))
def test_a_vmap_decorated_def_called_beside_a_placement_passes_the_prefilter(form: str) -> None:
    source = SCOPED_HEADER + DECORATED_TOGETHER[form]
    assert {f.code for f in _findings_without_prefilter(source)} == {"SPMD006"}
    assert may_have_findings(source)


# A call of a vmap wrapper of another module of the project (issue 22): the text names no vmap, the site is the
# call passing `spmd_axis_name=` (or a `**dict` holding it). Kept, and the analysis with the project finds it.
WRAPPER_MODULE = """\
import jax


def batched(fn, **kw):
    return jax.vmap(fn, **kw)
"""
WRAPPER_CALLERS = {
    "keyword": "batched(step, spmd_axis_name='x')(xs)",
    "dict display": "batched(step, **{'spmd_axis_name': 'x'})(xs)",
    "dict call": "batched(step, **dict(spmd_axis_name='x'))(xs)",
}


@pytest.mark.parametrize("form", sorted(WRAPPER_CALLERS))
def test_a_call_of_a_vmap_wrapper_of_another_module_is_kept_and_found(tmp_path, form: str) -> None:
    from spmdfix import api

    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "helpers.py").write_text(WRAPPER_MODULE, encoding="utf-8")
    text = (
        "import numpy as np\nimport jax\nfrom jax.sharding import Mesh, PartitionSpec as P\n"
        "from helpers import batched\n"
        "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))\n"
        "def step(v):\n    return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n"
        "def main(xs):\n    return " + WRAPPER_CALLERS[form] + "\n"
    )
    assert "vmap" not in text and may_have_findings(text)
    path = tmp_path / "m.py"
    path.write_text(text, encoding="utf-8")
    found = api.analyse_source(text, path=path, index=api.new_project_index(tmp_path))
    assert sorted({f.code for f in found.findings}) == ["SPMD001", "SPMD002"]


def test_a_dropped_module_of_a_golden_tree_gives_nothing_analysed_with_its_project() -> None:
    """The same over the modules of every multi-module golden case, each analysed with its tree as the project
    (`api.analyse_source` with the project index, the prefilter's answer ignored): a module the prefilter drops
    gives neither a finding nor an SPMD910 record. A subclass applying its base class's vmap factory
    (`self.vec(step)`, unfollowed/tree_self_factory_inherited_*) is dropped: the record is the base class's
    module's (`analysis.inherited_factories`), and checked alone the subclass's module reports it through its
    partial run (`reaching.reached`, tests/test_golden_trees.py)."""
    from golden import modules, tree_cases

    from spmdfix.api import analyse_source, new_project_index

    dropped, wrong = 0, []
    for case in tree_cases():
        root = (case.path / "input").resolve()
        index = new_project_index(root)
        for path in modules(root):
            source = decode(path, path.read_bytes()).text
            if may_have_findings(source):
                continue
            dropped += 1
            result = analyse_source(source, case.options, path=path, index=index, prefiltered=True)
            if result.findings or result.unfollowed:
                wrong.append(str(path.relative_to(GOLDEN)))
    assert dropped > 20 and wrong == []


def test_may_be_on_a_chain_passes_a_call_in_a_function_or_an_import_of_the_project() -> None:
    """A module naming no reach word may still be a place of another module's chain (`reaching.places_in`):
    a function calling what it is given or imports; the bytes' form never says no where the text says yes."""
    from spmdfix.prefilter.reached import may_be_on_a_chain, may_be_on_a_chain_bytes, may_hold_reached

    on = ["def apply(f, x):\n    return f(x)\n", "step = lambda x: layer(x)\n", "from pkg.layers import residual\nSTEP = residual\n"]
    off = ["X = 1\n", "import numpy as np\nA = np.zeros(3)\n", "Y = 2  # no function, no import of the project\n"]
    for text in on:
        assert may_be_on_a_chain(text) and may_be_on_a_chain_bytes(text.encode()) and may_hold_reached(text), text
    for text in off:
        assert not may_be_on_a_chain(text), text
    assert not may_be_on_a_chain_bytes(b"X = 1\n")
