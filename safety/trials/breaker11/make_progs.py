"""Writes progs/ (the breaker11 programs): python make_progs.py. Groups: a* inherited/other spellings of
`Cls()(x)` (Auto mesh, SPMD001/002); e* batch placements add-axis may misread on an Explicit mesh
(jax.make_mesh default); c* an unbatched array closed over from another module (SPMD003 and the rank
exemption); f* flax modules."""
import pathlib, shutil, textwrap
HERE = pathlib.Path(__file__).resolve().parent
P = {}
PYPROJECT = '[project]\nname = "{name}"\nversion = "0"\n'

# ---------------- group a: the __call__ of a class (Auto mesh) ----------------
A_CONFIG = """import jax
from jax.sharding import AxisType

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
"""
A_BASE = """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Base:
    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
"""
A_TRAIN = """import jax

from pkg.model import apply


def step(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
"""
A_MAIN = """import numpy as np
from pkg.train import step
EXTRA_IMPORT

def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    ok = np.allclose(np.asarray(out), xs * 2.0 * MULT)
    EXTRA_CHECK
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
"""


def a(name, model, base=A_BASE, mult="1.0", extra_import="", extra_check="", extra=None):
    main = A_MAIN.replace("MULT", mult).replace("EXTRA_IMPORT", extra_import).replace("EXTRA_CHECK", extra_check or "pass")
    files = {"pkg/__init__.py": "", "pkg/config.py": A_CONFIG, "pkg/base.py": base, "pkg/model.py": model,
             "pkg/train.py": A_TRAIN, "main.py": main}
    files.update(extra or {})
    P[name] = files


a("a01_instance_in_dict", """from pkg.base import Base


class Layer(Base):
    pass


LAYERS = {'layer': Layer()}


def apply(v):
    return LAYERS['layer'](v)
""")
a("a02_instance_in_list", """from pkg.base import Base


class Layer(Base):
    pass


LAYERS = [Layer()]


def apply(v):
    return LAYERS[0](v)
""")
a("a03_instance_passed_to_function", """from pkg.base import Base


class Layer(Base):
    pass


def run(layer, v):
    return layer(v)


def apply(v):
    return run(Layer(), v)
""")
a("a04_partial_of_instance", """import functools

from pkg.base import Base


class Layer(Base):
    pass


apply = functools.partial(Layer())
""")
a("a05_getattr_dunder_call", """from pkg.base import Base


class Layer(Base):
    pass


def apply(v):
    return getattr(Layer(), '__call__')(v)
""")
a("a06_explicit_dunder_call", """from pkg.base import Base


class Layer(Base):
    pass


def apply(v):
    return Layer().__call__(v)
""")
# a07: sibling subclass's super().__call__ under the vmap; another subclass called outside the vmap
a("a07_super_call_sibling_outside", """from pkg.base import Base


class Narrow(Base):
    def __call__(self, v):
        return super().__call__(v) * 1.0


class Wide(Base):
    pass


def apply(v):
    return Narrow()(v)


def evaluate(v):
    return Wide()(v)
""", extra_import="from pkg.model import evaluate", extra_check="ok = ok and np.allclose(np.asarray(evaluate(xs[0])), xs[0] * 2.0)")
a("a08_type_made_subclass", """from pkg.base import Base

Layer = type('Layer', (Base,), {})


def apply(v):
    return Layer()(v)
""")
a("a09_class_decorator", """from pkg.base import Base

REGISTRY = {}


def register(cls):
    REGISTRY[cls.__name__] = cls
    return cls


@register
class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""")
# a10: Base.__init_subclass__ gives every subclass a __call__ of its own without shard_map: JAX runs
a("a10_init_subclass_replaces_call", """from pkg.base import Base


class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""", base=A_BASE + """
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.__call__ = lambda self, v: v * 2.0
""")
# a11: a metaclass on the BASE: Layer() returns a plain function (no shard_map): JAX runs
a("a11_metaclass_on_base", """from pkg.base import Base


class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""", base="""import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Meta(type):
    def __call__(cls, *args):
        return lambda v: v * 2.0


class Base(metaclass=Meta):
    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
""")
# a12: diamond, another base's __call__ (no shard_map) wins the MRO: JAX runs
a("a12_diamond_other_base_wins", """from pkg.base import Base


class Plain:
    def __call__(self, v):
        return v * 2.0


class Mid(Base):
    pass


class Layer(Plain, Mid):
    pass


def apply(v):
    return Layer()(v)
""")
# a13: diamond, Base's __call__ wins through Mid (listed first): JAX fails
a("a13_diamond_base_wins", """from pkg.base import Base


class Plain:
    def __call__(self, v):
        return v * 2.0


class Mid(Base):
    pass


class Layer(Mid, Plain):
    pass


def apply(v):
    return Layer()(v)
""")
# a14: __call__ replaced after the class by a plain function: JAX runs
a("a14_call_replaced_after_class_plain", """from pkg.base import Base


class Layer(Base):
    pass


def _plain(self, v):
    return v * 2.0


Layer.__call__ = _plain


def apply(v):
    return Layer()(v)
""")
# a15: the base's __call__ is plain, a module sets Base.__call__ to a shard_map one after: JAX fails
a("a15_base_call_set_after_class", """import jax
from jax.sharding import PartitionSpec as P

from pkg.base import Base
from pkg.config import MESH


def _sharded(self, v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


Base.__call__ = _sharded


class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""", base="""class Base:
    def __call__(self, v):
        return v * 2.0
""")
a("a16_star_import_base", """from pkg.base import *


class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""")
a("a17_alias_attribute_base", """import pkg.base

Base = pkg.base.Base


class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""")
a("a18_generic_base", """from typing import Generic, TypeVar

from pkg.base import Base

T = TypeVar('T')


class Layer(Base, Generic[T]):
    pass


def apply(v):
    return Layer()(v)
""")
a("a19_abc_base", """from pkg.base import Base


class Layer(Base):
    def extra(self):
        return 1


def apply(v):
    return Layer()(v)
""", base="""import abc

import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Base(abc.ABC):
    @abc.abstractmethod
    def extra(self):
        ...

    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
""")
a("a20_dataclass_inherits_call", """import dataclasses

from pkg.base import Base


@dataclasses.dataclass
class Layer(Base):
    scale: float = 1.0


def apply(v):
    return Layer(1.0)(v)
""")
# a21: Wide under the vmap; Narrow instance kept in a registry dict and called outside the vmap
a("a21_strip_other_subclass_in_registry", """from pkg.base import Base


class Wide(Base):
    pass


class Narrow(Base):
    pass


REGISTRY = {'narrow': Narrow()}


def apply(v):
    return Wide()(v)


def evaluate(v):
    return REGISTRY['narrow'](v)
""", extra_import="from pkg.model import evaluate", extra_check="ok = ok and np.allclose(np.asarray(evaluate(xs[0])), xs[0] * 2.0)")
# a22: the Base instance itself called outside the vmap through map()
a("a22_strip_base_called_by_map", """from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


def evaluate(xs):
    return list(map(Base(), xs))
""", extra_import="from pkg.model import evaluate", extra_check="ok = ok and np.allclose(np.asarray(evaluate(xs)[0]), xs[0] * 2.0)")
# a23: Layer(Base) where Base is a module-level name bound by a conditional import
a("a23_base_from_conditional_import", """try:
    from pkg.base import Base
except ImportError:
    class Base:
        def __call__(self, v):
            return v * 2.0


class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""")
# a24: the vmapped apply is the bound method of a stored instance
a("a24_bound_method_stored", """from pkg.base import Base


class Layer(Base):
    pass


apply = Layer().__call__
""")

# ---------------- group e: add-axis on an Explicit mesh ----------------
E_CONFIG = "import jax\n\nMESH = jax.make_mesh((2, 4), ('x', 'y'))\n"
E_MODEL = """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def accumulate(xs):
    return jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
"""
E_MAIN = """import numpy as np
from pkg.train import step


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
"""
E_HEAD = """import functools

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate
"""


def e(name, train, extra=None):
    files = {"pkg/__init__.py": "", "pkg/config.py": E_CONFIG, "pkg/model.py": E_MODEL,
             "pkg/train.py": E_HEAD + "\n\n" + train, "main.py": E_MAIN}
    files.update(extra or {})
    P[name] = files


e("e00_control_straight_line", """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return accumulate(xs)
""")
e("e01_rebound_by_helper_call", """def place(a):
    return jax.device_put(a, NamedSharding(MESH, P('x', None)))


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    xs = place(xs)
    return accumulate(xs)
""")
e("e02_list_box_rebound_by_helper", """def replace(box):
    box[0] = jax.device_put(box[0], NamedSharding(MESH, P('x', None)))


def step(xs):
    box = [jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))]
    replace(box)
    return accumulate(box[0])
""")
e("e03_dict_state_rebound_by_helper", """def replace(state):
    state['xs'] = jax.device_put(state['xs'], NamedSharding(MESH, P('x', None)))


def step(xs):
    state = {'xs': jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))}
    replace(state)
    xs = state['xs']
    return accumulate(xs)
""")
e("e04_decorator_replaces_arg", """def on_batch_axis(fn):
    @functools.wraps(fn)
    def wrapped(a):
        return fn(jax.device_put(a, NamedSharding(MESH, P('x', None))))
    return wrapped


@on_batch_axis
def run(xs):
    return accumulate(xs)


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return run(xs)
""")
e("e05_spec_global_rebound_by_exec", """SPEC = P(None, 'x')
exec("SPEC = P('x', None)")


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, SPEC))
    return accumulate(xs)
""")
e("e06_match_statement_rebinds", """def step(xs, mode='batch'):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    match mode:
        case 'batch':
            xs = jax.device_put(xs, NamedSharding(MESH, P('x', None)))
        case _:
            pass
    return accumulate(xs)
""")
e("e07_conditional_expression_spec", """def step(xs, flip=True):
    xs = jax.device_put(xs, NamedSharding(MESH, P('x', None) if flip else P(None, 'x')))
    return accumulate(xs)
""")
e("e08_spec_name_rebound_in_if", """def step(xs, flip=True):
    spec = P(None, 'x')
    if flip:
        spec = P('x', None)
    xs = jax.device_put(xs, NamedSharding(MESH, spec))
    return accumulate(xs)
""")
e("e09_sharding_name_rebound_in_if", """def step(xs, flip=True):
    sharding = NamedSharding(MESH, P(None, 'x'))
    if flip:
        sharding = NamedSharding(MESH, P('x', None))
    xs = jax.device_put(xs, sharding)
    return accumulate(xs)
""")
e("e10_bare_spec_device_put_under_set_mesh", """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    with jax.set_mesh(MESH):
        xs = jax.device_put(xs, P('x', None))
        return accumulate(xs)
""")
e("e11_partial_device_put", """place = functools.partial(jax.device_put, device=NamedSharding(MESH, P('x', None)))


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    xs = place(xs)
    return accumulate(xs)
""")
e("e12_lambda_rebinds", """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    xs = (lambda a: jax.device_put(a, NamedSharding(MESH, P('x', None))))(xs)
    return accumulate(xs)
""")
e("e13_spec_from_other_module_rebound", """from pkg import specs


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, specs.BATCH))
    return accumulate(xs)
""", extra={"pkg/specs.py": """from jax.sharding import PartitionSpec as P

BATCH = P(None, 'x')


def use_batch_axis():
    global BATCH
    BATCH = P('x', None)


use_batch_axis()
"""})
e("e14_attribute_rebound_by_method", """class Holder:
    def __init__(self, xs):
        self.xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))

    def to_batch(self):
        self.xs = jax.device_put(self.xs, NamedSharding(MESH, P('x', None)))


def step(xs):
    h = Holder(xs)
    h.to_batch()
    return accumulate(h.xs)
""")
e("e15_with_sharding_constraint_rebinds", """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    xs = jax.lax.with_sharding_constraint(xs, NamedSharding(MESH, P('x', None)))
    return accumulate(xs)
""")
# e16: add-axis changes the mesh another module unpacks
e("e16_mesh_shape_unpacked_elsewhere", """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return accumulate(xs) * scale()


def scale():
    from pkg import config
    rows, cols = config.MESH.devices.shape
    return rows * cols / 8.0
""")
e("e17_abstract_mesh_read_in_body", """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    with jax.set_mesh(MESH):
        first = jax.sharding.get_abstract_mesh().axis_names[0]
        n = jax.sharding.get_abstract_mesh().shape[first]
    return accumulate(xs) * (n / 2.0)
""")

# ---------------- group c: an unbatched array closed over from another module ----------------
C_CONFIG = """import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh

DATA = "data"
MODEL = "model"

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), (DATA, MODEL))

W_DEF
"""
C_MODEL = """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import W, mesh


def block(x):
    def body(b):
        return b * W

    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)
"""
C_TRAIN = """import jax

from pkg.config import DATA
from pkg.model import block


def forward(xs):
    return jax.jit(jax.vmap(block, spmd_axis_name=DATA))(xs)
"""
C_MAIN = """import numpy as np

from pkg.config import W
from pkg.train import forward


def main():
    xs = (np.arange(8 * 8 * 8, dtype=np.float32).reshape(8, 8, 8) - 21.0) / 16.0
    out = forward(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * np.asarray(W)) else "RESULT: mismatch")


main()
"""


def c(name, w_def, model=C_MODEL, main=C_MAIN, extra=None):
    files = {"pkg/__init__.py": "", "pkg/config.py": C_CONFIG.replace("W_DEF", w_def), "pkg/model.py": model,
             "pkg/train.py": C_TRAIN, "main.py": main}
    files.update(extra or {})
    P[name] = files


c("c00_control_rank1_runs", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)")
c("c01_rank2_literal_fails", "W = jnp.ones((8, 8), dtype=jnp.float32)")
c("c02_rebound_under_flag", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)\nFLAG = True\nif FLAG:\n    W = W[None, :]")
c("c03_reshape_after_literal", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32).reshape(1, 8)")
c("c04_linspace_array_endpoints", "W = jnp.linspace(jnp.zeros(8), jnp.ones(8), 8, dtype=jnp.float32)")
c("c05_atleast_2d", "W = jnp.atleast_2d(jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32))")
c("c06_scalar_runs", "W = jnp.ones((), dtype=jnp.float32) * 1.5")
c("c07_sum_reduces_rank_runs", "W = jnp.ones((8, 8), dtype=jnp.float32).sum(0)")
c("c08_reexport_rank2", "W = jnp.ones((8, 8), dtype=jnp.float32)",
  model=C_MODEL.replace("from pkg.config import W, mesh", "from pkg.consts import W\nfrom pkg.config import mesh"),
  extra={"pkg/consts.py": "from pkg.config import W\n"})
c("c09_reexport_rank1_reassigned", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)",
  model=C_MODEL.replace("from pkg.config import W, mesh", "from pkg.consts import W\nfrom pkg.config import mesh"),
  extra={"pkg/consts.py": "from pkg.config import W\n\nW = W.reshape(2, 4).T.reshape(1, 8)\n"},
  main=C_MAIN.replace("from pkg.config import W", "from pkg.consts import W"))
c("c10_importer_rebinds_attribute", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)",
  model=C_MODEL.replace("from pkg.config import W, mesh", "from pkg import config\nfrom pkg.config import mesh").replace("b * W", "b * config.W"),
  main=C_MAIN.replace("from pkg.config import W\n", "from pkg import config\n").replace(
      "def main():\n", "def main():\n    config.W = config.W[None, :]\n").replace("np.asarray(W)", "np.asarray(config.W)"))
c("c11_star_import_rank2", "W = jnp.ones((8, 8), dtype=jnp.float32)",
  model=C_MODEL.replace("from pkg.config import W, mesh", "from pkg.config import *"))
c("c12_annotated_rank2", "W: jax.Array = jnp.ones((1, 8), dtype=jnp.float32)")
c("c13_tuple_unpack_rank2", "W, SCALE = jnp.ones((1, 8), dtype=jnp.float32), 2.0")
c("c14_expand_dims_in_config_function", "def _make():\n    return jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)[None]\n\n\nW = _make()")

# ---------------- group f: flax modules ----------------
F_NNX = """import jax
from flax import nnx
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Base(nnx.Module):
    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
"""
a("f01_nnx_inherited_call", """from pkg.base import Base


class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""", base=F_NNX)
F_LINEN = """import jax
import flax.linen as nn
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Base(nn.Module):
    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
"""
a("f02_linen_inherited_call", """from pkg.base import Base


class Layer(Base):
    pass


def apply(v):
    return Layer().apply({}, v)
""", base=F_LINEN)

# ---------------- more spellings (second round) ----------------
a("a25_super_call_only", """from pkg.base import Base


class Narrow(Base):
    def __call__(self, v):
        return super().__call__(v) * 1.0


def apply(v):
    return Narrow()(v)
""")
a("a26_unbound_call_on_class", """from pkg.base import Base


class Layer(Base):
    pass


def apply(v):
    return Layer.__call__(Layer(), v)
""")
a("a27_operator_call", """import operator

from pkg.base import Base


class Layer(Base):
    pass


def apply(v):
    return operator.call(Layer(), v)
""")
a("a28_class_alias_no_subclass", """from pkg.base import Base

Layer = Base


def apply(v):
    return Layer()(v)
""")
a("a29_nested_class", """from pkg.base import Base


class Outer:
    class Layer(Base):
        pass


def apply(v):
    return Outer.Layer()(v)
""")
a("a30_class_factory", """from pkg.base import Base


def make():
    class Layer(Base):
        pass
    return Layer


def apply(v):
    return make()()(v)
""")
a("a31_instance_class_attribute", """from pkg.base import Base


class Layer(Base):
    pass


class Model:
    layer = Layer()


def apply(v):
    return Model.layer(v)
""")
a("a32_instance_self_attribute", """from pkg.base import Base


class Layer(Base):
    pass


class Model:
    def __init__(self):
        self.layer = Layer()

    def forward(self, v):
        return self.layer(v)


def apply(v):
    return Model().forward(v)
""")
e("e18_param_default_spec_caller_passes", """def step(xs, spec=P(None, 'x')):
    xs = jax.device_put(xs, NamedSharding(MESH, spec))
    return accumulate(xs)
""", extra={"main.py": E_MAIN.replace("from pkg.train import step", "from jax.sharding import PartitionSpec as P\nfrom pkg.train import step").replace("step(xs)", "step(xs, P('x', None))")})
e("e19_module_spec_set_by_importer", """SPEC = P(None, 'x')


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, SPEC))
    return accumulate(xs)
""", extra={"main.py": E_MAIN.replace("from pkg.train import step", "from jax.sharding import PartitionSpec as P\nimport pkg.train\nfrom pkg.train import step\npkg.train.SPEC = P('x', None)")})
e("e20_globals_dict_rebinds_spec", """SPEC = P(None, 'x')
globals()['SPEC'] = P('x', None)


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, SPEC))
    return accumulate(xs)
""")
e("e21_class_attribute_spec_rebound", """class Cfg:
    SPEC = P(None, 'x')


Cfg.SPEC = P('x', None)


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, Cfg.SPEC))
    return accumulate(xs)
""")
e("e22_decorator_on_step_plain_wrapper", """def on_batch_axis(fn):
    def wrapped(a):
        return fn(jax.device_put(a, NamedSharding(MESH, P('x', None))))
    return wrapped


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return on_batch_axis(accumulate)(xs)
""")

# ---------------- strip safety: Base.__call__ also runs outside the vmap through an unfollowed spelling;
# main reads the outside call's local shard (as a per-shard checkpoint writer would): P('x') gives (4,) ----------
SHARD = "one = evaluate(xs[0]); ok = ok and np.allclose(np.asarray(one), xs[0] * 2.0) and one.addressable_shards[0].data.shape == (4,)"
WIDE = """from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)
"""
a("a33_strip_outside_super_sibling", WIDE + """

class Narrow(Base):
    def __call__(self, v):
        return super().__call__(v)


def evaluate(v):
    return Narrow()(v)
""", extra_import="from pkg.model import evaluate", extra_check=SHARD)
a("a34_strip_outside_getattr", WIDE + """

def evaluate(v):
    return getattr(Base(), '__call__')(v)
""", extra_import="from pkg.model import evaluate", extra_check=SHARD)
a("a35_strip_outside_class_attribute_instance", WIDE + """

class Holder:
    layer = Base()


def evaluate(v):
    return Holder.layer(v)
""", extra_import="from pkg.model import evaluate", extra_check=SHARD)
a("a36_strip_outside_direct_control", WIDE + """

def evaluate(v):
    return Base()(v)
""", extra_import="from pkg.model import evaluate", extra_check=SHARD)
a("a37_strip_outside_nested_class", WIDE + """

class Outer:
    class Narrow(Base):
        pass


def evaluate(v):
    return Outer.Narrow()(v)
""", extra_import="from pkg.model import evaluate", extra_check=SHARD)

a("a38_strip_outside_via_cached_factory", """from pkg.base import Base


class Wide(Base):
    pass


CACHE = {}


def layer():
    if 'l' not in CACHE:
        CACHE['l'] = Wide()
    return CACHE['l']


def apply(v):
    return layer()(v)


def evaluate(v):
    return layer()(v)
""", extra_import="from pkg.model import evaluate", extra_check=SHARD)
a("a39_strip_outside_via_type_of_instance", """from pkg.base import Base


class Wide(Base):
    pass


SEEN = []


def apply(v):
    w = Wide()
    SEEN.append(w)
    return w(v)


def evaluate(v):
    return type(SEEN[0])()(v)
""", extra_import="from pkg.model import evaluate", extra_check=SHARD)
a("a40_strip_outside_instance_returned", """from pkg.base import Base


class Wide(Base):
    pass


def make():
    return Wide()


def apply(v):
    return make()(v)


def evaluate(v):
    f = make()
    return f(v)
""", extra_import="from pkg.model import evaluate", extra_check=SHARD)

# ---------------- c15+: the block's rank is a literal of train.py (rank 2 per example), so the rank exemption
# is what decides; W's own shape is read in config.py ----------------
C_TRAIN_LIT = """import jax
import jax.numpy as jnp

from pkg.config import DATA
from pkg.model import block


def forward():
    xs = (jnp.arange(8 * 8 * 8, dtype=jnp.float32).reshape(8, 8, 8) - 21.0) / 16.0
    return xs, jax.jit(jax.vmap(block, spmd_axis_name=DATA))(xs)
"""
C_MAIN_LIT = """import numpy as np
PRE
from pkg import config
from pkg.train import forward


def main():
    xs, out = forward()
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(xs) * np.asarray(config.W)) else "RESULT: mismatch")


main()
"""
c("c15_control_literal_rank_exempt", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)",
  extra={"pkg/train.py": C_TRAIN_LIT, "main.py": C_MAIN_LIT.replace("PRE\n", "")})
c("c16_importer_rebinds_before_model_import", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)",
  extra={"pkg/train.py": C_TRAIN_LIT, "main.py": C_MAIN_LIT.replace("PRE\n", "import pkg.config\npkg.config.W = pkg.config.W[None, :]\n")})
c("c17_config_straight_line_second_write", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)\nW = W[None, :]",
  extra={"pkg/train.py": C_TRAIN_LIT, "main.py": C_MAIN_LIT.replace("PRE\n", "")})
c("c18_config_global_in_setup", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)\n\n\ndef _setup():\n    global W\n    W = W[None, :]\n\n\n_setup()",
  extra={"pkg/train.py": C_TRAIN_LIT, "main.py": C_MAIN_LIT.replace("PRE\n", "")})
c("c19_config_if_rebinds", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)\nif W.ndim == 1:\n    W = W[None, :]",
  extra={"pkg/train.py": C_TRAIN_LIT, "main.py": C_MAIN_LIT.replace("PRE\n", "")})
c("c20_setattr_module_rebinds", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)",
  extra={"pkg/train.py": C_TRAIN_LIT, "main.py": C_MAIN_LIT.replace("PRE\n", "import pkg.config\nsetattr(pkg.config, 'W', pkg.config.W[None, :])\n")})
c("c21_model_rebinds_imported_name", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)",
  model=C_MODEL.replace("from pkg.config import W, mesh\n", "from pkg.config import W, mesh\n\nW = W[None, :]\n"),
  extra={"pkg/train.py": C_TRAIN_LIT, "main.py": C_MAIN_LIT.replace("PRE\n", "").replace("config.W", "model.W").replace("from pkg import config", "from pkg import model")})
c("c22_literal_rank_one_shape_tuple", "W = jnp.ones((1, 8), dtype=jnp.float32).reshape(8)",
  extra={"pkg/train.py": C_TRAIN_LIT, "main.py": C_MAIN_LIT.replace("PRE\n", "")})

# ---------------- add-axis: what else sees the mesh (Auto mesh so that add-axis can be safe) ----------------
ONE = """import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: BODY, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def step(xs):
    return jax.vmap(block, spmd_axis_name='x')(xs)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    EXTRA
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
"""
P["e23_one_module_body_reads_abstract_mesh"] = {"main.py": ONE.replace("BODY", "b * len(jax.sharding.get_abstract_mesh().axis_names)").replace("EXTRA", "pass")}
P["e24_one_module_mesh_read_by_np_shape"] = {"main.py": ONE.replace("BODY", "b * 2.0").replace("EXTRA", "rows, cols = np.shape(jax.tree.leaves(vars(mesh))[0]) if False else (1, 1)\n    out = out * (rows * cols)")}
P["e25_one_module_mesh_in_globals_reader"] = {"main.py": ONE.replace("BODY", "b * 2.0").replace("EXTRA", "rows, cols = globals()['me' + 'sh'].devices.shape\n    out = out * (rows * cols / 8.0)")}
P["e26_one_module_body_psum_all_axes_size"] = {"main.py": ONE.replace("BODY", "b * 2.0 * (8 ** len(jax.sharding.get_abstract_mesh().shape) // 64)").replace("EXTRA", "pass")}
P["e27_mesh_factory_called_twice"] = {"main.py": ONE.replace("mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))",
    "def make():\n    return jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\nmesh = make()").replace("BODY", "b * 2.0").replace("EXTRA", "rows, cols = make().devices.shape\n    out = out * (rows * cols / 8.0)")}

P["e28_one_module_body_axis_size_of_first_axis"] = {"main.py": ONE.replace("BODY", "b * jax.lax.axis_size(jax.sharding.get_abstract_mesh().axis_names[0])").replace("EXTRA", "pass")}
P["e29_pkg_body_axis_size_of_first_axis"] = {"pkg/__init__.py": "", "pkg/config.py": A_CONFIG, "pkg/model.py": A_BASE.replace("class Base:\n    def __call__(self, v):", "def apply(v):").replace("        return jax.shard_map(lambda b: b * 2.0", "    return jax.shard_map(lambda b: b * jax.lax.axis_size(jax.sharding.get_abstract_mesh().axis_names[0])"),
    "pkg/train.py": A_TRAIN, "main.py": A_MAIN.replace("MULT", "1.0").replace("EXTRA_IMPORT", "").replace("EXTRA_CHECK", "pass")}

P["e30_one_module_rename_body_psum_over_y"] = {"main.py": ONE.replace("BODY", "b * 2.0 * (jax.lax.psum(1, 'y') / 4)").replace("EXTRA", "pass")}
P["e31_one_module_rename_body_axis_index_y"] = {"main.py": ONE.replace("BODY", "b * 2.0 + 0.0 * jax.lax.axis_index('y')").replace("EXTRA", "pass")}

ONE_C = """import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ('data', 'model'))
W_DEF


def block(x):
    return jax.shard_map(lambda b: b * W, mesh=mesh, in_specs=P(), out_specs=P())(x)


def forward(xs):
    return jax.jit(jax.vmap(block, spmd_axis_name='data'))(xs)


xs = np.ones((8, 8, 8), np.float32)
out = forward(xs)
print("RESULT: match" if np.allclose(np.asarray(out), xs * np.asarray(W)) else "RESULT: mismatch")
"""
P["c23_one_module_scalar_runs"] = {"main.py": ONE_C.replace("W_DEF", "W = jnp.ones((), dtype=jnp.float32) * 1.5")}
P["c24_one_module_rank1_under_rank2_block_runs"] = {"main.py": ONE_C.replace("W_DEF", "W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)")}

# ---------------- strip safety, round 2: Wide (no __call__ of its own) reached outside the vmap ----------------
def outside(name, body, extra=None):
    a(name, WIDE + "\n\n" + body, extra_import="from pkg.model import evaluate", extra_check=SHARD, extra=extra)


outside("a41_strip_outside_default_arg_class", """def evaluate(v, cls=Wide):
    return cls()(v)
""")
outside("a42_strip_outside_class_registry", """CLASSES = {'wide': Wide}


def evaluate(v):
    return CLASSES['wide']()(v)
""")
outside("a43_strip_outside_module_attribute_other_module", """from pkg.evaluate import evaluate
""", extra={"pkg/evaluate.py": """import pkg.model


def evaluate(v):
    return pkg.model.Wide()(v)
"""})
outside("a44_strip_outside_copy_of_instance", """import copy

PROTO = Wide()


def apply2(v):
    return PROTO(v)


def evaluate(v):
    return copy.copy(PROTO)(v)
""")
outside("a45_strip_outside_deeper_mid", """class Deep(Wide):
    pass


def evaluate(v):
    return Deep()(v)
""")
outside("a46_strip_outside_classmethod_factory", """Wide.create = classmethod(lambda cls: cls())


def evaluate(v):
    return Wide.create()(v)
""")
outside("a47_strip_outside_instance_self_type", """def evaluate(v):
    w = Wide()
    return w.__class__()(v)
""")
outside("a48_strip_outside_subclasses_of_base", """def evaluate(v):
    return Base.__subclasses__()[0]()(v)
""")

# ---------------- SPMD008 (shard_map axis_names naming the spmd axis, batch placed on Explicit 'x'):
# the placement read as P(None, 'y') but re-made on P('x', None) where the reading does not look ----------------
S_MODEL = """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def block(x):
    def body(b):
        return b * 2.0 + 1.0
    return jax.shard_map(body, mesh=MESH, in_specs=P('y'), out_specs=P('y'), axis_names={'x', 'y'})(x)


def accumulate(fn, xs):
    return jax.vmap(fn, spmd_axis_name='x')(xs)
"""
S_HEAD = """import functools

import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate, block
"""
S_MAIN = E_MAIN.replace("xs * 2.0)", "xs * 2.0 + 1.0)")


def s(name, train, extra=None):
    files = {"pkg/__init__.py": "", "pkg/config.py": E_CONFIG, "pkg/model.py": S_MODEL,
             "pkg/train.py": S_HEAD + "\n\n" + train, "main.py": S_MAIN}
    files.update(extra or {})
    P[name] = files


s("s00_control_straight_reshard_x", """def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P('x', None))
        return accumulate(block, xs)
""")
s("s01_decorator_reshards_arg", """def on_batch_axis(fn):
    @functools.wraps(fn)
    def wrapped(a):
        return fn(jax.sharding.reshard(a, P('x', None)))
    return wrapped


@on_batch_axis
def run(xs):
    return accumulate(block, xs)


def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P(None, 'y'))
        return run(xs)
""")
s("s02_spec_rebound_by_exec", """SPEC = P(None, 'y')
exec("SPEC = P('x', None)")


def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, SPEC)
        return accumulate(block, xs)
""")
s("s03_helper_call_reshards", """def to_batch(a):
    return jax.sharding.reshard(a, P('x', None))


def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P(None, 'y'))
        xs = to_batch(xs)
        return accumulate(block, xs)
""")
s("s04_list_box_helper_reshards", """def to_batch(box):
    box[0] = jax.sharding.reshard(box[0], P('x', None))


def step(xs):
    with jax.set_mesh(MESH):
        box = [jax.sharding.reshard(xs, P(None, 'y'))]
        to_batch(box)
        return accumulate(block, box[0])
""")
s("s05_match_reshards", """def step(xs, mode='batch'):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P(None, 'y'))
        match mode:
            case 'batch':
                xs = jax.sharding.reshard(xs, P('x', None))
        return accumulate(block, xs)
""")
s("s06_spec_name_rebound_in_if", """def step(xs, flip=True):
    spec = P(None, 'y')
    if flip:
        spec = P('x', None)
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, spec)
        return accumulate(block, xs)
""")

s("s07_helper_call_reshards_only", """def to_batch(a):
    return jax.sharding.reshard(a, P('x', None))


def step(xs):
    with jax.set_mesh(MESH):
        xs = to_batch(xs)
        return accumulate(block, xs)
""")
s("s08_unplaced_then_helper_in_other_module", """from pkg.placing import to_batch


def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P(None, 'y'))
        xs = to_batch(xs)
        return accumulate(block, xs)
""", extra={"pkg/placing.py": "import jax\nfrom jax.sharding import PartitionSpec as P\n\n\ndef to_batch(a):\n    return jax.sharding.reshard(a, P('x', None))\n"})

# ---------------- rename: a second call of the same vmapped function with a batch 'y' (4) does not divide ------
R_HEAD = """import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


vf = jax.vmap(block, spmd_axis_name='x')
"""
R_TAIL = """

def main():
    a = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    b = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    outs = run(a, b)
    ok = all(np.allclose(np.asarray(o), x * 2.0) for o, x in zip(outs, (a, b)))
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
"""
P["r01_two_calls_second_batch_6"] = {"main.py": R_HEAD + "\n\ndef run(a, b):\n    return vf(a), vf(b)\n" + R_TAIL}
P["r02_second_call_through_alias"] = {"main.py": R_HEAD + "\n\ndef run(a, b):\n    g = vf\n    return vf(a), g(b)\n" + R_TAIL}
P["r03_second_call_through_map"] = {"main.py": R_HEAD + "\n\ndef run(a, b):\n    return vf(a), list(map(vf, [b]))[0]\n" + R_TAIL}
P["r04_second_call_in_list"] = {"main.py": R_HEAD + "\n\nFNS = [vf]\n\n\ndef run(a, b):\n    return vf(a), FNS[0](b)\n" + R_TAIL}
P["r05_second_call_other_module"] = {"pkg/__init__.py": "", "pkg/model.py": R_HEAD + "\n\ndef first(a):\n    return vf(a)\n",
    "pkg/other.py": "from pkg.model import vf\n\n\ndef second(b):\n    return vf(b)\n",
    "main.py": "import numpy as np\nfrom pkg.model import first\nfrom pkg.other import second\n\n\ndef run(a, b):\n    return first(a), second(b)\n" + R_TAIL}
P["r06_batch_from_module_constant"] = {"main.py": R_HEAD + "\nN = 6\n\n\ndef run(a, b):\n    return vf(a), vf(np.arange(N * 8, dtype=np.float32).reshape(N, 8))\n" + R_TAIL}

# ---------------- strip where the specs are not the same map in and out (spmd_axis_name never changes values:
# the reference is the plain vmap's result, written in numpy) ----------------
X = """import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, SPECS)(v)


def step(xs):
    return jax.vmap(block, spmd_axis_name='x')(xs)


def main():
    xs = np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8)
    out = np.asarray(step(xs))
    ref = REF
    print("RESULT: match" if out.shape == ref.shape and np.allclose(out, ref) else "RESULT: mismatch")


main()
"""
P["x01_strip_in_dim0_out_dim1"] = {"main.py": X.replace("SPECS", "in_specs=P('x', None), out_specs=P(None, 'x')").replace(
    "REF", "np.concatenate([xs[:, :2], xs[:, 2:]], axis=2) * 2.0")}
P["x02_strip_axis_names_x"] = {"main.py": X.replace("SPECS", "in_specs=P('x'), out_specs=P('x'), axis_names={'x'}").replace("REF", "xs * 2.0")}
P["x03_strip_out_unmapped_unchecked"] = {"main.py": X.replace("SPECS", "in_specs=P('x'), out_specs=P(), check_vma=False").replace("REF", "xs[:, :2] * 2.0")}
P["x04_strip_in_x_out_x_y"] = {"main.py": X.replace("SPECS", "in_specs=P('x', None), out_specs=P('x', 'y')").replace(
    "REF", "np.concatenate([xs] * 4, axis=2) * 2.0")}

# ---------------- add-axis on Explicit: the batch's dimension read wrong ----------------
e("e32_transpose_after_placement", """def step(xs):
    xs = jax.device_put(xs.T, NamedSharding(MESH, P(None, 'x')))
    xs = xs.T
    return accumulate(xs)
""")
e("e33_local_P_reverses", """from jax.sharding import PartitionSpec


def P(*names):
    return PartitionSpec(*reversed(names))


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return accumulate(xs)
""")
e("e34_vmap_in_axes_1", """def step(xs):
    xs = jax.device_put(xs.T, NamedSharding(MESH, P(None, 'x')))
    return accumulate(xs)
""", extra={"pkg/model.py": E_MODEL.replace("jax.vmap(block, spmd_axis_name='x')", "jax.vmap(block, in_axes=1, spmd_axis_name='x')")})
e("e35_vmap_in_axes_1_control", """def step(xs):
    xs = jax.device_put(xs.T, NamedSharding(MESH, P('x', None)))
    return accumulate(xs)
""", extra={"pkg/model.py": E_MODEL.replace("jax.vmap(block, spmd_axis_name='x')", "jax.vmap(block, in_axes=1, spmd_axis_name='x')")})
e("e36_spec_names_tuple_reversed", """NAMES = (None, 'x')
NAMES = NAMES[::-1]


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(*NAMES)))
    return accumulate(xs)
""")

# ---------------- capture: more ways to reach config's rank-2 W ----------------
R2 = "W = jnp.ones((8, 8), dtype=jnp.float32)"
c("c25_import_as_alias", R2, model=C_MODEL.replace("from pkg.config import W, mesh", "from pkg.config import W as weights, mesh").replace("b * W", "b * weights"))
c("c26_import_inside_body", R2, model=C_MODEL.replace("from pkg.config import W, mesh", "from pkg.config import mesh").replace(
    "    def body(b):\n        return b * W", "    def body(b):\n        from pkg.config import W\n        return b * W"))
c("c27_module_attribute_read", R2, model=C_MODEL.replace("from pkg.config import W, mesh", "from pkg import config\nfrom pkg.config import mesh").replace("b * W", "b * config.W"))
c("c28_package_init_reexport", R2, model=C_MODEL.replace("from pkg.config import W, mesh", "from pkg import W\nfrom pkg.config import mesh"),
  extra={"pkg/__init__.py": "from pkg.config import W\n"})
c("c29_import_module_as_alias", R2, model=C_MODEL.replace("from pkg.config import W, mesh", "import pkg.config as cfg\nfrom pkg.config import mesh").replace("b * W", "b * cfg.W"))

# ---------------- add-axis: the mesh built from names other code also reads ----------------
MESH_LINE = "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))"
P["e37_axis_types_from_name"] = {"main.py": ONE.replace(MESH_LINE, "TYPES = (AxisType.Auto, AxisType.Auto)\nmesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=TYPES)").replace("BODY", "b * 2.0").replace("EXTRA", "pass")}
P["e38_names_tuple_also_in_specs"] = {"main.py": ONE.replace(MESH_LINE, "NAMES = ('x', 'y')\nmesh = jax.make_mesh((2, 4), NAMES, axis_types=(AxisType.Auto, AxisType.Auto))").replace("BODY", "b * 2.0").replace(
    "EXTRA", "out2 = jax.shard_map(lambda b: b * 1.0, mesh=mesh, in_specs=P(*NAMES), out_specs=P(*NAMES))(xs)\n    out = out * np.asarray(out2) / xs.clip(1)")}
P["e39_shape_names_vars_mesh_ctor"] = {"main.py": ONE.replace(MESH_LINE, "SHAPE = (2, 4)\nNAMES = ('x', 'y')\nmesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(SHAPE), NAMES, axis_types=(AxisType.Auto,) * len(NAMES))").replace("BODY", "b * 2.0").replace(
    "EXTRA", "ndev = int(np.prod(SHAPE))\n    out = out * (ndev / 8.0)")}
P["e40_axis_types_times_two"] = {"main.py": ONE.replace(MESH_LINE, "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)").replace("BODY", "b * 2.0").replace("EXTRA", "pass")}
P["e41_shape_var_read_elsewhere"] = {"main.py": ONE.replace(MESH_LINE, "SHAPE = (2, 4)\nmesh = jax.make_mesh(SHAPE, ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))").replace("BODY", "b * 2.0").replace(
    "EXTRA", "rows, cols = SHAPE\n    out = out * (rows * cols / 8.0)")}

# ---------------- crash hunting in the class-member lookup ----------------
a("k01_cyclic_bases_across_modules", """from pkg.other import Other


class Layer(Other):
    pass


def apply(v):
    return Layer()(v)
""", extra={"pkg/other.py": "from pkg.model import Layer\n\n\nclass Other(Layer):\n    pass\n"})
a("k02_base_bound_to_subclass_later", """from pkg.base import Base


class Layer(Base):
    pass


Base = Layer


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)
""")
a("k03_call_staticmethod", """from pkg.base import Base


def _plain(v):
    return Base()(v)


class Layer:
    __call__ = staticmethod(_plain)


def apply(v):
    return Layer()(v)
""")
a("k04_call_partialmethod", """import functools

from pkg.base import Base


class Layer(Base):
    __call__ = functools.partialmethod(Base.__call__)


def apply(v):
    return Layer()(v)
""")
CHAIN = "from pkg.base import Base\n\n\nclass L0(Base):\n    pass\n" + "".join(f"\n\nclass L{i}(L{i-1}):\n    pass\n" for i in range(1, 1500)) + "\n\ndef apply(v):\n    return L1499()(v)\n"
a("k05_chain_of_1500_subclasses", CHAIN)
a("k06_self_referential_call_assignment", """from pkg.base import Base


class Layer(Base):
    pass


Layer.__call__ = Layer.__call__


def apply(v):
    return Layer()(v)
""")
a("k07_class_in_own_bases_via_alias_same_module", """from pkg.base import Base

Alias = Base


class Layer(Alias):
    pass


class Alias(Layer):
    pass


def apply(v):
    return Alias()(v)
""")

# ---------------- class decorators that change __call__ ----------------
a("a49_decorator_replaces_call_plain", """from pkg.base import Base


def plain_call(cls):
    cls.__call__ = lambda self, v: v * 2.0
    return cls


@plain_call
class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""")
a("a50_decorator_returns_sharded_subclass", """import jax
from jax.sharding import PartitionSpec as P

from pkg.base import Base
from pkg.config import MESH


def sharded(cls):
    class Sharded(cls):
        def __call__(self, v):
            return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
    return Sharded


@sharded
class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""", base="""class Base:
    def __call__(self, v):
        return v * 2.0
""")

# ---------------- lift-captures (SPMD003's safe fix) ----------------
L = """import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ('data', 'model'))
W = jnp.ones((8, 8), dtype=jnp.float32) * 1.5
BODY

def forward(xs):
    return jax.jit(jax.vmap(block, spmd_axis_name='data'))(xs)


xs = np.ones((8, 8, 8), np.float32)
out = forward(xs)
ok = np.allclose(np.asarray(out), xs * MULT)
EXTRA
print("RESULT: match" if ok else "RESULT: mismatch")
"""
P["l01_lift_named_body_called_elsewhere"] = {"main.py": L.replace("BODY", """

def body(b):
    return b * W


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def plain(x):
    return body(x)

""").replace("MULT", "1.5").replace("EXTRA", "ok = ok and np.allclose(np.asarray(plain(xs[0])), xs[0] * 1.5)")}
P["l02_lift_closure_rebound_after_shard_map"] = {"main.py": L.replace("BODY", """

def block(x):
    w = W
    sm = jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P(), out_specs=P())
    w = w * 2.0
    return sm(x)

""").replace("MULT", "3.0").replace("EXTRA", "pass")}
P["l03_lift_body_in_other_module_used_twice"] = {"pkg/__init__.py": "", "pkg/bodies.py": """import jax.numpy as jnp

W = jnp.ones((8, 8), dtype=jnp.float32) * 1.5


def body(b):
    return b * W
""", "pkg/other.py": "from pkg.bodies import body\n\n\ndef plain(x):\n    return body(x)\n",
    "main.py": L.replace("W = jnp.ones((8, 8), dtype=jnp.float32) * 1.5\n", "from pkg.bodies import body\nfrom pkg.other import plain\n").replace("BODY", """

def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)

""").replace("MULT", "1.5").replace("EXTRA", "ok = ok and np.allclose(np.asarray(plain(xs[0])), xs[0] * 1.5)")}
P["l04_lift_shard_mapped_fn_stored_and_called_twice"] = {"main.py": L.replace("BODY", """

def block(x):
    return SM(x)


SM = jax.shard_map(lambda b: b * W, mesh=mesh, in_specs=P(), out_specs=P())

""").replace("MULT", "1.5").replace("EXTRA", "ok = ok and np.allclose(np.asarray(SM(xs[0])), xs[0] * 1.5)")}
P["l05_lift_partial_body"] = {"main.py": L.replace("BODY", """
import functools


def body(b, scale):
    return b * W * scale


def block(x):
    return jax.shard_map(functools.partial(body, scale=1.0), mesh=mesh, in_specs=P(), out_specs=P())(x)

""").replace("MULT", "1.5").replace("EXTRA", "pass")}

P["l06_body_from_other_module_closes_over_its_W"] = {k: v for k, v in P["l03_lift_body_in_other_module_used_twice"].items() if k != "pkg/other.py"}
P["l06_body_from_other_module_closes_over_its_W"]["main.py"] = P["l06_body_from_other_module_closes_over_its_W"]["main.py"].replace(
    "from pkg.other import plain\n", "").replace("ok = ok and np.allclose(np.asarray(plain(xs[0])), xs[0] * 1.5)", "pass")

S_MAIN_PLACES = """import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.train import step


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    PLACE
    out = step(placed)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0 + 1.0) else "RESULT: mismatch")


main()
"""
s("s09_caller_device_puts_on_x", """def step(xs):
    with jax.set_mesh(MESH):
        return accumulate(block, xs)
""", extra={"main.py": S_MAIN_PLACES.replace("PLACE", "placed = jax.device_put(xs, NamedSharding(MESH, P('x', None)))")})
s("s10_caller_helper_places_on_x", """def step(xs):
    with jax.set_mesh(MESH):
        return accumulate(block, xs)
""", extra={"main.py": S_MAIN_PLACES.replace("PLACE", "placed = to_batch(xs)").replace("def main():", "def to_batch(a):\n    return jax.device_put(a, NamedSharding(MESH, P('x', None)))\n\n\ndef main():")})
s("s11_caller_unplaced", """def step(xs):
    with jax.set_mesh(MESH):
        return accumulate(block, xs)
""", extra={"main.py": S_MAIN_PLACES.replace("PLACE", "placed = xs")})


def main():
    out = HERE / "progs"
    shutil.rmtree(out, ignore_errors=True)
    for name, files in P.items():
        for rel, text in files.items():
            p = out / name / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        (out / name / "pyproject.toml").write_text(PYPROJECT.format(name=name.replace("_", "-")))
    print(len(P), "programs")


if __name__ == "__main__":
    main()
