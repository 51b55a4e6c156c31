"""Writes progs/ (the breaker17 programs): python make_progs.py. Each program is main.py defining `compute()` (an
spmd vmap reaching a shard_map through the spellings taught at stop 43), other modules beside it; its reference
ref_impl.py is main.py without `spmd_axis_name=...` (a plain vmap keeps the values on an Auto mesh). Groups:
a shard_map factories (partial of jax.shard_map: module level, class held, returned by a function, bound
twice, shared by two bodies); j jit partials (`JIT = partial(jax.jit, ...)`); v vmap factories
(`partial(jax.vmap, spmd_axis_name=...)` shared, handed on, held); h hazard H2's method search (a method given
by no indented `def`)."""
import pathlib, re, shutil
HERE = pathlib.Path(__file__).resolve().parent
P = {}
PYPROJECT = '[project]\nname = "{name}"\nversion = "0"\n'
HEAD = """import functools
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

"""
AUTO = "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n"
AUTO3 = "mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)\n"
TAIL = """

if __name__ == "__main__":
    out = compute()
    import ref_impl
    ref = ref_impl.compute()
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(ref), atol=1e-5) else "RESULT: mismatch")
"""
SPMD = re.compile(r",\s*spmd_axis_name\s*=\s*('[a-z]+'|\"[a-z]+\"|[A-Za-z_.]+)")
COND = "lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)"
XS = "    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0\n"


def one(name, body, head=HEAD, ref_sub=None, **others):
    src = head + body
    ref = SPMD.sub("", src)
    if ref_sub:
        ref = ref.replace(*ref_sub)
    assert ref != src, name
    P[name] = {"main.py": src + TAIL, "ref_impl.py": ref, **{_path(k): v for k, v in others.items()}}


def _path(key):
    rel = key.replace("__", "/")
    return (rel[:-4] + "__init__" if rel.endswith("/init") else rel) + ".py"


def vm(fn, ax="'x'"):
    return f"\n\ndef compute():\n{XS}    return jax.vmap({fn}, spmd_axis_name={ax})(xs)\n"


DOUBLE = "\n\ndef double(b):\n    return b * 2.0\n"
CONDF = f"\n\ndef condb(t):\n    return {COND}\n"
PSUMY = "\n\ndef psumy(b):\n    return b + lax.psum(b, 'y')\n"
PSUMZ = "\n\ndef psumz(b):\n    return b + lax.psum(b, 'z')\n"

# ---------------- a: shard_map factories ----------------
SM = "partial(jax.shard_map, mesh=mesh, in_specs=P({a}), out_specs=P({a}){x})"
def sm(a="'x'", x=""):
    return SM.format(a=a, x=x)

# a01 bound twice under a condition: the one JAX uses names 'y' (vmap over 'y' raises)
one("a01_factory_bound_twice", AUTO + DOUBLE + f"""
FLAG = len(jax.devices()) > 100
if FLAG:
    smap = {sm("'x'")}
else:
    smap = {sm("'y'")}


def block(v):
    return smap(double)(v)
""" + vm("block", "'y'"))
# a02 held in a dict
one("a02_factory_in_dict", AUTO + DOUBLE + f"""
SMAPS = {{'data': {sm("'x'")}}}


def block(v):
    return SMAPS['data'](double)(v)
""" + vm("block"))
# a03 applied with its specs overridden: JAX reads P('y'); vmap over 'x' runs
one("a03_factory_specs_overridden_at_call", AUTO3 + DOUBLE + f"""
smap = {sm("'x'")}


def block(v):
    return smap(double, in_specs=P('y'), out_specs=P('y'))(v)
""" + vm("block", "'x'"))
# a04 one factory shared by a colliding body and a plain use; strip/add-axis must not edit the factory for both
one("a04_factory_shared_two_bodies", AUTO + DOUBLE + f"""
smap = {sm("'x'")}
plain = smap(lambda b: b * 3.0)


def block(v):
    return smap(double)(v)


def compute():
{XS}    a = jax.vmap(block, spmd_axis_name='x')(xs)
    return a + plain(xs)
""")
# a05 factory made in a function from its parameter, applied there
one("a05_factory_from_parameter", AUTO3 + DOUBLE + """

def make_block(ax):
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P(ax), out_specs=P(ax))
    def block(v):
        return smap(double)(v)
    return block
""" + vm("make_block('y')", "'x'"))
# a06 factory with check_vma=False, body psums over 'y' (rename x->y changes values)
one("a06_factory_check_vma_false_psum_y", AUTO + PSUMY + f"""
smap = {sm("'x'", ", check_vma=False")}


def block(v):
    return smap(psumy)(v)
""" + vm("block"))
# a07 decorator through a class attribute
one("a07_decorator_class_attr_factory", AUTO + f"""

class Layer:
    smap = {sm("'x'")}


@Layer.smap
def block(b):
    return b * 2.0
""" + vm("block"))
# a08 instance attribute from __init__'s parameter with a default; constructed with 'y'
one("a08_init_param_default_factory", AUTO3 + DOUBLE + """

class Layer:
    def __init__(self, ax='x'):
        self.smap = partial(jax.shard_map, mesh=mesh, in_specs=P(ax), out_specs=P(ax))

    def __call__(self, v):
        return self.smap(double)(v)
""" + vm("Layer('y')", "'x'"))
# a09 class-body AX shadows the module's: the factory reads the class's 'y'
one("a09_class_body_axis_shadow", AUTO3 + DOUBLE + """
AX = 'x'


class Layer:
    AX = 'y'
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), out_specs=P(AX))

    def __call__(self, v):
        return self.smap(double)(v)
""" + vm("Layer()", "'x'"))
# a10 base class in another module holds the factory; subclass here overrides with 'y'
one("a10_subclass_overrides_other_module_factory", AUTO3 + "from layers import Base\n" + """

class Layer(Base):
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))
""" + vm("Layer()", "'x'"), layers=HEAD + AUTO3 + DOUBLE + """

class Base:
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))

    def __call__(self, v):
        return self.smap(double)(v)
""")
# a11 the same with vmap over 'y': JAX raises, spmdfix reads Base's 'x'
one("a11_subclass_overrides_same_module_call_y", AUTO3 + DOUBLE + """

class Base:
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))

    def __call__(self, v):
        return self.smap(double)(v)


class Layer(Base):
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))
""" + vm("Layer()", "'y'"))
# a12 staticmethod-wrapped factory
one("a12_staticmethod_factory", AUTO + DOUBLE + f"""

class Layer:
    smap = staticmethod({sm("'x'")})

    def __call__(self, v):
        return self.smap(double)(v)
""" + vm("Layer()"))
# a13 property returning the factory (self.smap is the property's value)
one("a13_property_factory", AUTO + DOUBLE + f"""

class Layer:
    @property
    def smap(self):
        return {sm("'x'")}

    def __call__(self, v):
        return self.smap(double)(v)
""" + vm("Layer()"))
# a14 returned factory applied with a keyword argument, a default
one("a14_make_keyword_default", AUTO3 + DOUBLE + """

def make(spec=P('x')):
    return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)


def block(v):
    return make(spec=P('y'))(double)(v)
""" + vm("block", "'x'"))
# a15 make with two returns
one("a15_make_two_returns", AUTO3 + DOUBLE + """

def make(ax):
    if ax == 'x':
        return partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
    return partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))


def block(v):
    return make('y')(double)(v)
""" + vm("block", "'y'"))
# a16 make reading a local of its own
one("a16_make_local_spec", AUTO3 + DOUBLE + """

def make(ax):
    spec = P(ax)
    return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)


def block(v):
    return make('y')(double)(v)
""" + vm("block", "'x'"))
# a17 make as a method applied through self
one("a17_make_method", AUTO3 + DOUBLE + """

class Layer:
    def make(self, spec):
        return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)

    def __call__(self, v):
        return self.make(P('x'))(double)(v)
""" + vm("Layer()", "'x'"))
# a18 make with *args
one("a18_make_star_args", AUTO3 + DOUBLE + """
SPECS = (P('x'),)


def make(spec):
    return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)


def block(v):
    return make(*SPECS)(double)(v)
""" + vm("block", "'x'"))
# a19 class-held factory, self.smap mutated by a method before the call
one("a19_class_factory_reassigned_in_method", AUTO3 + DOUBLE + f"""

class Layer:
    smap = {sm("'x'")}

    def use_y(self):
        self.smap = {sm("'y'")}
        return self

    def __call__(self, v):
        return self.smap(double)(v)
""" + vm("Layer().use_y()", "'y'"))
# a20 factory through a lru_cache'd make
one("a20_make_lru_cache", AUTO3 + DOUBLE + """

@functools.lru_cache
def make(ax):
    return partial(jax.shard_map, mesh=mesh, in_specs=P(ax), out_specs=P(ax))


def block(v):
    return make('y')(double)(v)
""" + vm("block", "'x'"))
# a21 factory in other module, applied here (record expected), vmap collides
one("a21_factory_imported", AUTO + "from smaps import smap\n" + DOUBLE + """

def block(v):
    return smap(double)(v)
""" + vm("block"), smaps=HEAD + AUTO + f"smap = {sm(chr(39)+'x'+chr(39))}\n")
# a22 factory with a cond body, add-axis
one("a22_factory_cond_body", AUTO + CONDF + f"""
smap = {sm("'x'")}


def block(v):
    return smap(condb)(v)
""" + vm("block"))
# a23 class-held factory whose mesh is an instance attribute
one("a23_class_factory_axis_from_class_attr_of_subclass", AUTO3 + DOUBLE + """

class Base:
    AX = 'x'

    def smap(self, f):
        return jax.shard_map(f, mesh=mesh, in_specs=P(self.AX), out_specs=P(self.AX))

    def __call__(self, v):
        return self.smap(double)(v)


class Layer(Base):
    AX = 'y'
""" + vm("Layer()", "'x'"))
# a24 module-level factory applied as decorator in a function that rebinds `partial`
one("a24_factory_of_factory_override_scope", AUTO3 + DOUBLE + """
AX = 'x'
base = partial(jax.shard_map, mesh=mesh, in_specs=P(AX))


def block(v):
    AX = 'y'
    smap = partial(base, out_specs=P(AX))
    return smap(double)(v)
""" + vm("block", "'x'"))

# ---------------- j: jit partials ----------------
JS = "NamedSharding(mesh, P({a}))"
one("j01_jit_partial_in_shardings_y", AUTO + DOUBLE + f"""
JIT = partial(jax.jit, in_shardings={JS.format(a="'y'")}, out_shardings={JS.format(a="'y'")})


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("JIT(block)"))
one("j02_jit_partial_of_partial", AUTO + DOUBLE + f"""
JIT = partial(jax.jit, out_shardings={JS.format(a="'y'")})
JIT2 = partial(JIT, donate_argnums=())


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("JIT2(block)"))
one("j03_jit_partial_kwargs_mapping", AUTO + DOUBLE + f"""
KW = dict(out_shardings={JS.format(a="'y'")})
JIT = partial(jax.jit, **KW)


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("JIT(block)"))
one("j04_jit_partial_in_body_out_y", AUTO + DOUBLE + f"""

def block(v):
    w = partial(jax.jit, out_shardings={JS.format(a="'y'")})(lambda u: u + 1.0)(v)
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(w)
""" + vm("block"))
one("j05_jit_partial_decorator_y", AUTO + DOUBLE + f"""
JIT = partial(jax.jit, out_shardings={JS.format(a="'y'")})


@JIT
def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"))
one("j06_jit_partial_applied_override", AUTO + DOUBLE + f"""
JIT = partial(jax.jit, out_shardings=None)


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm(f"JIT(block, out_shardings={JS.format(a=chr(39)+'y'+chr(39))})"))
one("j07_jit_partial_bound_twice", AUTO + DOUBLE + f"""
if len(jax.devices()) > 100:
    JIT = partial(jax.jit)
else:
    JIT = partial(jax.jit, out_shardings={JS.format(a="'y'")})


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("JIT(block)"))
one("j08_jit_partial_class_attr", AUTO + DOUBLE + f"""

class Cfg:
    JIT = partial(jax.jit, out_shardings={JS.format(a="'y'")})


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("Cfg.JIT(block)"))
one("j09_jit_partial_psum_body_in_jit", AUTO + PSUMY + """
JIT = partial(jax.jit)


def block(v):
    return jax.shard_map(psumy, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)
""" + vm("JIT(block)"))

# ---------------- v: vmap factories ----------------
one("v01_vmap_factory_shared_two_uses", AUTO + DOUBLE + """
vmap_x = partial(jax.vmap, spmd_axis_name='x')


def block_x(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def block_y(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)


def compute():
""" + XS + """    return vmap_x(block_x)(xs) + vmap_x(block_y)(xs)
""")
one("v02_vmap_factory_passed_to_local_fn_two_callers", AUTO + DOUBLE + """

def apply(mapper, f, xs):
    return mapper(f)(xs)


def block_x(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def block_y(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)


def compute():
""" + XS + """    vmx = partial(jax.vmap, spmd_axis_name='x')
    return apply(vmx, block_x, xs) + apply(vmx, block_y, xs)
""")
one("v03_vmap_factory_class_attr", AUTO + DOUBLE + """

class T:
    vm = partial(jax.vmap, spmd_axis_name='x')

    def run(self, xs):
        return self.vm(block)(xs)


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
""" + XS + """    return T().run(xs)
""")
one("v04_vmap_factory_instance_attr", AUTO + DOUBLE + """

class T:
    def __init__(self):
        self.vm = partial(jax.vmap, spmd_axis_name='x')

    def run(self, xs):
        return self.vm(block)(xs)


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
""" + XS + """    return T().run(xs)
""")
one("v05_vmap_factory_default_param", AUTO + DOUBLE + """

def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def apply(f, xs, mapper=partial(jax.vmap, spmd_axis_name='x')):
    return mapper(f)(xs)


def compute():
""" + XS + """    return apply(block, xs)
""")
one("v06_vmap_lambda_factory", AUTO + DOUBLE + """
vm = lambda f: jax.vmap(f, spmd_axis_name='x')


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
""" + XS + """    return vm(block)(xs)
""")
one("v07_vmap_factory_imported", AUTO + DOUBLE + "from vms import VM\n" + """

def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
""" + XS + """    return VM(block)(xs)
""", ref_sub=("from vms import VM", "VM = jax.vmap"), vms="import functools\nimport jax\n\nVM = functools.partial(jax.vmap, spmd_axis_name='x')\n")
one("v08_vmap_factory_tuple_unpack", AUTO + DOUBLE + """
vm, other = partial(jax.vmap, spmd_axis_name='x'), 1


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
""" + XS + """    return vm(block)(xs)
""")
one("v09_vmap_factory_shared_decorator_and_call", AUTO + DOUBLE + """
vmx = partial(jax.vmap, spmd_axis_name='x')


@vmx
def batched_y(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)


def block_x(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
""" + XS + """    return vmx(block_x)(xs) + batched_y(xs)
""")
one("v10_vmap_factory_psum_in_other_use", AUTO3 + DOUBLE + PSUMY + """
vmx = partial(jax.vmap, spmd_axis_name='x')


def block_x(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def block_p(v):
    return jax.shard_map(psumy, mesh=mesh, in_specs=P('z'), out_specs=P('z'), check_vma=False)(v)


def compute():
""" + XS + """    return vmx(block_x)(xs) + vmx(block_p)(xs)
""")
one("v11_vmap_factory_partial_of_partial", AUTO + DOUBLE + """
vmx = partial(jax.vmap, spmd_axis_name='x')
vmx0 = partial(vmx, in_axes=0)


def block_x(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def block_y(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)


def compute():
""" + XS + """    return vmx0(block_x)(xs) + vmx(block_y)(xs)
""")

# ---------------- h: H2's method search ----------------
UT_ATTR = f"""import jax
import jax.numpy as jnp
from jax import lax


def _cond(t):
    return {COND}


class Summer:
    sum = staticmethod(_cond)


SUMMER = Summer()
"""
H2CALL = """

def body(b, s=SUMMER):
    return s.sum(b)


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
"""
one("h01_class_attr_other_module", AUTO + "from utils import SUMMER\n" + H2CALL + vm("block"), utils=UT_ATTR)
one("h02_setattr_other_module", AUTO + "from utils import SUMMER\n" + H2CALL + vm("block"),
    utils=UT_ATTR.replace("    sum = staticmethod(_cond)", "    pass\n\n\nsetattr(Summer, 'sum', staticmethod(_cond))"))
one("h03_type_built_class", AUTO + "from utils import SUMMER\n" + H2CALL + vm("block"),
    utils=UT_ATTR.replace("class Summer:\n    sum = staticmethod(_cond)\n", "Summer = type('Summer', (), {'sum': staticmethod(_cond)})\n"))
one("h04_simplenamespace", AUTO + "from utils import SUMMER\n" + H2CALL + vm("block"),
    utils=UT_ATTR.replace("class Summer:\n    sum = staticmethod(_cond)\n\n\nSUMMER = Summer()", "import types\nSUMMER = types.SimpleNamespace(sum=_cond)"))
one("h05_module_object_top_level_def", AUTO + "import red\n" + """

def body(b, s=red):
    return s.sum(b)


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), red=f"import jax\nfrom jax import lax\n\n\ndef sum(t):\n    return {COND}\n")
one("h06_def_line_continuation", AUTO + "from utils import SUMMER\n" + H2CALL + vm("block"),
    utils=UT_ATTR.replace("    sum = staticmethod(_cond)", "    def sum \\\n            (self, t):\n        return _cond(t)"))
one("h07_namedtuple_instance", AUTO + "from utils import SUMMER\n" + H2CALL + vm("block"),
    utils=UT_ATTR.replace("class Summer:\n    sum = staticmethod(_cond)\n\n\nSUMMER = Summer()", "import collections\nOps = collections.namedtuple('Ops', ['sum'])\nSUMMER = Ops(_cond)"))
one("h08_class_attr_same_module_lambda", AUTO + f"""

class Summer:
    sum = lambda self, t: {COND}


SUMMER = Summer()
""" + H2CALL + vm("block"))
one("h09_module_via_self_attr", AUTO + "import red\n" + """

class Layer:
    def __init__(self):
        self.ops = red

    def __call__(self, v):
        return jax.shard_map(lambda b: self.ops.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("Layer()"), red=f"import jax\nfrom jax import lax\n\n\ndef sum(t):\n    return {COND}\n")
one("h10_dict_subclass_instance", AUTO + "from utils import SUMMER\n" + H2CALL + vm("block"),
    utils=UT_ATTR.replace("class Summer:\n    sum = staticmethod(_cond)\n", "class Summer(dict):\n    pass\n\n\nSummer.sum = staticmethod(_cond)\n"))

NS_UT = UT_ATTR.replace("class Summer:\n    sum = staticmethod(_cond)\n\n\nSUMMER = Summer()", "import types\nSUMMER = types.SimpleNamespace(sum=_cond)")
one("h11_param_passed_by_call", AUTO + "from utils import SUMMER\n" + """

def run(s, b):
    return s.sum(b)


def block(v):
    return jax.shard_map(lambda b: run(SUMMER, b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), utils=NS_UT)
one("h12_simplenamespace_same_module", AUTO + "import types\n" + f"""

def _cond(t):
    return {COND}


SUMMER = types.SimpleNamespace(sum=_cond)
""" + H2CALL + vm("block"))
one("h13_module_passed_by_call", AUTO + "import red\n" + """

def run(s, b):
    return s.sum(b)


def block(v):
    return jax.shard_map(lambda b: run(red, b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), red=f"import jax\nfrom jax import lax\n\n\ndef sum(t):\n    return {COND}\n")
one("h14_control_array_sum", AUTO + """

def body(b):
    return b * b.sum()


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"))
one("h15_control_array_param_default_jnp", AUTO + """
W = jnp.ones((8,))


def body(b, w=W):
    return b * w.sum()


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"))

one("h16_control_body_given_project_function_result", AUTO + """

@partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
def pool(b):
    return b * b.sum()


def prep(v):
    return v + 1.0


def block(v):
    return pool(prep(v))
""" + vm("block"))

# ---------------- b: second wave (the new readings of this branch, more receivers of H2) ----------------
one("b01_init_param_factory_passed", AUTO + DOUBLE + f"""

class Layer:
    def __init__(self, smap):
        self.smap = smap

    def __call__(self, v):
        return self.smap(double)(v)
""" + vm(f"Layer({sm(chr(39) + 'x' + chr(39))})"))
one("b02_class_axis_x_module_axis_y", AUTO3 + DOUBLE + """
AX = 'y'


class Layer:
    AX = 'x'
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), out_specs=P(AX))


def block(v):
    return Layer.smap(double)(v)
""" + vm("block", "'x'"))
one("b03_decorator_class_attr_factory_scope", AUTO3 + """
AX = 'x'


class Layer:
    AX = 'y'
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), out_specs=P(AX))


@Layer.smap
def block(b):
    return b * 2.0
""" + vm("block", "'x'"))
one("b04_staticmethod_factory_subclass", AUTO3 + DOUBLE + f"""

class Base:
    smap = staticmethod({sm("'x'")})

    def __call__(self, v):
        return self.smap(double)(v)


class Layer(Base):
    smap = staticmethod({sm("'y'")})
""" + vm("Layer()", "'y'"))
one("b05_self_jit_partial_psum", AUTO + f"""

class Model:
    JIT = partial(jax.jit, out_shardings={JS.format(a="'y'")})

    def __call__(self, v):
        return self.JIT(block)(v)


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("Model()"))
one("b06_h2_default_module_attr", AUTO + "import utils\n" + """

def body(b, s=utils.SUMMER):
    return s.sum(b)


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), utils=NS_UT)
one("b07_h2_loop_over_imported", AUTO + "from utils import SUMMER\n" + """

def body(b):
    out = b
    for s in (SUMMER,):
        out = s.sum(out)
    return out


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), utils=NS_UT)
one("b08_h2_tuple_unpack_imported", AUTO + "from utils import SUMMER\n" + """

def body(b):
    s, k = SUMMER, 2.0
    return s.sum(b) * k


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), utils=NS_UT)
one("b09_h2_self_attr_set_from_param", AUTO + "from utils import SUMMER\n" + """

class Layer:
    def __init__(self, ops):
        self.ops = ops

    def __call__(self, v):
        return jax.shard_map(lambda b: self.ops.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("Layer(SUMMER)"), utils=NS_UT)
one("b10_h2_getattr_literal", AUTO + "from utils import SUMMER\n" + """

def body(b):
    return getattr(SUMMER, 'sum')(b)


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), utils=NS_UT)
one("b11_h2_walrus_imported", AUTO + "from utils import SUMMER\n" + """

def body(b):
    if (s := SUMMER) is not None:
        return s.sum(b)
    return b


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), utils=NS_UT)
one("b12_h2_kwonly_default", AUTO + "from utils import SUMMER\n" + """

def body(b, *, s=SUMMER):
    return s.sum(b)


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), utils=NS_UT)
one("b13_make_method_classmethod", AUTO3 + DOUBLE + """

class Layer:
    @classmethod
    def make(cls, spec):
        return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)


def block(v):
    return Layer.make(P('x'))(double)(v)
""" + vm("block", "'x'"))
one("b14_make_two_returns_decorator", AUTO3 + """

def make(ax):
    if ax == 'x':
        return partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
    return partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))


@make('y')
def block(b):
    return b * 2.0
""" + vm("block", "'y'"))
one("b15_jit_partial_applied_override_in_body", AUTO + DOUBLE + f"""

def block(v):
    w = partial(jax.jit, out_shardings=None)(lambda u: u + 1.0, out_shardings={JS.format(a="'y'")})(v)
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(w)
""" + vm("block"))

# ---------------- c: third wave ----------------
one("c01_h2_partial_bound_object", AUTO + "from utils import SUMMER\n" + """

def body(b, s):
    return s.sum(b)


def block(v):
    return jax.shard_map(partial(body, s=SUMMER), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), utils=NS_UT)
one("c02_h2_lambda_default", AUTO + "from utils import SUMMER\n" + """

def block(v):
    return jax.shard_map(lambda b, s=SUMMER: s.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), utils=NS_UT)
one("c03_h2_getattr_module", AUTO + "import utils\n" + """
S = getattr(utils, 'SUMMER')


def body(b, s=S):
    return s.sum(b)


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("block"), utils=NS_UT)
one("c04_vmap_factory_staticmethod_class", AUTO + DOUBLE + """

class T:
    vm = staticmethod(partial(jax.vmap, spmd_axis_name='x'))


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
""" + XS + """    return T.vm(block)(xs)
""")
one("c05_h2_class_attr_object", AUTO + "from utils import SUMMER\n" + """

class Layer:
    s = SUMMER

    def __call__(self, v):
        return jax.shard_map(lambda b: self.s.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("Layer()"), utils=NS_UT)
one("c06_jit_partial_self_override_in_call", AUTO3 + DOUBLE + f"""

class Model:
    JIT = partial(jax.jit)

    def __call__(self, v):
        return self.JIT(block, out_shardings={JS.format(a="'y'")})(v)


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + vm("Model()"))
one("c07_held_factory_decorator_method_scope", AUTO3 + DOUBLE + """

class Layer:
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))


class Sub(Layer):
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))


@Sub.smap
def block(b):
    return b * 2.0
""" + vm("block", "'y'"))


def main():
    out = HERE / "progs"
    shutil.rmtree(out, ignore_errors=True)
    for name, files in P.items():
        d = out / name
        d.mkdir(parents=True)
        (d / "pyproject.toml").write_text(PYPROJECT.format(name=name.replace("_", "-")))
        for rel, text in files.items():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            (d / rel).write_text(text)
    print(len(P), "programs")


if __name__ == "__main__":
    main()
