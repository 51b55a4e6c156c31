"""Calls whose callee is an instance reached some other way than a name of its class (breaker11 a05, a08, a27,
a29, a30, a31, a38, a40): `getattr(layer, '__call__')(v)`, `operator.call(layer, v)`, `Outer.Layer()(v)`,
`make()()(v)`, `make()(v)`, `Model.layer(v)`, a class made by `type(...)`, a function returning a cached
instance; and (silence13) `self.make()(v)`, `self.layer = self.make()`, `self.layer.run(v)`,
`self.layer.__call__(v)`, `self(v)` in a method and `getattr(model, 'forward')(v)`. Each ran `Base.__call__`'s shard_map naming the spmd axis while spmdfix printed "All checks passed!":
now followed (a finding) or an SPMD910 record naming the call. A call of a call's result is common in JAX code
(`jax.jit(f)(x)`, `nn.Dense(4)(x)`): where nothing of the project reaches a shard_map there is no record."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from spmdfix import api
from test_type_member import HEAD, VMAP

# `Base.__call__` applies a shard_map naming the spmd axis; building an instance applies none
BASE = """\
import jax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


class Base:
    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
"""

# A class made by `type(...)` in another module (pkg/made.py)
MADE = """\
from pkg.base import Base

Made = type('Made', (Base,), {})
"""


def _analyse(tmp_path: Path, body: str):
    """The analysis of pkg/model.py (`HEAD`, `body`, an spmd vmap of its `apply`) in a project with pkg/base.py (and
    pkg/made.py when `body` imports it)."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "base.py").write_text(BASE, encoding="utf-8")
    if "pkg.made" in body:  # (its read of `Base` is a place for the strip of `Base.__call__`'s shard_map)
        (root / "pkg" / "made.py").write_text(MADE, encoding="utf-8")
    text = HEAD + textwrap.dedent(body) + VMAP
    path = root / "pkg" / "model.py"
    path.write_text(text, encoding="utf-8")
    return api.analyse_source(text, path=path, index=api.new_project_index(root))

FOUND = [
    ("getattr of __call__", """
        from pkg.base import Base

        class Layer(Base):
            pass

        def apply(v):
            return getattr(Layer(), '__call__')(v)
    """),
    ("getattr of __call__ on a name", """
        from pkg.base import Base

        def apply(v):
            layer = Base()
            return getattr(layer, '__call__')(v)
    """),
    ("operator.call", """
        import operator
        from pkg.base import Base

        class Layer(Base):
            pass

        def apply(v):
            return operator.call(Layer(), v)
    """),
    ("a class nested in a class", """
        from pkg.base import Base

        class Outer:
            class Layer(Base):
                pass

        def apply(v):
            return Outer.Layer()(v)
    """),
    ("a class a function returns", """
        from pkg.base import Base

        def make():
            class Layer(Base):
                pass
            return Layer

        def apply(v):
            return make()()(v)
    """),
    ("an instance a function returns", """
        from pkg.base import Base

        class Wide(Base):
            pass

        def make():
            return Wide()

        def apply(v):
            return make()(v)
    """),
    ("an instance a method returns", """
        from pkg.base import Base

        class Wide(Base):
            pass

        class Model:
            def make(self):
                return Wide()

        def apply(v):
            return Model().make()(v)
    """),
    ("an instance a method returns, read off a name", """
        from pkg.base import Base

        class Wide(Base):
            pass

        class Model:
            def __init__(self):
                self.layer = Wide()

            def get(self):
                return self.layer

        def apply(v):
            model = Model()
            return model.get()(v)
    """),
    ("an instance a method returns, called through self", """
        from pkg.base import Base

        class Wide(Base):
            pass

        class Model:
            def make(self):
                return Wide()

            def __call__(self, v):
                return self.make()(v)

        def apply(v):
            return Model()(v)
    """),
    ("an instance attribute a method of the class builds", """
        from pkg.base import Base

        class Wide(Base):
            pass

        class Model:
            def __init__(self):
                self.layer = self.make()

            def make(self):
                return Wide()

            def __call__(self, v):
                return self.layer(v)

        def apply(v):
            return Model()(v)
    """),
    ("a method of an instance attribute", """
        from pkg.base import Base

        class Wide(Base):
            def run(self, v):
                return super().__call__(v)

        class Model:
            def __init__(self):
                self.layer = Wide()

            def forward(self, v):
                return self.layer.run(v)

        def apply(v):
            return Model().forward(v)
    """),
    ("__call__ of an instance attribute spelled out", """
        from pkg.base import Base

        class Model:
            def __init__(self, k):
                self.k = k
                self.layer = Base()

            def __call__(self, v):
                return self.layer.__call__(v) * self.k

        def apply(v):
            return Model(2.0)(v)
    """),
    ("the instance called through self in a method", """
        from pkg.base import Base

        class Wide(Base):
            def run(self, v):
                return self(v)

        def apply(v):
            return Wide().run(v)
    """),
    ("getattr of a method name", """
        from pkg.base import Base

        class Model:
            def __init__(self):
                self.layer = Base()

            def forward(self, v):
                return self.layer(v)

        def apply(v):
            model = Model()
            return getattr(model, 'forward')(v)
    """),
    ("getattr of a method name on self", """
        from pkg.base import Base

        class Model:
            def forward(self, v):
                return Base()(v)

            def __call__(self, v):
                return getattr(self, 'forward')(v)

        def apply(v):
            return Model()(v)
    """),
    ("an instance held by a class attribute", """
        from pkg.base import Base

        class Layer(Base):
            pass

        class Model:
            layer = Layer()

        def apply(v):
            return Model.layer(v)
    """),
]


@pytest.mark.parametrize("body", [b for _, b in FOUND], ids=[i for i, _ in FOUND])
def test_the_instance_called_is_followed(tmp_path: Path, body: str) -> None:
    analysis = _analyse(tmp_path, body)
    assert {f.code for f in analysis.findings} == {"SPMD001", "SPMD002"}, [u.what for u in analysis.unfollowed]


RECORDED = [
    ("a class made by type()", """
        from pkg.base import Base

        Layer = type('Layer', (Base,), {})

        def apply(v):
            return Layer()(v)
    """, "`Layer` is a class made by `type(...)` (line 18), whose `__call__` spmdfix does not look up; it is built "
         "from `Base`"),
    ("a class made by type() in another module", """
        from pkg.made import Made

        def apply(v):
            return Made()(v)
    """, "`Made` is a class made by `type(...)` (line 3 of "),
    ("an instance a function looks up at run time", """
        from pkg.base import Base

        class Wide(Base):
            pass

        CACHE = {}

        def layer():
            if 'l' not in CACHE:
                CACHE['l'] = Wide()
            return CACHE['l']

        def apply(v):
            return layer()(v)
    """, "`CACHE['l']` is looked up at run time"),
    ("one of several instances a function returns", """
        from pkg.base import Base

        class Wide(Base):
            pass

        def make(flag):
            if flag:
                return Wide()
            return Wide()

        def apply(v):
            return make(True)(v)
    """, "`make(True)` returns one of several values, which is not followed; one is built from `Wide`"),
    ("one of several instances a method returns", """
        from pkg.base import Base

        class Wide(Base):
            pass

        class Model:
            def make(self, flag):
                if flag:
                    return Wide()
                return Wide()

        def apply(v):
            return Model().make(True)(v)
    """, "`Model().make(True)` returns one of several values, which is not followed; one is built from `Wide`"),
    ("a class attribute stored from outside the body", """
        from pkg.base import Base

        class Layer(Base):
            pass

        class Model:
            layer = Layer()

        Model.layer = Layer()

        def apply(v):
            return Model.layer(v)
    """, "what `Model.layer` holds is not known"),
]


@pytest.mark.parametrize("body,why", [(b, w) for _, b, w in RECORDED], ids=[i for i, _, _ in RECORDED])
def test_the_instance_called_is_a_record(tmp_path: Path, body: str, why: str) -> None:
    analysis = _analyse(tmp_path, body)
    assert not analysis.findings
    assert any(why in u.what for u in analysis.unfollowed), [u.what for u in analysis.unfollowed]


QUIET = [
    ("jax.jit of a clean function", """
        def apply(v):
            return jax.jit(clean)(v)
    """),
    ("functools.partial of a clean function", """
        def apply(v):
            return functools.partial(clean)(v)
    """),
    ("a factory returning a clean function", """
        def make():
            return clean

        def apply(v):
            return make()(v)
    """),
    ("a factory with several returns naming no class", """
        def make(flag):
            if flag:
                return clean
            return jax.nn.relu

        def apply(v):
            return clean(make(True)(v))
    """),
    ("a class made by type() from a clean base", """
        class Plain:
            def __call__(self, v):
                return v * 2.0

        Layer = type('Layer', (Plain,), {})

        def apply(v):
            return Layer()(v)
    """),
    ("a class attribute holding a library function", """
        class Model:
            act = jax.nn.relu

        def apply(v):
            return clean(Model.act(v))
    """),
    ("a method returning a clean function", """
        class Model:
            def make(self):
                return clean

        def apply(v):
            return Model().make()(v)
    """),
    ("a method of an object of no known class", """
        def apply(v, opt=None):
            return clean(opt.update()(v))
    """),
    ("getattr of a method with a clean body", """
        class Model:
            def forward(self, v):
                return v * 2.0

        def apply(v):
            return clean(getattr(Model(), 'forward')(v))
    """),
    ("a method of an instance attribute with a clean body", """
        class Plain:
            def run(self, v):
                return v * 2.0

        class Model:
            def __init__(self):
                self.layer = Plain()

            def __call__(self, v):
                return clean(self.layer.run(v))

        def apply(v):
            return Model()(v)
    """),
    ("a classmethod calling cls builds an instance", """
        class Plain:
            def __init__(self, v=None):
                self.v = v

            @classmethod
            def make(cls, v):
                return cls(v)

        def apply(v):
            return clean(Plain.make(v).v)
    """),
    ("operator.call of a clean function", """
        import operator

        def apply(v):
            return operator.call(clean, v)
    """),
]


@pytest.mark.parametrize("body", [b for _, b in QUIET], ids=[i for i, _ in QUIET])
def test_nothing_reaching_a_shard_map_gives_nothing(tmp_path: Path, body: str) -> None:
    analysis = _analyse(tmp_path, body)
    assert not analysis.findings and not analysis.unfollowed, [u.what for u in analysis.unfollowed]


def _strip_reason(analysis) -> str:
    """The reason of the strip fix of the first finding."""
    return next(f.reason for f in analysis.findings[0].fixes if f.id.transform.value == "strip")


def test_an_instance_kept_by_the_vmapped_function_makes_strip_unsafe(tmp_path: Path) -> None:
    """breaker11 a39: `SEEN.append(w)` in the vmapped `apply` keeps the instance, and `type(SEEN[0])()(v)` runs
    `Base.__call__`'s shard_map outside the vmap: the strip changes that call too (its local shard), so it is
    unsafe naming the read that hands the instance on (was SAFE: the read counted as under the vmap)."""
    analysis = _analyse(tmp_path, """
        from pkg.base import Base

        class Wide(Base):
            pass

        SEEN = []

        def apply(v):
            w = Wide()
            SEEN.append(w)
            return w(v)

        def evaluate(v):
            return type(SEEN[0])()(v)
    """)
    # (the read does not call it: named as the escape it is, `passes it to SEEN.append`, not as a place it runs)
    reason = _strip_reason(analysis)
    assert "escapes this vmap at places that do not call it" in reason and "`SEEN.append(w)`" in reason
    assert "passes it to `SEEN.append`: not a call of it" in reason


def test_an_instance_kept_by_a_traced_helper_makes_strip_unsafe(tmp_path: Path) -> None:
    """As above, the instance passed to a function the vmapped callable traces (`keep(w, v)`), which keeps it: the
    parameter's reads in `keep` decide (`SEEN.append(fn)` hands it on), not the call of a traced function alone."""
    analysis = _analyse(tmp_path, """
        from pkg.base import Base

        class Wide(Base):
            pass

        SEEN = []

        def keep(fn, v):
            SEEN.append(fn)
            return fn(v)

        def apply(v):
            return keep(Wide(), v)

        def evaluate(v):
            return type(SEEN[0])()(v)
    """)
    assert "`SEEN.append(fn)`" in _strip_reason(analysis)


@pytest.mark.parametrize("call", [
    "jax.lax.map(w, v[None])[0]", "operator.call(w, v)", "getattr(w, '__call__')(v)", "run(w, v)", "run(fn=w, v=v)",
])
def test_an_instance_called_at_once_keeps_strip_safe(tmp_path: Path, call: str) -> None:
    """The control: the instance given to code that calls it there and then runs under the vmap only."""
    analysis = _analyse(tmp_path, f"""
        import operator
        from pkg.base import Base

        class Wide(Base):
            pass

        def run(fn, v):
            return fn(v)

        def apply(v):
            w = Wide()
            return {call}
    """)
    assert "also runs without this vmap" not in _strip_reason(analysis)
