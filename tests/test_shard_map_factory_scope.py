"""A shard_map factory's arguments are read in the scope they are written in, not where it is applied.

`smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), out_specs=P(AX))` at module level with `AX = 'x'`,
applied as `smap(double)` (or `@smap`) in a function binding its own `AX = 'y'`: JAX reads the specs where the
partial is made ('x'). Read at the call they named 'y': a false collision with a vmap over 'y' whose SAFE
rename moved the vmap onto 'x', and the fixed program raised (goldens
clean/shard_map_factory_specs_read_in_its_own_scope and its decorator twin). `shard_maps.reading_scope` picks
the scope; arguments written in two scopes that bind a name differently give an SPMD910 record.
"""

from __future__ import annotations

import textwrap

from spmdfix.api import analyse_source
from spmdfix.model import Options

HEAD = """\
from functools import partial

import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
AX = 'x'


def double(b):
    return b * 2.0
"""


def _analyse(tail: str):
    return analyse_source(HEAD + textwrap.dedent(tail), Options())


def _codes(result) -> set[str]:
    return {f.code for f in result.findings}


def test_module_factory_applied_without_shadowing_reads_as_before() -> None:
    result = _analyse(
        """
        smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), out_specs=P(AX))


        def run(xs):
            return jax.vmap(smap(double), spmd_axis_name='x')(xs)
        """
    )
    assert _codes(result) == {"SPMD001", "SPMD002"}


def test_a_local_name_shadowing_the_factorys_reads_the_factorys() -> None:
    tail = """
        smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), out_specs=P(AX))


        def run(xs):
            AX = '{local}'
            return jax.vmap(smap(double), spmd_axis_name='{axis}')(xs)
        """
    assert not _analyse(tail.format(local="y", axis="y")).findings  # the specs name 'x'
    assert _codes(_analyse(tail.format(local="y", axis="x"))) == {"SPMD001", "SPMD002"}


def test_a_factory_made_in_the_function_applying_it_reads_its_locals() -> None:
    result = _analyse(
        """
        def run(xs):
            AX = 'y'
            smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), out_specs=P(AX))
            return jax.vmap(smap(double), spmd_axis_name='y')(xs)
        """
    )
    assert _codes(result) == {"SPMD001", "SPMD002"}


def test_a_partial_of_a_module_factory_made_in_a_function_reads_each_in_its_scope() -> None:
    tail = """
        smap0 = partial(jax.shard_map, mesh=mesh, out_specs=P(AX))


        def run(xs):
            AX = 'y'
            smap1 = partial(smap0, in_specs=P('x'))
            return jax.vmap(smap1(double), spmd_axis_name='{axis}')(xs)
        """
    assert not _analyse(tail.format(axis="y")).findings
    assert _codes(_analyse(tail.format(axis="x"))) == {"SPMD001", "SPMD002"}


def test_arguments_written_in_two_scopes_binding_a_name_differently_are_a_record() -> None:
    result = _analyse(
        """
        smap = partial(jax.shard_map, mesh=mesh, out_specs=P(AX))


        def run(xs):
            AX = 'y'
            SPEC = P(AX)
            return jax.vmap(smap(double, in_specs=SPEC), spmd_axis_name='y')(xs)
        """
    )
    assert not result.findings
    whats = [u.what for u in result.unfollowed]
    assert len(whats) == 1 and "written in two scopes that bind `AX` differently" in whats[0], whats


HELD = """
class Base:
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))

    def __call__(self, v):
        return self.smap(double)(v)
{tail}

def run(xs):
    return jax.vmap({vmapped}, spmd_axis_name='x')(xs)
"""


def test_a_factory_the_class_holds_is_read_through_self_and_through_the_class() -> None:
    assert _codes(_analyse(HELD.format(tail="", vmapped="Base()"))) == {"SPMD001", "SPMD002"}
    through_name = HELD.format(tail="\n\ndef f(v):\n    return Base.smap(double)(v)\n", vmapped="f")
    assert _codes(_analyse(through_name)) == {"SPMD001", "SPMD002"}


def test_a_factory_the_class_holds_given_again_elsewhere_is_a_record() -> None:
    for tail, vmapped in (
        ("\n\nclass Layer(Base):\n    smap = partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))\n", "Layer()"),
        ("\n\nlayer = Base()\nlayer.smap = partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))\n", "layer"),
        ("\n\nBase.smap = partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))\n", "Base()"),
    ):
        result = _analyse(HELD.format(tail=tail, vmapped=vmapped))
        assert not result.findings, tail
        whats = [u.what for u in result.unfollowed]
        assert any("holds a shard_map factory, and which one it holds here is not known" in w for w in whats), (tail, whats)


def test_a_factory_function_applied_is_read_with_its_parameters_bound() -> None:
    tail = """
        def make(spec):
            return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)


        def run(xs):
            return jax.vmap(make(P('x'))(double), spmd_axis_name='{axis}')(xs)
        """
    assert _codes(_analyse(tail.format(axis="x"))) == {"SPMD001", "SPMD002"}
    assert not _analyse(tail.format(axis="y")).findings


def test_a_factory_function_of_another_module_applied_is_a_record(tmp_path) -> None:
    from spmdfix import project_graph
    from spmdfix.api import new_project_index

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "probe"\n')
    (tmp_path / "shard.py").write_text(
        "from functools import partial\nimport jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\n"
        "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))\n\n\n"
        "def make(spec):\n    return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)\n"
    )
    text = HEAD + "from shard import make\n\n\ndef run(xs):\n    return jax.vmap(make(P('x'))(double), spmd_axis_name='x')(xs)\n"
    path = tmp_path.resolve() / "train.py"
    path.write_text(text)
    project_graph.forget_graphs()
    result = analyse_source(text, Options(), path=path, index=new_project_index(tmp_path.resolve()))
    assert not result.findings
    whats = [u.what for u in result.unfollowed]
    assert any("`make(...)` returns a shard_map factory of" in w for w in whats), whats
