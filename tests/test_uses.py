"""spmdfix.analysis.uses / mesh_uses: uses of a value found by scope, classified against an allowlist."""

from __future__ import annotations

import ast
import textwrap

from spmdfix.analysis.mesh_uses import MeshUses
from spmdfix.analysis.scopes import ModuleIndex
from spmdfix.analysis.uses import UseIndex
from spmdfix.analysis.values import Evaluator

HEADER = """\
import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
"""


def _setup(body: str):
    source = HEADER + textwrap.dedent(body)
    ix = ModuleIndex(source, ast.parse(source))
    ctor = next(c for c in ix.calls if ix.qualname(c.func, ix.scope_at(c)) == "jax.sharding.Mesh")
    return ix, ctor


def _reads(body: str) -> list[str]:
    ix, ctor = _setup(body)
    return [u.text for u in MeshUses(ix, Evaluator(ix)).mesh_reads(ctor)]


def test_loads_follow_scopes_not_names() -> None:
    ix, ctor = _setup(
        """
        devices = np.array(jax.devices()).reshape(2, 4)
        mesh = Mesh(devices, ('x', 'y'))

        def other():
            devices = jax.devices()
            return devices
        """
    )
    assert MeshUses(ix, Evaluator(ix)).device_reads(ctor) == []


def test_second_mesh_on_the_same_device_array_is_a_device_read() -> None:
    ix, ctor = _setup(
        """
        devs = np.array(jax.devices()).reshape(2, 4)
        mesh = Mesh(devs, ('x', 'y'))
        other = Mesh(devs, ('a', 'b'))
        """
    )
    reads = MeshUses(ix, Evaluator(ix)).device_reads(ctor)
    assert [(u.line, u.text) for u in reads] == [(7, "Mesh(devs, ('a', 'b'))")]


def test_allowlisted_uses_are_not_reported() -> None:
    assert _reads(
        """
        AX = 'x'
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
        n = mesh.size // mesh.shape['x'] + mesh.shape[AX] + mesh.devices.size
        s = NamedSharding(mesh, P('x', None))
        f = jax.shard_map(lambda b: b, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
        with jax.set_mesh(mesh):
            pass
        with mesh:
            pass
        """
    ) == []


def test_reads_of_rank_and_layout_are_reported_with_their_use() -> None:
    reads = _reads(
        """
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
        alias = mesh
        n_a, n_b = alias.devices.shape
        k = len(mesh.shape)
        s = NamedSharding(mesh, P(*mesh.axis_names))
        names = len(mesh.axis_names)
        for a in mesh.shape:
            pass
        helper(mesh)
        key = mesh.shape[k]
        """
    )
    assert reads == [
        "n_a, n_b = alias.devices.shape",
        "len(mesh.shape)",
        "NamedSharding(mesh, P(*mesh.axis_names))",
        "P(*mesh.axis_names)",
        "len(mesh.axis_names)",
        "for a in mesh.shape:",
        "helper(mesh)",
        "key = mesh.shape[k]",
    ]


def test_a_factory_function_is_followed_to_each_call() -> None:
    reads = _reads(
        """
        def make():
            return Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))

        mesh = make()
        other = make()
        print(other.axis_names)
        table = {'make': make}
        """
    )
    assert reads == ["print(other.axis_names)", "{'make': make}"]


def test_uses_of_a_reassigned_name_are_end_uses() -> None:
    ix = ModuleIndex("m = 1\nm = 2\nprint(m)\n", ast.parse("m = 1\nm = 2\nprint(m)\n"))
    first = next(b for b in ix.module_scope.bindings["m"] if b.node.lineno == 1)
    index = UseIndex(ix)
    assert [n.lineno for n in index.loads(first)] == [3]
    assert [u.lineno for u in index.uses_of_value(first.node)] == [1]


def test_context_mesh_getters_are_reads_when_the_mesh_is_the_context() -> None:
    body = """
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
        def f():
            n = jax.sharding.get_abstract_mesh().shape['x']
            return P(*jax.sharding.get_abstract_mesh().axis_names)
        """
    assert _reads(body) == []  # never the context mesh: the getters return another one
    assert _reads(body.rstrip() + "\n        with jax.set_mesh(mesh):\n            f()\n") == ["P(*jax.sharding.get_abstract_mesh().axis_names)"]
