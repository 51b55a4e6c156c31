"""rename and the shardings of a jax.jit applied inside the vmapped function (issue 23, kind 1).

Measured (safety/measurements/rename_reached_shardings.py, jax 0.10.2): a `jax.jit(..., out_shardings=/
in_shardings=NamedSharding(mesh, P(None, 'y')))` inside a function vmapped with `spmd_axis_name='y'` raises
`DuplicateSpecError`; naming the old spmd axis, a `device_put` / `reshard` inside the vmap, and a jit outside the
vmap (`jax.jit(jax.vmap(f, ...), out_shardings=...)`, a jit decorator above the vmap decorator) run. So an axis
those inner shardings name is not a free target for rename; a sharding spmdfix cannot read makes rename unsafe
and the reason names it.
"""

from __future__ import annotations

import textwrap

import pytest

from spmdfix.api import check_source, new_project_index

HEADER = """\
from functools import partial
import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
mesh3 = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))
mesh2 = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
"""

SHARD = "jax.shard_map(lambda b: b + 1.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))"


def _rename(source: str, mesh: str = "mesh3"):
    """The rename fix (or refusal) of the first finding of `source` (after HEADER), MESH and SHARD filled in."""
    text = HEADER + textwrap.dedent(source).replace("SHARD", SHARD).replace("MESH", mesh)
    findings = check_source(text)
    assert findings, text
    fix = next((f for f in findings[0].fixes if f.transform.value == "rename"), None)
    refusal = next((r for r in findings[0].refusals if r.transform.value == "rename"), None)
    return fix, refusal


def _target(fix) -> str:
    """The axis a rename fix points spmd_axis_name at (its first edit's literal)."""
    return fix.node_edits[0].code.strip("'\"")


# Spellings of a jit applied inside the vmapped function whose shardings name 'y': rename skips 'y'.
INNER_JITS = {
    "call_out_shardings": """
        def f(v):
            h = SHARD(v)
            return jax.jit(lambda t: t * 3.0, out_shardings=NamedSharding(MESH, P(None, 'y')))(h)
        """,
    "call_in_shardings": """
        def f(v):
            h = SHARD(v)
            return jax.jit(lambda t: t * 3.0, in_shardings=NamedSharding(MESH, P(None, 'y')))(h)
        """,
    "named_sharding_constant": """
        COLS = NamedSharding(MESH, P(None, 'y'))
        def f(v):
            return jax.jit(lambda t: t * 3.0, out_shardings=COLS)(SHARD(v))
        """,
    "pytree_and_bare_spec": """
        def f(v):
            return jax.jit(lambda a, b: a * b, in_shardings=(P('y', None), None))(SHARD(v), v)
        """,
    "partial_decorator_below_vmap": """
        @partial(jax.jit, out_shardings=NamedSharding(MESH, P('y', None)))
        def g(t):
            return t * 3.0
        def f(v):
            return g(SHARD(v))
        """,
    "jit_without_function_as_decorator": """
        @jax.jit(out_shardings=NamedSharding(MESH, P('y', None)))
        def g(t):
            return t * 3.0
        def f(v):
            return g(SHARD(v))
        """,
    "module_level_jitted_value": """
        def h(t):
            return t * 3.0
        g = jax.jit(h, out_shardings=NamedSharding(MESH, P(None, 'y')))
        def f(v):
            return g(SHARD(v))
        """,
    "pjit_positional": """
        from jax.experimental.pjit import pjit
        def f(v):
            return pjit(lambda t: t * 3.0, None, NamedSharding(MESH, P(None, 'y')))(SHARD(v))
        """,
}


@pytest.mark.parametrize("name", INNER_JITS)
def test_rename_skips_an_axis_named_by_an_inner_jit_sharding(name: str) -> None:
    source = textwrap.dedent(INNER_JITS[name]) + "jax.vmap(f, spmd_axis_name='x')(np.ones((4, 8, 8)))\n"
    fix, _ = _rename(source)
    assert fix is not None and fix.applicability.value == "safe" and _target(fix) == "z", name
    # On a mesh whose only other axis is 'y', rename is not offered, and the refusal names the jit's sharding.
    fix, refusal = _rename(source, "mesh2")
    assert fix is None and refusal is not None, name
    assert refusal.reason.startswith("no free mesh axis") and "of the jax.jit at line" in refusal.reason, name
    assert "DuplicateSpecError" in refusal.reason and "`'y'` by `" in refusal.reason, name


# Shardings that leave 'y' a free target: measured to run after the rename (or outside the vmap).
NOT_INNER = {
    "device_put_inside": """
        def f(v):
            return jax.device_put(SHARD(v), NamedSharding(MESH, P(None, 'y')))
        jax.vmap(f, spmd_axis_name='x')(np.ones((4, 8, 8)))
        """,
    "jit_sharding_names_the_old_axis": """
        def f(v):
            return jax.jit(lambda t: t * 3.0, out_shardings=NamedSharding(MESH, P(None, 'x')))(SHARD(v))
        jax.vmap(f, spmd_axis_name='x')(np.ones((4, 8, 8)))
        """,
    "outer_jit_of_the_vmap": """
        def f(v):
            return SHARD(v)
        step = jax.jit(jax.vmap(f, spmd_axis_name='x'), out_shardings=NamedSharding(MESH, P(None, None, 'y')))
        step(np.ones((4, 8, 8)))
        """,
    "jit_decorator_above_the_vmap_decorator": """
        @partial(jax.jit, out_shardings=NamedSharding(MESH, P(None, None, 'y')))
        @partial(jax.vmap, spmd_axis_name='x')
        def f(v):
            return SHARD(v)
        f(np.ones((4, 8, 8)))
        """,
}


@pytest.mark.parametrize("name", NOT_INNER)
def test_shardings_outside_the_vmap_or_not_of_a_jit_leave_the_axis_free(name: str) -> None:
    fix, _ = _rename(NOT_INNER[name], "mesh2")
    assert fix is not None and fix.applicability.value == "safe" and _target(fix) == "y", name


def test_a_jit_decorator_below_the_vmap_decorator_is_inside() -> None:
    source = """
        @partial(jax.vmap, spmd_axis_name='x')
        @partial(jax.jit, out_shardings=NamedSharding(MESH, P(None, 'y')))
        def f(v):
            return SHARD(v)
        """
    fix, refusal = _rename(source, "mesh2")
    assert fix is None and "of the jax.jit at line" in refusal.reason


UNREADABLE = {
    "a_call_spmdfix_does_not_model": ("out_shardings=replicated(MESH)", "`out_shardings=replicated(mesh3)`"),
    "a_parameter": ("in_shardings=sh", "`in_shardings=sh`"),
    "kwargs": ("**opts", "`**opts`"),
}


@pytest.mark.parametrize("name", UNREADABLE)
def test_a_jit_sharding_spmdfix_cannot_read_makes_rename_unsafe_naming_it(name: str) -> None:
    argument, named = UNREADABLE[name]
    source = f"""
        def replicated(m):
            return NamedSharding(m, P())
        def f(v, sh, opts):
            return jax.jit(lambda t: t * 3.0, {argument})(SHARD(v))
        jax.vmap(f, spmd_axis_name='x', in_axes=(0, None, None))(np.ones((4, 8)), None, {{}})
        """
    fix, _ = _rename(source)
    assert fix is not None and fix.applicability.value == "unsafe", name
    assert f"{named} of the jax.jit at line" in fix.reason and "could not be read" in fix.reason, name


def test_a_jit_in_another_module_of_the_project_is_followed_and_named(tmp_path) -> None:
    """The vmapped function calls a helper of another module that jits with out_shardings over 'y': the
    refusal names that sharding and the module it is written in."""
    (tmp_path / "pyproject.toml").write_text("")
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "layers.py").write_text(textwrap.dedent("""\
        import jax
        import numpy as np
        from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
        def block(h):
            return jax.jit(lambda t: t * 3.0, out_shardings=NamedSharding(mesh, P(None, 'y')))(h)
        """))
    run = tmp_path / "run.py"
    run.write_text(textwrap.dedent("""\
        import jax
        import numpy as np
        from jax.sharding import PartitionSpec as P
        from pkg.layers import block, mesh
        def forward(v):
            return block(jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v))
        jax.vmap(forward, spmd_axis_name='x')(np.ones((4, 8, 8)))
        """))
    findings = check_source(run.read_text(), path=run, index=new_project_index(tmp_path))
    refusal = next(r for r in findings[0].refusals if r.transform.value == "rename")
    # (the module is named relative to the working directory, as the other-modules notes are)
    assert "of the jax.jit at line 6 in " in refusal.reason and "pkg/layers.py:" in refusal.reason, refusal.reason
