"""The special method an implicit call runs (`instances.type_member`): `Layer()(x)` and `layer = Layer(); layer(x)`
run `type(layer).__call__`, `Layer(...)` its `__init__`, looked up on the class and its bases (this module's and
other modules' of the project), or assigned in the class body (`__call__ = _apply`). Where which one runs is not
known the place is an SPMD910 record, never silence (breaker10 t23-t27, t33: JAX raised SPMD001's error and
spmdfix printed "All checks passed!"). Each program's spmd vmap reaches a shard_map naming 'x' only through the
method in question."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from spmdfix import api

HEAD = """\
import functools
import jax
from jax.sharding import PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'))


def collide(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def clean(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('y'), out_specs=P('y'))(v)

"""

BASE = """\
import jax
from jax.sharding import PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'))


class Base:
    def __init__(self, v=None):
        if v is not None:
            jax.shard_map(lambda b: b, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)

    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
"""

VMAP = "\n\nf = jax.vmap(apply, spmd_axis_name='x')\n"


def _analyse(tmp_path: Path, body: str):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "base.py").write_text(BASE, encoding="utf-8")
    text = HEAD + textwrap.dedent(body) + VMAP
    path = root / "pkg" / "model.py"
    path.write_text(text, encoding="utf-8")
    return api.analyse_source(text, path=path, index=api.new_project_index(root))


FOUND = [
    ("a base of the module", """
        class Base:
            def __call__(self, v):
                return collide(v)

        class Layer(Base):
            pass

        def apply(v):
            return Layer()(v)
    """),
    ("a base of another module, the instance bound to a name", """
        from pkg.base import Base

        class Layer(Base):
            pass

        def apply(v):
            layer = Layer()
            return layer(v)
    """),
    ("a base of another module read as `module.Base`, two bases deep", """
        import pkg.base

        class Mid(pkg.base.Base):
            pass

        class Layer(Mid):
            pass

        def apply(v):
            return Layer()(v)
    """),
    ("a function assigned in the class body", """
        def _apply(self, v):
            return collide(v)

        class Layer:
            __call__ = _apply

        def apply(v):
            return Layer()(v)
    """),
    ("another class's method assigned in the class body", """
        import pkg.base

        class Layer:
            __call__ = pkg.base.Base.__call__

        def apply(v):
            return Layer()(v)
    """),
    ("the first of two bases defines it in its own body (first in the MRO)", """
        class A:
            def __call__(self, v):
                return collide(v)

        class B:
            def __call__(self, v):
                return clean(v)

        class Layer(A, B):
            pass

        def apply(v):
            return Layer()(v)
    """),
    ("a diamond whose second base defines it (C3 puts it before the shared root)", """
        class Root:
            pass

        class A(Root):
            pass

        class B(Root):
            def __call__(self, v):
                return collide(v)

        class Layer(A, B):
            pass

        def apply(v):
            return Layer()(v)
    """),
    ("`super().__call__` in the one-base subclass's own `__call__` (breaker11 a25)", """
        class Base:
            def __call__(self, v):
                return collide(v)

        class Layer(Base):
            def __call__(self, v):
                return super().__call__(v) * 1.0

        def apply(v):
            return Layer()(v)
    """),
    ("a known class decorator and `abc.ABCMeta` set nothing", """
        import abc
        import dataclasses

        class Base(metaclass=abc.ABCMeta):
            def __call__(self, v):
                return collide(v)

        @dataclasses.dataclass
        class Layer(Base):
            w: float = 1.0

        def apply(v):
            return Layer()(v)
    """),
    ("an `__init_subclass__` of the class itself runs for its subclasses only", """
        class Layer:
            def __call__(self, v):
                return collide(v)

            def __init_subclass__(cls, **kw):
                cls.axis = 'y'

        def apply(v):
            return Layer()(v)
    """),
    ("an `__init__` inherited from another module, the instance built in the vmap", """
        from pkg.base import Base

        class Built(Base):
            pass

        def apply(v):
            Built(v)
            return v
    """),
]


@pytest.mark.parametrize("body", [b for _, b in FOUND], ids=[i for i, _ in FOUND])
def test_the_method_found_through_the_bases_or_the_body_is_followed(tmp_path: Path, body: str) -> None:
    analysis = _analyse(tmp_path, body)
    assert {f.code for f in analysis.findings} >= {"SPMD001"}, analysis.unfollowed
    assert not analysis.unfollowed


RECORDED = [
    ("a base a function returns", """
        from pkg.base import Base

        def pick():
            return Base

        class Layer(pick()):
            pass

        def apply(v):
            return Layer()(v)
    """, "its base `pick()` is computed"),
    ("a library base with a `__call__`", """
        class Bound(functools.partial):
            pass

        def apply(v):
            return Bound(collide)(v)
    """, "its base `functools.partial` is a library's class"),
    ("two bases defining it differently, neither in its own body", """
        class A0:
            def __call__(self, v):
                return clean(v)

        class B0:
            def __call__(self, v):
                return collide(v)

        class A(A0):
            pass

        class B(B0):
            pass

        class Layer(A, B):
            pass

        def apply(v):
            return Layer()(v)
    """, "which of their `__call__`s runs is not followed"),
    ("a diamond whose root defines it and whose second base redefines it", """
        class Root:
            def __call__(self, v):
                return clean(v)

        class A(Root):
            pass

        class B(Root):
            def __call__(self, v):
                return collide(v)

        class Layer(A, B):
            pass

        def apply(v):
            return Layer()(v)
    """, "which of their `__call__`s runs is not followed"),
    ("bound twice in the class body", """
        class Layer:
            if jax.__version__:
                def __call__(self, v):
                    return collide(v)
            else:
                def __call__(self, v):
                    return clean(v)

        def apply(v):
            return Layer()(v)
    """, "binds `__call__` 2 times in its body"),
    ("`__call__` replaced after the class (breaker11 a14)", """
        class Base:
            def __call__(self, v):
                return collide(v)

        class Layer(Base):
            pass

        def _plain(self, v):
            return clean(v)

        Layer.__call__ = _plain

        def apply(v):
            return Layer()(v)
    """, "model.py line 26 sets `.__call__` on an object"),
    ("`setattr(Layer, '__call__', ...)` after the class", """
        class Base:
            def __call__(self, v):
                return collide(v)

        class Layer(Base):
            pass

        setattr(Layer, '__call__', lambda self, v: clean(v))

        def apply(v):
            return Layer()(v)
    """, "calls `setattr(..., '__call__', ...)`"),
    ("a base's `__init_subclass__` (breaker11 a10)", """
        class Base:
            def __call__(self, v):
                return collide(v)

            def __init_subclass__(cls, **kw):
                cls.axis = 'y'

        class Layer(Base):
            pass

        def apply(v):
            return Layer()(v)
    """, "`Base` defines `__init_subclass__`"),
    ("a metaclass on a base (breaker11 a11)", """
        class Meta(type):
            def __call__(cls, *args):
                return clean

        class Base(metaclass=Meta):
            def __call__(self, v):
                return collide(v)

        class Layer(Base):
            pass

        def apply(v):
            return Layer()(v)
    """, "`Base` is made by the metaclass `Meta`"),
    ("a class decorator spmdfix does not know (breaker11 a49)", """
        from pkg.base import Base

        def plain(cls):
            return cls

        @plain
        class Layer(Base):
            pass

        def apply(v):
            return Layer()(v)
    """, "decorated by `@plain`"),
    ("a parameter annotated with a class an unknown decorator may change", """
        def plain(cls):
            return cls

        @plain
        class Layer:
            def __call__(self, v):
                return collide(v)

        def apply(v, layer: Layer = None):
            return layer(v)
    """, "decorated by `@plain`"),
    ("`__call__ = staticmethod(f)` (breaker11 k03)", """
        class Layer:
            __call__ = staticmethod(collide)

        def apply(v):
            return Layer()(v)
    """, "binds `__call__` to `staticmethod(collide)`"),
    ("`super().__call__` in a class of two bases", """
        class A:
            def __call__(self, v):
                return collide(v)

        class B:
            pass

        class Layer(A, B):
            def __call__(self, v):
                return super().__call__(v)

        def apply(v):
            return Layer()(v)
    """, "`Layer` has 2 bases, and which class follows it in the MRO is not followed"),
]


@pytest.mark.parametrize("body,why", [(b, w) for _, b, w in RECORDED], ids=[i for i, _, _ in RECORDED])
def test_a_method_whose_definition_is_not_known_is_a_record(tmp_path: Path, body: str, why: str) -> None:
    analysis = _analyse(tmp_path, body)
    assert not analysis.findings
    assert any(why in u.what and ("`Layer`" in u.what or "`Bound`" in u.what) for u in analysis.unfollowed), [
        u.what for u in analysis.unfollowed
    ]


def test_a_dataclass_runs_its_own_init_not_its_base_s(tmp_path: Path) -> None:
    """`dataclasses.dataclass` writes an `__init__` that does not call the base's: `Built(v)` applies no shard_map
    (the base's `__init__` does); calling the instance still runs the base's `__call__`."""
    analysis = _analyse(tmp_path, """
        import dataclasses
        from pkg.base import Base

        @dataclasses.dataclass
        class Built(Base):
            w: float = 1.0

        def apply(v):
            Built(v)
            return v
    """)
    assert not analysis.findings and not analysis.unfollowed


def test_an_object_base_defines_nothing_to_follow(tmp_path: Path) -> None:
    """A class whose bases are builtins (`object`) has no `__call__` of the project: nothing to follow, no record."""
    analysis = _analyse(tmp_path, """
        class Layer(object):
            def __init__(self):
                self.w = 2.0

        def apply(v):
            Layer()
            return clean(v)
    """)
    assert not analysis.findings and not analysis.unfollowed
