"""spmdfix.analysis.uses / mesh_uses: uses of a value found by scope, classified against an allowlist."""

from __future__ import annotations

import ast
import textwrap

from spmdfix.analysis.mesh_uses import MeshUses
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.scopes import ModuleIndex
from spmdfix.analysis.uses import UseIndex

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
    return [u.text for u in MeshUses(ModuleModel.over(ix)).mesh_reads(ctor)]


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
    assert MeshUses(ModuleModel.over(ix)).device_reads(ctor) == []


def test_second_mesh_on_the_same_device_array_is_a_device_read() -> None:
    ix, ctor = _setup(
        """
        devs = np.array(jax.devices()).reshape(2, 4)
        mesh = Mesh(devs, ('x', 'y'))
        other = Mesh(devs, ('a', 'b'))
        """
    )
    reads = MeshUses(ModuleModel.over(ix)).device_reads(ctor)
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


def test_the_index_of_loads_is_every_load_a_tree_walk_finds() -> None:
    """`ModuleIndex.name_loads` comes from the scope walk, which does not enter a def's annotations: those are
    collected apart, so that no read of a value (a mesh named in an annotation, a default) is missed."""
    source = textwrap.dedent(
        """
        import jax
        mesh = jax.make_mesh((2,), ('x',))
        T = int
        def f(a: T = mesh, *b: T, c: 'T' = mesh, **d: T) -> T:
            return [mesh for _ in a if mesh] + (lambda m=mesh: m)()
        class C(T, metaclass=T):
            x: T = mesh
            def g(self, v: T) -> T:
                self.y = z = mesh
                return f"{mesh!r:{T}}"
        async def h(u: T) -> T:
            async for q in mesh:
                pass
        """
    )
    tree = ast.parse(source)
    ix = ModuleIndex(source, tree)
    walked = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    key = lambda n: (n.lineno, n.col_offset)  # noqa: E731
    loads = [n for names in ix.name_loads.values() for n in names]
    assert sorted(loads, key=key) == sorted(walked, key=key)
    assert len({id(n) for n in loads}) == len(loads)
    assert all(ix.loads_of(name) == sorted(names, key=key) for name, names in ix.name_loads.items())
    uses = UseIndex(ix)
    assert [n.lineno for n in uses.loads(ix.module_scope.bindings["T"][0])] == [5, 5, 5, 5, 7, 7, 8, 9, 9, 11, 12, 12]


def test_word_count_counts_as_the_word_boundary_regex_does() -> None:
    import re

    source = "def f(a): pass\nf(1)\nf_x = f\nx.f\n'f' + ff + _f + é_f + fé\nρ = ρρ + ρ\n"
    ix = ModuleIndex(source, ast.parse(source))
    for word in ("f", "ff", "_f", "x", "absent", "ρ", "a·b"):
        assert ix.word_count(word) == len(re.findall(rf"\b{re.escape(word)}\b", source)), word


def test_word_count_leaves_out_comments_and_docstrings_not_other_strings() -> None:
    # A docstring or comment naming a helper's call is prose (breaker4: `data_parallel("data")` in a module's
    # docstring made the helper "used other than by a call", its parameters unread); a string elsewhere may be
    # a use (`getattr(module, "f")`), and a `#` inside a string starts no comment.
    source = (
        '"""Run `f("data")` over the mesh; f is the layer."""\n'
        "def f(a):\n"
        "    'f again, and g'\n"
        "    return a  # f\n"
        "class C:\n"
        '    """f"""\n'
        "# f at the start of a line\n"
        "f(1)\n"
        "g = getattr(m, 'f')\n"
        "h = '#' + str(f)\n"
    )
    ix = ModuleIndex(source, ast.parse(source))
    assert ix.word_count("f") == 4  # def f, f(1), 'f' in getattr, str(f)
    assert ix.word_count("g") == 1


# Issue 23 kind 2 (safety/measurements/add_axis_mesh_through_array.py): the mesh read through an array placed
# on it is a use of the mesh, judged by the same allowlist.
def test_mesh_reads_through_a_placed_array_are_reported_with_their_use() -> None:
    reads = _reads(
        """
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
        row = NamedSharding(mesh, P('y'))
        xs = jax.device_put(np.ones((4, 8)), row)
        groups = xs.sharding.mesh.devices.shape[0]
        n = len(jax.typeof(xs).sharding.mesh.axis_names)
        s = xs.sharding
        k = s.mesh.axis_sizes[0]
        t = jax.typeof(xs)
        u = t.sharding.num_devices
        same = xs.sharding == row
        names = row.mesh.axis_names
        ys = jax.lax.with_sharding_constraint(np.ones((4, 8)), NamedSharding(mesh, P('x')))
        shapes = tuple(ys.sharding.mesh.shape.values())
        """
    )
    assert reads == [
        "groups = xs.sharding.mesh.devices.shape[0]",
        "len(jax.typeof(xs).sharding.mesh.axis_names)",
        "k = s.mesh.axis_sizes[0]",
        "u = t.sharding.num_devices",
        "xs.sharding",  # `same = xs.sharding == row`: a comparison is no use on the list
        "row",  # the same comparison reads the NamedSharding value too
        "names = row.mesh.axis_names",
        "ys.sharding.mesh.shape.values()",
    ]


def test_allowlisted_reads_through_a_placed_array_are_not_reported() -> None:
    assert _reads(
        """
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
        xs = jax.device_put(np.ones((4, 8)), NamedSharding(mesh, P('y')))
        spec = xs.sharding.spec
        rank = len(jax.typeof(xs).sharding.spec)
        n = xs.sharding.mesh.size + xs.sharding.mesh.shape['y'] + jax.typeof(xs).sharding.mesh.shape['y']
        ws = jax.device_put(np.ones((4, 8)), xs.sharding)
        zs = jax.device_put(xs, NamedSharding(xs.sharding.mesh, P(None, 'x')))
        f = jax.shard_map(lambda b: b, mesh=xs.sharding.mesh, in_specs=P('x'), out_specs=P('x'))
        m = xs.sharding.mesh
        k = m.shape['x']
        """
    ) == []


def test_arrays_placed_again_on_the_mesh_are_followed() -> None:
    reads = _reads(
        """
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
        xs = jax.device_put(np.ones((4, 8)), NamedSharding(mesh, P('y')))
        ws = jax.device_put(np.ones((4, 8)), xs.sharding)
        zs = jax.device_put(xs, NamedSharding(ws.sharding.mesh, P(None, 'x')))
        opaque = helper(zs.sharding)
        """
    )
    assert reads == ["helper(zs.sharding)"]


def test_typeof_sharding_places_nothing_it_was_not_measured_to() -> None:
    reads = _reads(
        """
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
        xs = jax.device_put(np.ones((4, 8)), NamedSharding(mesh, P('y')))
        ws = jax.device_put(np.ones((4, 8)), jax.typeof(xs).sharding)
        """
    )
    assert reads == ["jax.device_put(np.ones((4, 8)), jax.typeof(xs).sharding)"]


def test_sharding_mesh_reads_of_arrays_not_visibly_placed_are_reported() -> None:
    reads = _reads(
        """
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))

        def layer(v, w):
            n = len(jax.typeof(v).sharding.mesh.axis_names)
            s = w.sharding
            fine = s.spec, s.mesh.shape['x'], jax.sharding.PartitionSpec('x')
            return s.mesh.devices.shape, n, w.sharding
        """
    )
    assert reads == [
        "len(jax.typeof(v).sharding.mesh.axis_names)",
        "s.mesh.devices.shape, n, w.sharding",  # the `s.mesh.devices.shape` of the returned tuple
        "s.mesh.devices.shape, n, w.sharding",  # and `w.sharding` returned, which may be read elsewhere
    ]


def test_golden_add_axis_refusals_name_the_read_through_the_array() -> None:
    from golden import GOLDEN
    from spmdfix.api import check_source
    from spmdfix.model import Applicability, Transform

    wanted = {
        "refuse/add_axis_mesh_read_through_array": "`groups = xs.sharding.mesh.devices.shape[0]` (line 19)",
        "refuse/add_axis_mesh_read_typeof_in_vmap": "`sizes = jax.typeof(x).sharding.mesh.axis_sizes` (line 14)",
    }
    for case, use in wanted.items():
        source = (GOLDEN / case / "input.py").read_text(encoding="utf-8")
        fixes = [f.fix_for(Transform.ADD_AXIS) for f in check_source(source) if f.code == "SPMD001"]
        assert fixes and fixes[0] is not None, case
        assert fixes[0].applicability == Applicability.UNSAFE, case
        assert use in fixes[0].reason, fixes[0].reason


def test_shardings_passed_to_the_modules_own_code_are_reported_and_to_jax_are_not() -> None:
    reads = _reads(
        """
        mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
        row = NamedSharding(mesh, P(None, 'x'))
        run = jax.jit(lambda v: v, in_shardings=(row, None), out_shardings={'a': row})
        ok = isinstance(row, NamedSharding)

        def groups(s):
            return s.mesh.devices.shape[0]

        def layer(v):
            return v * groups(v.sharding)

        n = groups(row)
        """
    )
    assert reads == ["groups(v.sharding)", "groups(row)"]
