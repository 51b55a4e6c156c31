"""A `functools.partial` applied to the function it wraps, as the walk from a vmap meets it.

`JIT = partial(jax.jit, ...)` then `jax.vmap(JIT(f), ...)`, `g = JIT(f)` then `jax.vmap(g, ...)`, and
`partial(jax.jit, ...)(f)(v)` in a body reach `f` (silent before: "All checks passed!" while JAX raised);
a partial of a function of the project applied (`partial(wrap, k=1)(f)`) is an SPMD910 record; a shard_map
body calling what the walk does not follow leaves the fixes that keep the spmd vmap unproven (hazard H2).
Goldens: rename/jit_partial_*, unfollowed/partial_of_project_function_applied,
refuse/add_axis_body_calls_a_callable_parameter.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from spmdfix import project_graph
from spmdfix.api import analyse_source, new_project_index
from spmdfix.model import Options

HEAD = """\
from functools import partial

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def forward(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
"""


def _analyse(tail: str, tmp_path: Path | None = None):
    text = HEAD + textwrap.dedent(tail)
    if tmp_path is None:
        return analyse_source(text, Options())
    path = tmp_path.resolve() / "train.py"
    path.write_text(text)
    project_graph.forget_graphs()
    return analyse_source(text, Options(), path=path, index=new_project_index(tmp_path.resolve()))


def _codes(result) -> set[str]:
    return {f.code for f in result.findings}


def test_a_named_jit_partial_applied_to_the_vmapped_function_is_followed() -> None:
    result = _analyse(
        """
        JIT = partial(jax.jit, donate_argnums=())


        def run(xs):
            return jax.vmap(JIT(forward), spmd_axis_name='x')(xs)
        """
    )
    assert _codes(result) == {"SPMD001", "SPMD002"}


def test_a_name_bound_to_a_named_jit_partial_applied_reads_its_shardings() -> None:
    result = _analyse(
        """
        JIT = partial(jax.jit, out_shardings=NamedSharding(mesh, P('x')))


        def run(xs):
            g = JIT(lambda v: v * 2.0)
            return jax.vmap(g, spmd_axis_name='x')(xs)
        """
    )
    assert _codes(result) == {"SPMD005"}


def test_a_written_out_jit_partial_applied_in_the_body_is_followed() -> None:
    result = _analyse(
        """
        def run(xs):
            return jax.vmap(lambda v: partial(jax.jit, donate_argnums=())(forward)(v), spmd_axis_name='x')(xs)
        """
    )
    assert _codes(result) == {"SPMD001", "SPMD002"}


def test_a_partial_of_a_project_function_applied_is_a_record() -> None:
    for spelled in ("partial(wrap, k=1)(forward)(v)", "W(forward)(v)"):
        result = _analyse(
            f"""
            def wrap(fn, k):
                return fn


            W = partial(wrap, k=1)


            def run(xs):
                return jax.vmap(lambda v: {spelled}, spmd_axis_name='x')(xs)
            """
        )
        assert not result.findings, spelled
        whats = [u.what for u in result.unfollowed]
        assert any("what applying a partial of `wrap` gives is not followed" in w for w in whats), (spelled, whats)


def test_a_jit_partial_of_another_module_applied_is_a_record(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "probe"\n')
    (tmp_path / "config.py").write_text(
        "from functools import partial\nimport jax\nimport numpy as np\n"
        "from jax.sharding import Mesh, NamedSharding, PartitionSpec as P\n\n"
        "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))\n"
        "JIT = partial(jax.jit, out_shardings=NamedSharding(mesh, P('x')))\n"
    )
    result = _analyse(
        """
        from config import JIT


        def run(xs):
            return jax.vmap(JIT(lambda v: v * 2.0), spmd_axis_name='x')(xs)
        """,
        tmp_path,
    )
    whats = [u.what for u in result.unfollowed]
    assert any("`JIT` is a `functools.partial` of `jax.jit` in another module" in w for w in whats), whats


def test_a_body_calling_a_callable_parameter_leaves_add_axis_unproven() -> None:
    result = _analyse(
        """
        def wrap(fn, scale):
            return jax.shard_map(lambda b: fn(b) * scale, mesh=mesh, in_specs=P('x'), out_specs=P('x'))


        def step(v):
            return partial(wrap, scale=2.0)(lambda b: b + 1.0)(v)


        def run(xs):
            return jax.vmap(step, spmd_axis_name='x')(xs)
        """
    )
    assert _codes(result) == {"SPMD001", "SPMD002"}
    for finding in result.findings:
        kinds = {(f.transform.value, f.applicability.value) for f in finding.fixes}
        assert ("add-axis", "safe") not in kinds and ("rename", "safe") not in kinds, kinds


def test_a_callable_read_out_of_a_container_the_module_fills_is_a_record() -> None:
    result = _analyse(
        """
        def run(xs):
            fns = {'a': forward}
            return jax.vmap(fns.get('a'), spmd_axis_name='x')(xs)
        """
    )
    assert not result.findings
    whats = [u.what for u in result.unfollowed]
    assert any("`fns.get('a')` reads the callable out of a container" in w for w in whats), whats
