"""README, "Helpers with arguments": which shardings spmdfix reads through a spec helper of the project, each
form as the README says it (newuser15: the sentence named jit's shardings only; measured here under an spmd vmap
whose every form names the spmd axis, where JAX raises). A form not read is an SPMD910 record, never silence:
`out_shardings=sharded()` at a jit was silence before (JAX raised `DuplicateSpecError`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spmdfix.api import analyse_source

ROOT = Path(__file__).resolve().parents[1]

HEADER = """\
import jax
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def rows():
    return P('data', None)


def sharded():
    return NamedSharding(MESH, P('data', None))


def f(x):
    return USE


g = jax.vmap(f, spmd_axis_name='data')
"""

JIT = "jax.jit(lambda v: v, out_shardings=SHARDING)(x)"
CONSTRAINT = "jax.lax.with_sharding_constraint(x, SHARDING)"


def _outcome(use: str, sharding: str) -> tuple[list[str], int]:
    result = analyse_source(HEADER.replace("USE", use.replace("SHARDING", sharding)))
    return [f.code for f in result.findings], len(result.unfollowed)


def test_a_named_sharding_written_at_a_jit_reads_the_helper_spec() -> None:
    assert _outcome(JIT, "NamedSharding(MESH, rows())") == (["SPMD005"], 0)


@pytest.mark.parametrize(
    "use, sharding",
    [(JIT, "sharded()"), (JIT, "rows()"), (CONSTRAINT, "rows()"), (CONSTRAINT, "NamedSharding(MESH, rows())"),
     (CONSTRAINT, "sharded()")],
)
def test_the_forms_not_read_are_records(use: str, sharding: str) -> None:
    assert _outcome(use, sharding) == ([], 1)


def test_the_readme_says_so_for_both() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    start = readme.index("**Helpers with arguments**")
    said = readme[start : readme.index("**Shard_map factories", start)]
    for form in ("`out_shardings=NamedSharding(MESH, rows())` is read", "`with_sharding_constraint`'s sharding",
                 "`out_shardings=sharded()`", "are SPMD910 records"):
        assert form in said, form
