"""A bound method as the shard_map body (`jax.shard_map(self._block, ...)`: spmdfix.analysis.method_body).

The in_specs line up with the parameters after the bound `self`; what the body reads through `self` is a capture
of the instance; a method a subclass redefines, a staticmethod, a classmethod or an attribute assigned on
instances is not resolved (the body stays "not a function of this module").
"""

from __future__ import annotations

import textwrap

from spmdfix.api import check_source
from spmdfix.model import Applicability, Transform

HEADER = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
"""

NOT_A_FUNCTION = "the shard_map body is not a function of this module"


def _layer(block: str, call: str, extra: str = "", vmap: str = "jax.vmap(layer, spmd_axis_name='x')(xs)") -> str:
    """A module whose class `Layer` applies `call` (a shard_map of `self._block` applied to operands) in `__call__`."""
    method = textwrap.indent(textwrap.dedent(block).strip("\n"), "    ")
    return (
        HEADER
        + "\nclass Layer:\n    def __init__(self, scale):\n        self.scale = scale\n\n"
        + method
        + f"\n\n    def __call__(self, x):\n        w = jnp.ones((4,))\n        return {call}\n"
        + textwrap.dedent(extra)
        + f"\n\ndef main(xs):\n    layer = Layer(jnp.ones((4,)))\n    return {vmap}\n"
    )


def _fix(source: str, transform: Transform, code: str = "SPMD001"):
    found = [f for f in check_source(source) if f.code == code]
    assert found, [f.code for f in check_source(source)]
    return found[0].fix_for(transform)


def test_in_specs_line_up_with_the_parameters_after_self() -> None:
    # `w` (second after self) gets P('x') and is returned through P('x'): the strip keeps its values
    block = """
    def _block(self, v, w):
        return w * 2.0
    """
    call = "jax.shard_map(self._block, mesh=mesh, in_specs=(P(), P('x')), out_specs=P('x'))(w, x)"
    fix = _fix(_layer(block, call), Transform.STRIP)
    assert fix is not None and fix.applicability == Applicability.SAFE, fix


def test_an_unstripped_operand_after_self_returned_through_the_stripped_spec_is_refused() -> None:
    # `v`, the first operand, is P(): returning it through P('x') changes its values once stripped. Lined up one
    # parameter early (`self` taking P(), `v` the P('x') block) the strip would be SAFE: the worst bug the offset
    # guards against
    block = """
    def _block(self, v, w):
        return v * 2.0
    """
    call = "jax.shard_map(self._block, mesh=mesh, in_specs=(P(), P('x')), out_specs=P('x'))(w, x)"
    fix = _fix(_layer(block, call), Transform.STRIP)
    assert fix is not None and fix.applicability != Applicability.SAFE
    assert "does not come from a stripped block" in fix.reason


def test_a_read_of_the_instance_makes_the_strip_unsafe_naming_it() -> None:
    block = """
    def _block(self, v):
        return v * self.scale
    """
    call = "jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)"
    fix = _fix(_layer(block, call), Transform.STRIP)
    assert fix is not None and fix.applicability != Applicability.SAFE
    assert "reads `self.scale` (line" in fix.reason and "instance the method is bound to" in fix.reason


def test_the_body_collectives_are_read_through_the_method() -> None:
    block = """
    def _block(self, v):
        return v - jax.lax.pmean(v, 'x')
    """
    call = "jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)"
    codes = {f.code for f in check_source(_layer(block, call))}
    assert "SPMD004" in codes  # pmean over the spmd axis, unseen while the body was not read


def test_hazard_h2_is_read_in_the_method() -> None:
    block = """
    def _block(self, v):
        return jax.lax.cond(v.sum() > 1.0, lambda t: t * 2.0, lambda t: t - 1.0, v)
    """
    call = "jax.shard_map(self._block, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)"
    codes = {f.code for f in check_source(_layer(block, call))}
    assert "SPMD007" in codes


def test_an_instance_built_once_is_resolved_too() -> None:
    source = HEADER + textwrap.dedent(
        """
        class Shift:
            def _block(self, v):
                return v * 2.0 + 1.0

        def layer(x):
            inst = Shift()
            return jax.shard_map(inst._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)

        def main(xs):
            return jax.vmap(layer, spmd_axis_name='x')(xs)
        """
    )
    fix = _fix(source, Transform.STRIP)
    assert fix is not None and fix.applicability == Applicability.SAFE, fix.reason


def _not_resolved(source: str, why: str) -> None:
    fix = _fix(source, Transform.STRIP)
    assert fix is not None and fix.applicability != Applicability.SAFE
    assert f"{NOT_A_FUNCTION}: {why}" in fix.reason, fix.reason


def test_a_method_a_subclass_redefines_is_not_resolved() -> None:
    block = """
    def _block(self, v):
        return v * 2.0
    """
    call = "jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)"
    extra = """
    class Centred(Layer):
        def _block(self, v):
            return v - v.mean()
    """
    _not_resolved(_layer(block, call, extra), "a subclass redefines `_block`")


def test_a_staticmethod_is_not_resolved() -> None:
    block = """
    @staticmethod
    def _block(v):
        return v * 2.0
    """
    call = "jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)"
    _not_resolved(_layer(block, call), "`_block` is decorated")


def test_a_method_assigned_on_instances_is_not_resolved() -> None:
    block = """
    def _block(self, v):
        return v * 2.0
    """
    call = "jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)"
    extra = """
    def patch(layer):
        layer._block = lambda v: v - v.mean()
    """
    _not_resolved(_layer(block, call, extra), "this module assigns `._block = ...`")


def test_an_unbatched_instance_gives_no_capture_a_batched_one_does() -> None:
    block = """
    def _block(self, v):
        return v * self.scale
    """
    call = "jax.shard_map(self._block, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)"
    assert not [f for f in check_source(_layer(block, call)) if f.code in ("SPMD003", "SPMD910")]
    batched = _layer(
        block, call, "\ndef forward(layer: Layer, x):\n    return layer(x)\n",
        vmap="jax.vmap(forward, spmd_axis_name='x')(layer, xs)",
    )
    found = [f for f in check_source(batched) if f.code == "SPMD003"]
    assert found and "`self.scale`" in found[0].message


def test_an_unread_batching_of_the_instance_keeps_fixes_unsafe_naming_the_read() -> None:
    # the instance's class flattens itself (`tree_flatten`): which of its fields the vmap batches is not read
    source = HEADER + textwrap.dedent(
        """
        @jax.tree_util.register_pytree_node_class
        class Layer:
            def __init__(self, scale):
                self.scale = scale

            def tree_flatten(self):
                return (self.scale,), None

            @classmethod
            def tree_unflatten(cls, aux, children):
                return cls(*children)

            def _block(self, v):
                return v * self.scale

            def __call__(self, x):
                return jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)

        def forward(layer: Layer, x):
            return layer(x)

        def main(layers, xs):
            return jax.vmap(forward, spmd_axis_name='x')(layers, xs)
        """
    )
    found = [f for f in check_source(source) if f.code == "SPMD001"]
    assert found
    judged = [f for f in found[0].fixes if f.transform is Transform.ADD_AXIS]
    assert judged and judged[0].applicability != Applicability.SAFE
    assert "reads `self.scale` (line" in judged[0].reason and "which the vmap may batch" in judged[0].reason


def _judged(source: str, transform: Transform):
    found = [f for f in check_source(source) if f.code == "SPMD001"]
    assert found
    fixes = [f for f in found[0].fixes if f.transform is transform]
    assert fixes
    return fixes[0]


def test_an_instance_made_on_the_way_from_a_batched_value_is_not_taken_for_unbatched() -> None:
    # `Layer(x.mean())(x)`: the walk taints names, not the instance a call is made on (measured: ManualAxisType)
    source = HEADER + textwrap.dedent(
        """
        class Layer:
            def __init__(self, scale):
                self.scale = scale

            def _block(self, v):
                return v * self.scale

            def __call__(self, x):
                return jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)

        def f(x):
            return Layer(x.mean())(x)

        def main(xs):
            return jax.vmap(f, spmd_axis_name='x')(xs)
        """
    )
    fix = _judged(source, Transform.ADD_AXIS)
    assert fix.applicability != Applicability.SAFE
    assert "`Layer(x.mean())(x)`" in fix.reason and "reads `self.scale`" in fix.reason


def test_an_attribute_a_traced_method_sets_is_not_taken_for_unbatched() -> None:
    # golden drop-spmd-axis/method_body_instance_attribute_set_in_traced_method: rename was SAFE without the check
    source = HEADER + textwrap.dedent(
        """
        class Layer:
            def __init__(self):
                self.scale = 1.0

            def prepare(self, x):
                self.scale = x.mean()

            def _block(self, v):
                return v * self.scale

            def __call__(self, x):
                self.prepare(x)
                return jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)

        def main(xs):
            return jax.vmap(Layer(), spmd_axis_name='x')(xs)
        """
    )
    for transform in (Transform.RENAME, Transform.ADD_AXIS):
        fix = _judged(source, transform)
        assert fix.applicability != Applicability.SAFE
        assert "`.scale` is assigned at line" in fix.reason


def test_a_method_the_body_calls_on_its_instance_is_not_followed_for_its_reads() -> None:
    # `self._act(v)` reads the instance in code the capture reading does not follow: not proven unbatched
    source = HEADER + textwrap.dedent(
        """
        class Layer:
            def __init__(self):
                self.scale = 2.0

            def _act(self, v):
                return v * self.scale

            def _block(self, v):
                return self._act(v)

            def __call__(self, x):
                return jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)

        def main(xs):
            return jax.vmap(Layer(), spmd_axis_name='x')(xs)
        """
    )
    fix = _judged(source, Transform.ADD_AXIS)
    assert fix.applicability != Applicability.SAFE
    assert "`self._act` (line" in fix.reason and "not followed" in fix.reason


# --- attribute lookup: `__getattribute__` decides what `self._block` gives, whatever the class body binds ---

GETATTRIBUTE = """
    def __getattribute__(self, name):
        if name == "_block":
            return lambda v: v - jnp.mean(v, axis=0, keepdims=True)
        return object.__getattribute__(self, name)
"""
ELEMENTWISE = """
    def _block(self, v):
        return v * 2.0
"""
SELF_CALL = "jax.shard_map(self._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)"


def test_a_class_defining_getattribute_is_not_resolved() -> None:
    # (measured by the lead on the package probe: with the resolution, strip was SAFE while the function that ran
    # took the mean over the stripped dimension)
    block = ELEMENTWISE + GETATTRIBUTE
    _not_resolved(_layer(block, SELF_CALL), "`Layer` defines `__getattribute__`, which decides what `self._block` gives")


def test_a_subclass_defining_getattribute_is_not_resolved() -> None:
    extra = "\nclass Odd(Layer):" + textwrap.indent(textwrap.dedent(GETATTRIBUTE), "    ")
    _not_resolved(
        _layer(ELEMENTWISE, SELF_CALL, extra),
        "a subclass of `Layer` defines `__getattribute__`, which decides what `self._block` gives",
    )


def test_a_local_base_defining_getattribute_is_not_resolved_for_a_built_instance() -> None:
    source = HEADER + textwrap.dedent(
        """
        class Base:
            def __getattribute__(self, name):
                return object.__getattribute__(self, name)

        class Shift(Base):
            def _block(self, v):
                return v * 2.0 + 1.0

        def layer(x):
            inst = Shift()
            return jax.shard_map(inst._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)

        def main(xs):
            return jax.vmap(layer, spmd_axis_name='x')(xs)
        """
    )
    _not_resolved(source, "`Base` defines `__getattribute__`, which decides what `inst._block` gives")


def test_a_library_base_outside_the_list_is_not_resolved_and_nnx_module_is() -> None:
    def with_base(base: str) -> str:
        return HEADER + "import flax.linen as nn\nfrom flax import nnx\n" + textwrap.dedent(
            f"""
            class Shift({base}):
                def _block(self, v):
                    return v * 2.0 + 1.0

            def layer(x):
                inst = Shift()
                return jax.shard_map(inst._block, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)

            def main(xs):
                return jax.vmap(layer, spmd_axis_name='x')(xs)
            """
        )

    _not_resolved(with_base("nn.Module"), "`Shift` has the base `nn.Module`, which spmdfix does not read")
    fix = _fix(with_base("nnx.Module"), Transform.STRIP)
    assert fix is not None and fix.applicability == Applicability.SAFE, fix.reason


def test_a_base_of_another_module_defining_getattribute_is_not_resolved(tmp_path) -> None:
    from spmdfix import project_graph
    from spmdfix.api import analyse_source, new_project_index
    from spmdfix.model import Options

    files = {
        "pyproject.toml": '[project]\nname = "pkg"\n',
        "pkg/__init__.py": "",
        "pkg/base.py": "import jax.numpy as jnp\n\n\nclass Base:" + textwrap.indent(textwrap.dedent(GETATTRIBUTE), "    "),
        "pkg/layer.py": HEADER + "from pkg.base import Base\n\n\nclass Layer(Base):\n"
        + textwrap.indent(textwrap.dedent(ELEMENTWISE).strip("\n"), "    ")
        + f"\n\n    def __call__(self, x):\n        return {SELF_CALL}\n\n\n"
        "def main(xs):\n    return jax.vmap(Layer(), spmd_axis_name='x')(xs)\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    project_graph.forget_graphs()
    path = tmp_path.resolve() / "pkg/layer.py"
    result = analyse_source(path.read_text(), Options(), path=path, index=new_project_index(tmp_path.resolve()))
    strips = [f.fix_for(Transform.STRIP) for f in result.findings if f.code == "SPMD001"]
    assert strips and strips[0] is not None and strips[0].applicability != Applicability.SAFE
    assert "`Base` defines `__getattribute__`, which decides what `self._block` gives" in strips[0].reason


def test_the_plain_lookup_bases_are_measured_on_the_installed_packages() -> None:
    """Each base of `PLAIN_LOOKUP_BASES` that imports here: no class of its MRO but `object` defines
    `__getattribute__`, and a subclass keeps the `def` its body binds (flax.linen's Module, which wraps them,
    fails this and is left out)."""
    import importlib

    from spmdfix.analysis.method_body import PLAIN_LOOKUP_BASES

    def blk(self, v):
        return v

    checked = 0
    for qname in sorted(PLAIN_LOOKUP_BASES):
        module, _, name = qname.rpartition(".")
        base = getattr(importlib.import_module(module or "builtins"), name)
        sub = type("Sub", (base,), {"_block": blk, "__module__": __name__})
        assert not [k for k in base.__mro__ if k is not object and "__getattribute__" in vars(k)], qname
        assert sub.__dict__["_block"] is blk, qname
        checked += 1
    assert checked == len(PLAIN_LOOKUP_BASES)
    import flax.linen as nn

    wrapped = type("Sub", (nn.Module,), {"_block": blk, "__module__": __name__})
    assert wrapped.__dict__["_block"] is not blk  # (why it is not in the list)
