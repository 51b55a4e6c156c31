"""An attribute a class's own `__init__` sets, read through an instance built in the source:
`cfg.axis` with `cfg = Config(axis='x')` and `def __init__(self, axis='y'): self.axis = axis`
(`members._init_assigning`). It was an SPMD910 record ("`.axis` is assigned in this module") where JAX raised.
Anything that may store another value keeps the record: another write of `.axis` (in a branch of `__init__`, on
the instance, through `setattr` or `vars`), a `return` before the write, a base class, `__setattr__`, a value
read from the instance, a construction whose arguments cannot be bound."""

from __future__ import annotations

import pytest

from spmdfix.api import analyse_source
from spmdfix.model import Options

HEAD = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))\n"
    "layer = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))\n\n\n"
    "{cls}\n\n\n"
    "def run(xs):\n    return jax.vmap(layer, spmd_axis_name=cfg.axis)(xs)\n"
)


def _analyse(cls: str):
    return analyse_source(HEAD.format(cls=cls), Options())


@pytest.mark.parametrize(
    "cls",
    [
        "class Config:\n    def __init__(self):\n        self.axis = 'x'\n\n\ncfg = Config()",
        "class Config:\n    def __init__(self, axis='y'):\n        self.axis = axis\n\n\ncfg = Config(axis='x')",
        "class Config:\n    def __init__(self, data, model):\n        self.model = model\n        self.axis = data\n\n\ncfg = Config('x', 'y')",
        "AX = 'x'\n\n\nclass Config:\n    def __init__(self, axis=AX):\n        self.axis = axis\n\n\ncfg = Config()",
    ],
)
def test_the_attribute_init_sets_is_read_for_the_construction(cls: str) -> None:
    result = _analyse(cls)
    assert [f.code for f in result.findings] == ["SPMD001", "SPMD002"]
    assert not result.unfollowed


def test_init_setting_another_axis_collides_with_nothing() -> None:
    result = _analyse("class Config:\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\ncfg = Config('y')")
    assert not result.findings and not result.unfollowed


@pytest.mark.parametrize(
    "cls",
    [
        # another write of `.axis`
        "class Config:\n    def __init__(self, flip=False):\n        self.axis = 'x'\n        if flip:\n            self.axis = 'y'\n\n\ncfg = Config(flip=True)",
        "class Config:\n    def __init__(self):\n        self.axis = 'x'\n\n\ncfg = Config()\ncfg.axis = 'y'",
        "class Config:\n    def __init__(self):\n        self.axis = 'x'\n\n\ncfg = Config()\nsetattr(cfg, 'axis', 'y')",
        "class Config:\n    def __init__(self):\n        self.axis = 'x'\n\n\ncfg = Config()\nvars(cfg)['axis'] = 'y'",
        # a write that may not happen, or may store otherwise
        "class Config:\n    def __init__(self, fast=True):\n        if fast:\n            return\n        self.axis = 'x'\n\n\ncfg = Config()",
        "class Config:\n    def __init__(self):\n        self.axis = 'x'\n\n    def __setattr__(self, k, v):\n        object.__setattr__(self, k, 'y')\n\n\ncfg = Config()",
        "class Base:\n    pass\n\n\nclass Config(Base):\n    def __init__(self):\n        self.axis = 'x'\n\n\ncfg = Config()",
        "class Config:\n    def __init__(self, names=('x', 'y')):\n        self.names = names\n        self.axis = self.names[0]\n\n\ncfg = Config()",
        "class Config:\n    def __init__(self, axis):\n        self.axis = axis\n\n\ncfg = Config(**{'axis': 'x'})",
        # a class attribute of the name (a descriptor's `__set__` may store another value)
        "class Upper:\n    def __set__(self, obj, v):\n        self.v = 'y'\n\n    def __get__(self, obj, kind):\n        return self.v\n\n\n"
        "class Config:\n    axis = Upper()\n\n    def __init__(self):\n        self.axis = 'x'\n\n\ncfg = Config()",
    ],
)
def test_what_may_store_another_value_keeps_the_record(cls: str) -> None:
    result = _analyse(cls)
    assert not result.findings
    assert result.unfollowed and "spmd_axis_name" in result.unfollowed[0].what
