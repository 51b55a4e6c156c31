"""The textual prefilter never drops a file that has a finding (soundness), and does drop plain files."""

from __future__ import annotations

import ast

import pytest

from golden import cases
from spmdfix.analysis import Analyzer
from spmdfix.files import decode
from spmdfix.plan import plan_findings
from spmdfix.prefilter import may_have_findings

CASES = cases()


def _findings_without_prefilter(source: str):
    return plan_findings(Analyzer(source, ast.parse(source)).facts())


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
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


def test_prefilter_drops_files_that_cannot_hold_a_finding() -> None:
    assert not may_have_findings("import jax\njax.vmap(f, spmd_axis_name='x')\n")
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
