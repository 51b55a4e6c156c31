"""Issue 22 (kinds 1-4, 8): the values the analysis resolves through the evaluator, and where it still says it
stopped (SPMD910) rather than guess. The runnable programs of each kind are golden cases (`value_*`,
`refuse/strip_spec_from_helper`, `refuse/capture_*_bound`); these are the edges around them."""

from __future__ import annotations

import textwrap
from pathlib import Path

from spmdfix import api

HEAD = """\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
"""


def _analyse(tmp_path: Path, tail: str):
    text = HEAD + textwrap.dedent(tail)
    path = tmp_path / "m.py"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    analysis = api.analyse_source(text, path=path, index=api.new_project_index(tmp_path))
    return sorted({f.code for f in analysis.findings}), [u.what for u in analysis.unfollowed]


def test_a_parameter_default_no_caller_passes_is_the_spmd_axis(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def accumulate(fun, batch, spmd_axis_name='x'):
            return jax.vmap(fun, spmd_axis_name=spmd_axis_name)(batch)

        def main(xs):
            return accumulate(body, xs)
        """)
    assert codes == ["SPMD001", "SPMD002"] and lost == []


def test_a_default_one_caller_overrides_is_not_known(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def accumulate(fun, batch, spmd_axis_name='x'):
            return jax.vmap(fun, spmd_axis_name=spmd_axis_name)(batch)

        def main(xs):
            return accumulate(body, xs) + accumulate(body, xs, spmd_axis_name='y')
        """)
    assert codes == [] and lost == [
        "the value of `spmd_axis_name` (`spmd_axis_name`) is not known: `spmd_axis_name` is a parameter of "
        "`accumulate` (line 11), and its 2 calls (line 15) do not all pass one value spmdfix reads"
    ]


def test_one_call_passing_a_name_not_read_says_what_it_passes(tmp_path: Path) -> None:
    # One call cannot "not all pass one value": the record said "its 1 call(s) ... do not all pass one value"
    # for a sweep over axis names (newuser6). It names what the call passes.
    codes, lost = _analyse(tmp_path, """
        def sweep(xs, axis):
            return jax.vmap(body, spmd_axis_name=axis)(xs)

        def run_sweep(xs, axes):
            return [sweep(xs, a) for a in axes]
        """)
    assert codes == [] and lost == [
        "the value of `spmd_axis_name` (`axis`) is not known: `axis` is a parameter of `sweep` (line 11), "
        "and its one call (line 15) passes `a`, whose value spmdfix does not read"
    ]


def test_kwargs_forwarded_by_two_callers_are_two_sites(tmp_path: Path) -> None:
    # A wrapper forwarding its `**kw` to the vmap of its parameter: each call is a site of its own, with its
    # own function and axis (the 'x' call collides with body's P('x'); the 'y' call does not).
    codes, lost = _analyse(tmp_path, """
        def batched(fn, **kw):
            return jax.vmap(fn, **kw)

        def main(xs):
            return batched(body, spmd_axis_name='x')(xs) + batched(body, spmd_axis_name='y')(xs)
        """)
    assert codes == ["SPMD001", "SPMD002"] and lost == []


def test_kwargs_of_a_wrapper_with_a_fixed_function_passed_by_two_callers_are_not_known(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def batched(**kw):
            return jax.vmap(body, **kw)

        def main(xs):
            return batched(spmd_axis_name='x')(xs) + batched(spmd_axis_name='y')(xs)
        """)
    assert codes == [] and lost == [
        "the value of `spmd_axis_name` (`kw`) is not known: `kw` is the `*`/`**` parameter of `batched` (line 11), "
        "and its 2 calls (line 15) do not all pass one value spmdfix reads"
    ]


def test_a_two_level_wrapper_forwarding_kwargs_is_the_site_of_its_call(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def inner(fn, **kw):
            return jax.vmap(fn, **kw)

        def batched(fn, **kw):
            return inner(fn, **kw)

        def main(xs):
            return batched(body, spmd_axis_name='x')(xs)
        """)
    assert codes == ["SPMD001", "SPMD002"] and lost == []


def test_a_kwargs_dict_filled_by_update_is_read(tmp_path: Path) -> None:
    for fill in ("opts.update(spmd_axis_name=AX)", "opts.update({'spmd_axis_name': AX})",
                 "opts.setdefault('spmd_axis_name', AX)", "opts['spmd_axis_name'] = AX"):
        codes, lost = _analyse(tmp_path, f"""
            AX = 'x'

            def main(xs):
                opts = {{'in_axes': 0}}
                {fill}
                return jax.vmap(body, **opts)(xs)
            """)
        assert codes == ["SPMD001", "SPMD002"] and lost == [], fill


def test_a_kwargs_dict_whose_key_is_stored_over_is_not_read_as_its_display(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def main(xs):
            opts = {'spmd_axis_name': 'y'}
            opts.update(spmd_axis_name='x')
            return jax.vmap(body, **opts)(xs)
        """)
    assert codes == [] and lost == ["the value of `spmd_axis_name` (`opts`) is not known: `opts` is assigned on line 12, where `{'spmd_axis_name': 'y'}` is an expression spmdfix does not evaluate"]


def test_kwargs_forwarded_without_the_spmd_keyword_are_no_site(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def batched(fn, **kw):
            return jax.vmap(fn, **kw)

        def main(xs):
            return batched(body, in_axes=0)(xs)
        """)
    assert codes == [] and lost == []


def test_a_kwargs_store_under_a_condition_is_not_known(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def main(xs, wide):
            opts = {}
            if wide:
                opts["spmd_axis_name"] = 'x'
            return jax.vmap(body, **opts)(xs)
        """)
    assert codes == [] and lost == [
        "the value of `spmd_axis_name` (`opts['spmd_axis_name']`) is not known: `opts['spmd_axis_name']` is stored "
        "under a condition (line 14), so it may be unset"
    ]


def test_a_kwargs_store_under_is_not_none_is_the_value(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        AX = 'x'

        def main(xs):
            opts = {}
            if AX is not None:
                opts["spmd_axis_name"] = AX
            return jax.vmap(body, **opts)(xs)
        """)
    assert codes == ["SPMD001", "SPMD002"] and lost == []


def test_a_kwargs_dict_changed_another_way_is_not_read(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def main(xs, more):
            opts = {}
            opts["spmd_axis_name"] = 'x'
            opts.update(more)
            return jax.vmap(body, **opts)(xs)
        """)
    assert codes == []


def test_self_attribute_a_subclass_redefines_is_not_read(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        class Layer:
            AXIS = 'x'

            def __call__(self, v):
                return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(v)

        class Other(Layer):
            AXIS = 'y'

        def main(xs):
            return jax.vmap(Layer(), spmd_axis_name='x')(xs)
        """)
    assert "SPMD001" not in codes


def test_init_default_a_construction_overrides_is_not_read(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        class Layer:
            def __init__(self, axis='x'):
                self.axis = axis

            def __call__(self, v):
                return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P(self.axis), out_specs=P(self.axis))(v)

        def main(xs):
            layer = Layer()
            other = Layer('y')
            return jax.vmap(layer, spmd_axis_name='x')(xs)
        """)
    assert "SPMD001" not in codes


def test_a_spec_helper_binds_each_call_its_own_arguments(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def spec(axis):
            return P(axis)

        def other(v):
            return jax.shard_map(lambda b: b, mesh=mesh, in_specs=spec('y'), out_specs=spec('y'))(v)

        def third(v):
            return jax.shard_map(lambda b: b, mesh=mesh, in_specs=spec('x'), out_specs=spec('x'))(v)

        def main(xs):
            return jax.vmap(third, spmd_axis_name='y')(xs)

        def collide(xs):
            return jax.vmap(other, spmd_axis_name='y')(xs)
        """)
    # `spec` is called with 'y' and with 'x': each call's spec is its own argument's (no common value), so
    # `third` (P('x')) under spmd 'y' is clean and `other` (P('y')) under spmd 'y' collides.
    assert codes == ["SPMD001", "SPMD002"] and lost == []


def test_an_annotation_naming_a_protocol_is_not_an_instance(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        from typing import Protocol

        class StageFn(Protocol):
            def __call__(self, v): ...

        def forward(fn: StageFn, v):
            return fn(v)

        f = jax.vmap(forward, in_axes=(None, 0), spmd_axis_name='x')
        """)
    assert codes == [] and lost == ["`fn` is a parameter: which callable it receives is not known"]


def test_an_annotated_class_a_subclass_redefines_is_not_followed(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        class Block:
            def __call__(self, v):
                return body(v)

        class Wide(Block):
            def __call__(self, v):
                return v

        def forward(block: Block, v):
            return block(v)

        f = jax.vmap(forward, in_axes=(None, 0), spmd_axis_name='x')
        """)
    assert codes == [] and lost == ["`block` is a parameter: which callable it receives is not known"]


def test_a_field_default_a_construction_gives_is_not_read(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        from dataclasses import dataclass

        @dataclass
        class Layer:
            AXIS: str = 'x'

            def __call__(self, v):
                return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(v)

        def main(xs):
            return jax.vmap(Layer(AXIS='y'), spmd_axis_name='x')(xs)
        """)
    assert "SPMD001" not in codes


def test_a_class_attribute_set_on_an_instance_is_not_read(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        class Layer:
            AXIS = 'x'

            def __call__(self, v):
                return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(v)

        def main(xs):
            layer = Layer()
            layer.AXIS = 'y'
            return jax.vmap(layer, spmd_axis_name='x')(xs)
        """)
    assert "SPMD001" not in codes


def test_a_method_of_an_instance_whose_class_a_subclass_redefines_it_in_is_still_its_own(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        class Block:
            def apply(self, v):
                return v

        class Wide(Block):
            def apply(self, v):
                return body(v)

        def main(xs):
            blk = Block()
            return jax.vmap(blk.apply, spmd_axis_name='x')(xs)
        """)
    # `blk` is a `Block` (built here), whose `apply` reaches no shard_map; a subclass's redefinition is not
    # followed for it, nor reported as lost: the walk does not know more than the class built.
    assert "SPMD001" not in codes


def test_a_method_of_an_annotated_class_a_subclass_redefines_is_a_lost_place(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        class Block:
            def apply(self, v):
                return v

        class Wide(Block):
            def apply(self, v):
                return body(v)

        def forward(block: Block, v):
            return block.apply(v)

        f = jax.vmap(forward, in_axes=(None, 0), spmd_axis_name='x')
        """)
    assert codes == [] and lost == ["`block.apply`: a subclass redefines `apply`; which one runs is not known"]


def test_an_unreadable_spec_entry_on_a_reached_shard_map_is_a_place_with_why(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def axis_of_the_day():
            return open('axis.txt').read()

        class Layer:
            AXIS = axis_of_the_day()

            def __call__(self, v):
                return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P(self.AXIS, None), out_specs=P())(v)

        def main(xs):
            return jax.vmap(Layer(), spmd_axis_name='x')(xs)
        """)
    assert codes == []
    assert lost == [
        "the PartitionSpec entry `self.AXIS` is not known: `AXIS` is assigned on line 15, where "
        "`axis_of_the_day(...)` is a call spmdfix does not evaluate"
    ]


def test_an_unreadable_specs_name_on_a_reached_shard_map_is_a_place_with_why(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        SPECS = P('x')
        SPECS = P('y')

        def f(v):
            return jax.shard_map(lambda b: b, mesh=mesh, in_specs=SPECS, out_specs=P())(v)

        def main(xs):
            return jax.vmap(f, spmd_axis_name='x')(xs)
        """)
    assert codes == []
    assert lost == ["the spec `SPECS` is not known: `SPECS` is bound 2 times (lines 11, 12), so its value where it is read is not known"]


def test_a_readable_spec_entry_gives_the_finding_and_no_place(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        class Layer:
            AXIS = 'x'

            def __call__(self, v):
                return jax.shard_map(lambda b: b, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(v)

        def main(xs):
            return jax.vmap(Layer(), spmd_axis_name='x')(xs)
        """)
    assert codes == ["SPMD001", "SPMD002"] and lost == []


def test_an_unreadable_spec_of_a_shard_map_no_spmd_vmap_reaches_is_no_place(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        def g(v, spec):
            return jax.shard_map(lambda b: b, mesh=mesh, in_specs=spec, out_specs=spec)(v)

        def main(xs):
            return jax.vmap(body, spmd_axis_name='y')(xs)
        """)
    assert lost == []


def test_a_vmap_factory_held_by_self_is_the_site_of_its_method(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        import functools

        class T:
            def __init__(self, axis):
                self.vec = functools.partial(jax.vmap, spmd_axis_name=axis)

            def run(self, x):
                return self.vec(body)(x)

        t = T('x')

        def main(xs):
            return t.run(xs)
        """)
    assert codes == ["SPMD001", "SPMD002"] and lost == []


def test_a_vmap_factory_held_by_self_and_set_twice_is_not_known(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        import functools

        class T:
            def __init__(self, axis, wide):
                self.vec = functools.partial(jax.vmap, spmd_axis_name=axis)
                if wide:
                    self.vec = jax.vmap

            def run(self, x):
                return self.vec(body)(x)

        def main(xs):
            return T('x', False).run(xs)
        """)
    assert codes == [] and len(lost) == 1
    assert lost[0].startswith("the value of `spmd_axis_name` (`self.vec`) is not known")


def test_a_vmap_factory_held_by_self_of_a_class_built_elsewhere_is_not_known(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        import functools

        class T:
            def __init__(self, axis):
                self.vec = functools.partial(jax.vmap, spmd_axis_name=axis)

            def run(self, x):
                return self.vec(body)(x)
        """)
    assert codes == [] and len(lost) == 1 and "`axis` is a parameter of `T.__init__`" in lost[0]


def test_a_method_inherited_from_a_class_of_another_module_is_followed(tmp_path: Path) -> None:
    (tmp_path / "blocks.py").write_text(HEAD + textwrap.dedent("""
        class Block:
            def apply(self, v):
                return body(v)
        """), encoding="utf-8")
    codes, lost = _analyse(tmp_path, """
        from blocks import Block

        class Wide(Block):
            pass

        def main(xs):
            blk = Wide()
            return jax.vmap(blk.apply, spmd_axis_name='x')(xs)
        """)
    assert codes == ["SPMD001", "SPMD002"] and lost == []


def test_a_vmap_held_by_self_is_called_as_a_vmap(tmp_path: Path) -> None:
    for held in ("vec", "vmap"):
        codes, lost = _analyse(tmp_path, f"""
            class T:
                def __init__(self):
                    self.{held} = jax.vmap

                def run(self, x):
                    return self.{held}(body, spmd_axis_name='x')(x)

            def main(xs):
                return T().run(xs)
            """)
        assert codes == ["SPMD001", "SPMD002"] and lost == [], held


def test_a_vmap_factory_in_a_class_body_is_read_through_self(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        import functools

        class T:
            vec = functools.partial(jax.vmap, spmd_axis_name='x')

            def run(self, x):
                return self.vec(body)(x)

        def main(xs):
            return T().run(xs)
        """)
    assert codes == ["SPMD001", "SPMD002"] and lost == []


def test_a_vmap_factory_read_off_an_instance_is_not_known(tmp_path: Path) -> None:
    codes, lost = _analyse(tmp_path, """
        import functools

        class T:
            def __init__(self, axis):
                self.vec = functools.partial(jax.vmap, spmd_axis_name=axis)

        t = T('x')

        def main(xs):
            return t.vec(body)(xs)
        """)
    assert codes == [] and lost == [
        # (newuser8: the instance is named with what keeps its attribute from being read; since stop 44 the
        # attribute `T.__init__` sets is read, and the record names the vmap factory it holds)
        "the value of `spmd_axis_name` (`t.vec`) is not known: `t.vec` is `functools.partial(jax.vmap, "
        "spmd_axis_name=axis)` (line 15), and `functools.partial(...)` is a call spmdfix does not evaluate"
    ]


def test_a_helper_named_like_a_jax_function_still_has_its_arguments_read() -> None:
    """Fuzz seed 230018: `def make_mesh(dp, tp): return jax.make_mesh((dp, tp), ...)` called once as
    `make_mesh(8, 1)`. A parameter resolves to what every call passes only when the function's name appears
    nowhere else; `jax.make_mesh` inside the helper is JAX's function, not another use of it, so the mesh's
    sizes are read. Another use of the name (a string, a second call) still leaves them unknown."""
    import ast

    from spmdfix.analysis.meshes import resolve_mesh
    from spmdfix.analysis.module_model import ModuleModel

    source = (
        "import jax\nfrom jax.sharding import AxisType\n"
        "def make_mesh(dp, tp):\n    return jax.make_mesh((dp, tp), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)\n"
        "mesh = make_mesh(8, 1)\n"
    )

    def sizes(text: str):
        model = ModuleModel.build(text, ast.parse(text))
        return resolve_mesh(model.ev, ast.parse("mesh").body[0].value, model.ix.module_scope).sizes

    assert sizes(source) == (8, 1)
    assert sizes(source + "note = 'make_mesh'\n") == (None, None)
    assert sizes(source + "other = make_mesh(2, 4)\n") == (None, None)
