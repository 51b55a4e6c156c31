"""Writes progs/ (the breaker16 programs): python make_progs.py [--missing]. Each program is main.py defining
`compute()` (an spmd vmap over a function applying a shard_map under check_vma=True unless told), other modules
of the program beside it; its reference ref_impl.py is main.py without `spmd_axis_name=...` (a plain vmap keeps
the values on an Auto mesh, measured: docs/safety.md row 27). Groups: x objects of a class of ANOTHER module of
the project reaching a body (hazard H2's `Array.<method>` key); g `__getattr__` / `__getattribute__`; p other
spellings (properties, descriptors, class attributes, wraps wrappers, static/class methods, partials, fields);
q base classes elsewhere, dispatch, custom rules, controls; r the same spellings hiding a psum over 'y'; s a
method shadowed by an instance attribute, custom_vmap rules."""
import pathlib, re, shutil
HERE = pathlib.Path(__file__).resolve().parent
P = {}
PYPROJECT = '[project]\nname = "{name}"\nversion = "0"\n'
HEAD = """import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

"""
AUTO = "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n"
TAIL = """

if __name__ == "__main__":
    out = compute()
    import ref_impl
    ref = ref_impl.compute()
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(ref), atol=1e-5) else "RESULT: mismatch")
"""
SPMD = re.compile(r",\s*spmd_axis_name\s*=\s*('[a-z]+'|\"[a-z]+\"|[A-Za-z_.]+)")
XPFP = "XP = jnp.linspace(0.0, 8.0, 8)\nFP = jnp.linspace(0.0, 1.0, 8)\n"
COND = "lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)"
UTILS = f"""import functools
import dataclasses
import jax
import jax.numpy as jnp
from jax import lax


class Summer:
    def sum(self, t):
        return {COND}

    def mean(self, t):
        return {COND}


SUMMER = Summer()


def make_summer():
    return Summer()


@dataclasses.dataclass
class Cfg:
    summer: Summer = dataclasses.field(default_factory=Summer)


CFG = Cfg()
"""


def one(name, body, head=HEAD, **others):
    """A program: main.py (`head` + `body` + the check against ref_impl.py) and the modules `others`
    (`utils="..."` writes utils.py)."""
    src = head + body
    ref = SPMD.sub("", src)
    assert ref != src, name
    P[name] = {"main.py": src + TAIL, "ref_impl.py": ref, **{_path(k): v for k, v in others.items()}}


def _path(key):
    """`pkg__ops` -> pkg/ops.py, `pkg__init` -> pkg/__init__.py."""
    rel = key.replace("__", "/")
    return (rel[:-4] + "__init__" if rel.endswith("/init") else rel) + ".py"


def block(body, specs="in_specs=P('x'), out_specs=P('x')", extra="", m="mesh"):
    return f"""

def block(v):
    return jax.shard_map({body}, mesh={m}, {specs}{extra})(v)

"""


CALL8 = """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs)
"""

# ---------------- x: an object of a class of another module of the project ----------------
one("x01_imported_object_sum", AUTO + "from utils import SUMMER\n" + block("lambda b: SUMMER.sum(b)") + CALL8, utils=UTILS)
one("x02_module_attr_object_sum", AUTO + "import utils\n" + block("lambda b: utils.SUMMER.sum(b)") + CALL8, utils=UTILS)
one("x03_helper_param_imported_class", AUTO + "from utils import Summer\n" + """

def run(s, b):
    return s.sum(b)
""" + block("lambda b: run(Summer(), b)") + CALL8, utils=UTILS)
one("x04_param_default_imported_object", AUTO + "from utils import SUMMER\n" + """

def body(b, s=SUMMER):
    return s.mean(b)
""" + block("body") + CALL8, utils=UTILS)
one("x05_dataclass_field_imported", AUTO + "from utils import CFG\n" + block("lambda b: CFG.summer.sum(b)") + CALL8, utils=UTILS)
one("x06_self_attr_imported_factory", AUTO + "from utils import make_summer\n" + """

class Layer:
    def __init__(self):
        self.s = make_summer()

    def __call__(self, v):
        return jax.shard_map(lambda b: self.s.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)
""", utils=UTILS)
one("x07_closure_imported_object", AUTO + "import utils\n" + """

def make_block(s):
    def block(v):
        return jax.shard_map(lambda b: s.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    return block


block = make_block(utils.SUMMER)
""" + CALL8, utils=UTILS)
one("x08_annotated_param_imported_class", AUTO + "from utils import Summer, make_summer\n" + """

def run(s: Summer, b):
    return s.sum(b)
""" + block("lambda b: run(make_summer(), b)") + CALL8, utils=UTILS)
one("x09_imported_object_call_dunder", AUTO + "from utils import SUMMER\n" + block("lambda b: SUMMER(b)") + CALL8,
    utils=UTILS.replace("    def mean(self, t):", "    def __call__(self, t):\n        return " + COND + "\n\n    def mean(self, t):"))
one("x10_imported_staticmethod", AUTO + "from utils import Ops\n" + block("lambda b: Ops.f(b)") + CALL8,
    utils=UTILS + f"\n\nclass Ops:\n    @staticmethod\n    def f(t):\n        return {COND}\n")
one("x11_imported_classmethod_instance", AUTO + "from utils import Ops\n" + block("lambda b: Ops.make().sum(b)") + CALL8,
    utils=UTILS + "\n\nclass Ops:\n    @classmethod\n    def make(cls):\n        return Summer()\n")
one("x12_package_object", AUTO + "from pkg.ops import SUMMER\n" + block("lambda b: SUMMER.sum(b)") + CALL8,
    pkg__init="", pkg__ops=UTILS)

# ---------------- g: __getattr__ / __getattribute__ ----------------
GA = f"""

def _cond(t):
    return {COND}


class Ops:
    def __getattribute__(self, name):
        if name == 'scale':
            return _cond
        return object.__getattribute__(self, name)

    def scale(self, t):
        return t * 2.0


OPS = Ops()
"""
one("g01_getattribute_module_object", AUTO + GA + block("lambda b: OPS.scale(b)") + CALL8)
one("g02_getattribute_method_calls_self", AUTO + GA.replace("    def scale(self, t):", "    def run(self, t):\n        return self.scale(t)\n\n    def scale(self, t):")
    + block("lambda b: OPS.run(b)") + CALL8)
GATTR = f"""

def _cond(t):
    return {COND}


class Ops:
    def __getattr__(self, name):
        return _cond

    def run(self, t):
        return self.sum(t)


OPS = Ops()
"""
one("g03_getattr_self_sum", AUTO + GATTR + block("lambda b: OPS.run(b)") + CALL8)
one("g04_getattribute_bound_method_body", AUTO + f"""

def _cond(t):
    return {COND}


class Layer:
    def __getattribute__(self, name):
        if name == '_helper':
            return _cond
        return object.__getattribute__(self, name)

    def _helper(self, t):
        return t * 2.0

    def _block(self, b):
        return self._helper(b)

    def __call__(self, v):
        return jax.shard_map(lambda b: self._block(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)
""")
one("g05_wrapper_getattr_delegate", AUTO + "from utils import SUMMER\n" + """

class Wrapper:
    def __init__(self, inner):
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def run(self, t):
        return self.sum(t)


W = Wrapper(SUMMER)
""" + block("lambda b: W.run(b)") + CALL8, utils=UTILS)
one("g06_getattribute_other_module", AUTO + "from utils import OPS\n" + block("lambda b: OPS.scale(b)") + CALL8,
    utils="import jax.numpy as jnp\nfrom jax import lax\n" + GA)

# ---------------- p: properties, descriptors, class attributes, wrappers ----------------
one("p01_property_returns_library_fn", AUTO + XPFP + """

class Layer:
    @property
    def fn(self):
        return jnp.interp

    def __call__(self, v):
        return jax.shard_map(lambda b: self.fn(b, XP, FP), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)
""")
one("p02_descriptor_class_attr", AUTO + XPFP + f"""

def _cond(t):
    return {COND}


class Op:
    def __get__(self, obj, typ=None):
        return _cond

    def __call__(self, t):
        return t * 2.0


class Layer:
    fn = Op()

    def __call__(self, v):
        return jax.shard_map(lambda b: self.fn(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)
""")
one("p03_class_attr_named_like_array_method", AUTO + f"""

def _cond(t):
    return {COND}


class Ops:
    sum = staticmethod(_cond)
""" + block("lambda b: Ops.sum(b)") + CALL8)
one("p04_class_attr_vectorize_named_sum", AUTO + """

class Ops:
    sum = staticmethod(jnp.vectorize(lambda t: jnp.where(t > 1.0, t * 2.0, t)))
""" + block("lambda b: Ops.sum(b)") + CALL8)
one("p05_wraps_decorator_other_module", AUTO + "from deco import vec\n" + """

@vec
def g(t):
    return jnp.where(t > 1.0, t * 2.0, t)
""" + block("lambda b: g(b)") + CALL8, deco="""import functools
import jax.numpy as jnp


def vec(f):
    @functools.wraps(f)
    def w(*a):
        return jnp.vectorize(f)(*a)
    return w
""")
one("p06_tree_util_partial_name", AUTO + XPFP + "f = jax.tree_util.Partial(jnp.interp, xp=XP, fp=FP)\n"
    + block("lambda b: f(b)") + CALL8)
one("p07_closure_factory_library_fn", AUTO + XPFP + """

def make_body(f):
    return lambda b: f(b, XP, FP)


body = make_body(jnp.interp)
""" + block("body") + CALL8)
one("p08_dataclass_field_callable_self", AUTO + XPFP + """
import dataclasses
from typing import Callable


@dataclasses.dataclass
class Layer:
    fn: Callable = jnp.interp

    def __call__(self, v):
        return jax.shard_map(lambda b: self.fn(b, XP, FP), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)
""")
one("p09_class_attr_lambda_sum_self", AUTO + f"""

class Layer:
    sum = staticmethod(lambda t: {COND})

    def __call__(self, v):
        return jax.shard_map(lambda b: self.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)
""")
one("p10_property_returns_partial_sum_name", AUTO + XPFP + """

class Layer:
    @property
    def sum(self):
        return functools.partial(jnp.interp, xp=XP, fp=FP)

    def __call__(self, v):
        return jax.shard_map(lambda b: self.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)
""")
one("p11_lambda_default_imported_method", AUTO + "from utils import SUMMER\n" + block("lambda b, op=SUMMER.sum: op(b)") + CALL8, utils=UTILS)
one("p12_bound_method_alias_imported", AUTO + "from utils import SUMMER\nop = SUMMER.sum\n" + block("lambda b: op(b)") + CALL8, utils=UTILS)

# ---------------- q: more spellings (base classes elsewhere, dispatch, custom rules, controls) ----------------
one("q01_base_class_other_module_self_sum", AUTO + "from utils import Summer\n" + """

class Layer(Summer):
    def __call__(self, v):
        return jax.shard_map(lambda b: self.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)
""", utils=UTILS)
one("q02_singledispatch_registered_impl", AUTO + f"""

@functools.singledispatch
def op(t):
    return t * 2.0


@op.register(jax.core.Tracer)
def _(t):
    return {COND}
""" + block("lambda b: op(b)") + CALL8)
one("q03_instance_call_class_attr_vectorize", AUTO + """

class Op:
    __call__ = staticmethod(jnp.vectorize(lambda t: jnp.where(t > 1.0, t * 2.0, t)))


OP = Op()
""" + block("lambda b: OP(b)") + CALL8)
one("q04_custom_jvp_cond", AUTO + f"""

@jax.custom_jvp
def f(t):
    return {COND}


@f.defjvp
def f_jvp(primals, tangents):
    return f(primals[0]), tangents[0]
""" + block("lambda b: f(b)") + CALL8)
one("q05_ok_imported_staticmethod_plain", AUTO + "from utils import Ops\n" + block("lambda b: Ops.f(b)") + CALL8,
    utils=UTILS + "\n\nclass Ops:\n    @staticmethod\n    def f(t):\n        return t * 2.0\n")
one("q06_lru_cache_factory_returns_cond", AUTO + f"""

@functools.lru_cache(maxsize=None)
def get_op():
    def op(t):
        return {COND}
    return op
""" + block("lambda b: get_op()(b)") + CALL8)
one("q07_pytree_operand_method_sum", AUTO + f"""

@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, v):
        self.v = v

    def sum(self):
        return lax.cond(self.v.sum() > 1.0, lambda u: u * 2.0, lambda u: u, self.v)

    def tree_flatten(self):
        return (self.v,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def block(v):
    return jax.shard_map(lambda t: t.sum(), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(Box(v))

""" + CALL8)
one("q08_nnx_module_cond", AUTO.replace("mesh =", "from flax import nnx\nmesh =") + f"""

class Blk(nnx.Module):
    def __call__(self, t):
        return {COND}


BLK = Blk()
""" + block("lambda b: BLK(b)") + CALL8)
one("q09_method_via_super_other_module", AUTO + "from utils import Summer\n" + """

class Layer(Summer):
    def sum(self, t):
        return super().sum(t)

    def __call__(self, v):
        return jax.shard_map(lambda b: self.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)
""", utils=UTILS)
one("q10_partialmethod_cond", AUTO + f"""

class Ops:
    def _apply(self, t, k):
        return lax.cond(t.sum() > k, lambda u: u * 2.0, lambda u: u, t)

    run = functools.partialmethod(_apply, k=1.0)


OPS = Ops()
""" + block("lambda b: OPS.run(b)") + CALL8)

# ---------------- r: the same spellings hiding a collective over the axis a rename takes ----------------
PSUMY = """

def _red(t):
    return t + lax.psum(t, 'y')
"""
LAYER_CALL = """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)
"""
one("r01_property_call_returns_psum_y", AUTO + PSUMY + """

class Layer:
    fn = property(lambda self: _red)

    def __call__(self, v):
        return jax.shard_map(lambda b: self.fn(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)
""" + LAYER_CALL)
one("r02_property_decorator_returns_psum_y", AUTO + PSUMY + """

class Layer:
    @property
    def fn(self):
        return _red

    def __call__(self, v):
        return jax.shard_map(lambda b: self.fn(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)
""" + LAYER_CALL)
one("r03_getattribute_gives_psum_y", AUTO + PSUMY + """

class Ops:
    def __getattribute__(self, name):
        if name == 'scale':
            return _red
        return object.__getattribute__(self, name)

    def scale(self, t):
        return t * 2.0


OPS = Ops()
""" + block("lambda b: OPS.scale(b)", extra=", check_vma=False") + CALL8)
one("r04_imported_staticmethod_psum_y", AUTO + "from utils import Ops\n" + block("lambda b: Ops.f(b)", extra=", check_vma=False") + CALL8,
    utils=UTILS + "\n\nclass Ops:\n    @staticmethod\n    def f(t):\n        return t + lax.psum(t, 'y')\n")
one("r05_singledispatch_registered_psum_y", AUTO + """

@functools.singledispatch
def op(t):
    return t * 2.0


@op.register(jax.core.Tracer)
def _(t):
    return t + lax.psum(t, 'y')
""" + block("lambda b: op(b)", extra=", check_vma=False") + CALL8)

one("g07_getattr_literal_through_getattribute", AUTO + GA + block("lambda b: getattr(OPS, 'scale')(b)") + CALL8)
one("g08_getattribute_in_base_other_module", AUTO + "from utils import Base\n" + """

class Ops(Base):
    def scale(self, t):
        return t * 2.0


OPS = Ops()
""" + block("lambda b: OPS.scale(b)") + CALL8, utils=f"""from jax import lax


def _cond(t):
    return {COND}


class Base:
    def __getattribute__(self, name):
        if name == 'scale':
            return _cond
        return object.__getattribute__(self, name)
""")

# ---------------- s: an instance attribute shadowing a method; a custom vmap rule ----------------
one("s01_instance_attr_shadows_method", AUTO + """

class Layer:
    def __init__(self):
        self.norm = jnp.vectorize(lambda t: jnp.where(t > 1.0, t * 2.0, t))

    def norm(self, t):
        return t * 2.0

    def __call__(self, v):
        return jax.shard_map(lambda b: self.norm(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + LAYER_CALL)
one("s02_custom_vmap_rule_cond", AUTO + f"""

@jax.custom_batching.custom_vmap
def f(t):
    return t * 2.0


@f.def_vmap
def f_rule(axis_size, in_batched, t):
    return jax.vmap(lambda u: {COND.replace('t.sum()', 'u.sum()').replace(', t)', ', u)')})(t), in_batched[0]
""" + block("lambda b: f(b)") + CALL8)
one("s03_custom_vmap_rule_psum_y", AUTO + """

@jax.custom_batching.custom_vmap
def f(t):
    return t * 2.0


@f.def_vmap
def f_rule(axis_size, in_batched, t):
    return t * 2.0 + lax.psum(t, 'y'), in_batched[0]
""" + block("lambda b: f(b)", extra=", check_vma=False") + CALL8)


def main(missing):
    """Write progs/ afresh, or (`--missing`) only the programs it does not hold yet."""
    out = HERE / "progs"
    if not missing:
        shutil.rmtree(out, ignore_errors=True)
    for name, files in P.items():
        d = out / name
        if missing and d.exists():
            continue
        for rel, text in files.items():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            (d / rel).write_text(text)
        (d / "pyproject.toml").write_text(PYPROJECT.format(name=name.replace("_", "-")))
    print(len(P), "programs")


if __name__ == "__main__":
    import sys
    main("--missing" in sys.argv)
