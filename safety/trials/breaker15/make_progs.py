"""Writes progs/ (the breaker15 programs): python make_progs.py [--missing]. Each single-module program is main.py
defining `compute()`; its reference is ref_impl.py, the same source with `spmd_axis_name=...` removed (a plain
vmap keeps the values on an Auto mesh, measured: docs/safety.md row 27), or a numpy expression (`ref`). Groups:
a batch sizes read wrongly (rename), m meshes (class attributes, two meshes, mixed axis types, dynamic reads),
s strip, k packages (config/model/train), f flax."""
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
    {refline}
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(ref), atol=1e-5) else "RESULT: mismatch")
"""
SPMD = re.compile(r",\s*spmd_axis_name\s*=\s*('[a-z]+'|\"[a-z]+\"|[A-Za-z_.]+)")
MAIN = """import numpy as np
from pkg import train

XS = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0

if __name__ == "__main__":
    out = train.compute()
    ref = {ref}
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(ref), atol=1e-5) else "RESULT: mismatch")
"""


def one(name, body, ref=None, head=HEAD):
    """A single-module program: main.py (compute() + check) and, without `ref`, ref_impl.py (plain vmap)."""
    refline = f"ref = {ref}" if ref else "import ref_impl; ref = ref_impl.compute()"
    files = {"main.py": head + body + TAIL.format(refline=refline)}
    if not ref:
        src = SPMD.sub("", head + body)
        assert src != head + body, name
        files["ref_impl.py"] = src
    P[name] = files


def pkg(name, files, ref):
    """A package program: pkg/..., main.py comparing train.compute() with numpy `ref`."""
    files = dict(files)
    files["main.py"] = MAIN.format(ref=ref)
    P[name] = files


def block(body, specs="in_specs=P('x'), out_specs=P('x')", extra="", m="mesh"):
    return f"""

def block(v):
    return jax.shard_map({body}, mesh={m}, {specs}{extra})(v)

"""


def call(xs, extra=""):
    return f"""
def compute():
    xs = {xs}
    return jax.vmap(block{extra}, spmd_axis_name='x')(xs)
"""


CALL8 = call("np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0")

# ---------------- h: hazard H2 (calls of the body) spelled so the key is another ----------------
XPFP = "XP = jnp.linspace(0.0, 8.0, 8)\nFP = jnp.linspace(0.0, 1.0, 8)\n"
one("h01_alias_assigned_interp", AUTO + XPFP + "f = jnp.interp\n" + block("lambda b: f(b, XP, FP)") + CALL8)
one("h02_from_import_interp_as_f", AUTO.replace("mesh =", "from jax.numpy import interp as f\nmesh =") + XPFP
    + block("lambda b: f(b, XP, FP)") + CALL8)
one("h03_getattr_jnp_interp", AUTO + XPFP + block("lambda b: getattr(jnp, 'interp')(b, XP, FP)") + CALL8)
one("h04_methodcaller_searchsorted", AUTO.replace("mesh =", "import operator\nmesh =")
    + block("lambda b: b + operator.methodcaller('searchsorted', b)(b)") + CALL8)
one("h05_import_module_interp", AUTO.replace("mesh =", "import importlib\nmesh =") + XPFP
    + block("lambda b: importlib.import_module('jax.numpy').interp(b, XP, FP)") + CALL8)
one("h06_object_sum_runs_cond_factory", AUTO + """
class Summer:
    def sum(self, t):
        return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


def make_summer():
    return Summer()


SUMMER = make_summer()
""" + block("lambda b: SUMMER.sum(b)") + CALL8)
one("h07_object_sum_runs_cond_param_default", AUTO + """
class Summer:
    def sum(self, t):
        return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


def body(b, s=Summer()):
    return s.sum(b)
""" + block("body") + CALL8)
one("h08_vectorize_project_decorator", AUTO + """
def vec(f):
    return jnp.vectorize(f)


@vec
def g(t):
    return lax.cond(t > 1.0, lambda u: u * 2.0, lambda u: u, t)
""" + block("lambda b: g(b)") + CALL8)
one("h09_vectorize_decorator_direct", AUTO + """
@jnp.vectorize
def g(t):
    return jnp.where(t > 1.0, t * 2.0, t)
""" + block("lambda b: g(b)") + CALL8)
one("h10_class_staticmethod_interp", AUTO + XPFP + """
class Ops:
    f = staticmethod(jnp.interp)
""" + block("lambda b: Ops.f(b, XP, FP)") + CALL8)
one("h11_tree_map_alias_interp", AUTO + XPFP + "f = functools.partial(jnp.interp, xp=XP, fp=FP)\n"
    + block("lambda b: jax.tree.map(f, b)") + CALL8)
one("h12_local_alias_in_body", AUTO + XPFP + """
def body(b):
    f = jnp.interp
    return f(b, XP, FP)
""" + block("body") + CALL8)
one("h13_at_apply_cond", AUTO + block("lambda b: b.at[0].apply(lambda t: lax.cond(t > 0.5, lambda u: u * 2.0, lambda u: u, t))") + CALL8)
one("h14_tuple_unpack_alias", AUTO + XPFP + "f, g = jnp.interp, jnp.sin\n" + block("lambda b: f(b, XP, FP)") + CALL8)
one("h15_jnp_dunder_dict", AUTO + XPFP + block("lambda b: jnp.__dict__['interp'](b, XP, FP)") + CALL8)
one("h16_walrus_alias", AUTO + XPFP + block("lambda b: (f := jnp.interp)(b, XP, FP)") + CALL8)
one("h17_global_alias_via_default_param", AUTO + XPFP + """
def body(b, f=jnp.interp):
    return f(b, XP, FP)
""" + block("body") + CALL8)
one("h18_lax_map_alias", AUTO + "f = jnp.sin\n" + block("lambda b: lax.map(f, b)") + CALL8)
one("h19_cond_alias", AUTO + "c = lax.cond\n"
    + block("lambda b: c(b.sum() > 1.0, lambda u: u * 2.0, lambda u: u, b)") + CALL8)
one("h20_method_sum_on_self_instance_unknown", AUTO + """
class Summer:
    def sum(self, t):
        return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


SUMMERS = [Summer()]
""" + block("lambda b: SUMMERS[0].sum(b)") + CALL8)

SUMMER_CLS = """
class Summer:
    def sum(self, t):
        return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


def make_summer():
    return Summer()
"""
one("h21_call_result_receiver", AUTO + SUMMER_CLS + block("lambda b: make_summer().sum(b)") + CALL8)
one("h22_namespace_attribute_receiver", AUTO.replace("mesh =", "import types\nmesh =") + SUMMER_CLS
    + "NS = types.SimpleNamespace(summer=make_summer())\n" + block("lambda b: NS.summer.sum(b)") + CALL8)
one("h23_getattr_variable_name", AUTO + XPFP + "NAME = 'interp'\n" + block("lambda b: getattr(jnp, NAME)(b, XP, FP)") + CALL8)
one("h24_eval_callee", AUTO + XPFP + block("lambda b: eval('jnp.interp')(b, XP, FP)") + CALL8)
one("h25_ifexp_alias", AUTO + XPFP + "FLAG = True\nf = jnp.interp if FLAG else jnp.sin\n" + block("lambda b: f(b, XP, FP)") + CALL8)
one("h26_star_import_interp", AUTO.replace("mesh =", "from jax.numpy import *\nmesh =") + XPFP
    + block("lambda b: interp(b, XP, FP)") + CALL8)
one("h27_class_body_plain_alias", AUTO + XPFP + """
class Ops:
    f = jnp.interp
""" + block("lambda b: Ops.f(b, XP, FP)") + CALL8)
one("h28_ifexp_callee", AUTO + XPFP + "FLAG = True\n" + block("lambda b: (jnp.interp if FLAG else jnp.sin)(b, XP, FP)") + CALL8)
one("h29_nested_partial", AUTO + XPFP + block("lambda b: functools.partial(functools.partial(jnp.interp, xp=XP), fp=FP)(b)") + CALL8)
one("h30_jit_of_library", AUTO + XPFP + block("lambda b: jax.jit(jnp.interp)(b, XP, FP)") + CALL8)
one("h31_checkpoint_of_library", AUTO + XPFP + block("lambda b: jax.checkpoint(jnp.interp)(b, XP, FP)") + CALL8)
one("h32_body_is_partial_of_library", AUTO + XPFP + block("functools.partial(jnp.interp, xp=XP, fp=FP)") + CALL8)
one("h33_lambda_default_interp", AUTO + XPFP + block("lambda b, f=jnp.interp: f(b, XP, FP)") + CALL8)
one("h34_tree_map_partial_attr", AUTO + XPFP + """
class Cfg:
    op = functools.partial(jnp.interp, xp=XP, fp=FP)
""" + block("lambda b: jax.tree.map(Cfg.op, b)") + CALL8)
one("h35_vmap_of_library_inside", AUTO + XPFP + block("lambda b: jax.tree.map(lambda t: jnp.interp(t, XP, FP), b)") + CALL8)
one("h36_method_sum_on_global_list_comprehension", AUTO + SUMMER_CLS + "SUMMERS = [make_summer() for _ in range(2)]\n"
    + block("lambda b: SUMMERS[0].sum(b)") + CALL8)
one("h37_dataclass_field_default", AUTO.replace("mesh =", "import dataclasses\nmesh =") + SUMMER_CLS + """
@dataclasses.dataclass
class Holder:
    s: object = dataclasses.field(default_factory=make_summer)


H = Holder()
""" + block("lambda b: H.s.sum(b)") + CALL8)
one("h38_tuple_unpack_summer", AUTO + SUMMER_CLS + "A, B = make_summer(), make_summer()\n" + block("lambda b: A.sum(b)") + CALL8)
one("h39_closure_summer_in_block", AUTO + SUMMER_CLS + """

def block(v):
    s = make_summer()
    return jax.shard_map(lambda b: s.sum(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + CALL8)
one("h40_param_passed_summer", AUTO + SUMMER_CLS + """

def run(s, b):
    return s.sum(b)


def block(v):
    return jax.shard_map(lambda b: run(make_summer(), b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
""" + CALL8)

# ---------------- b: a bound method as the shard_map body ----------------
CALLM = """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    layer = Layer()
    return jax.vmap(layer, spmd_axis_name='x')(xs)
"""
def meth(cls_body, call="self._block", specs="in_specs=P('x'), out_specs=P('x')", extra=""):
    return f"""
class Layer{cls_body}
    def __call__(self, v):
        return jax.shard_map({call}, mesh=mesh, {specs}{extra})(v)
"""
one("b01_default_param_axis_y", AUTO + meth(""":
    def _block(self, b, axis='y'):
        return b + lax.psum(b, axis)
""", extra=", check_vma=False") + CALLM)
one("b02_self_to_helper_psum_y", AUTO + """
def helper(layer, b):
    return b + lax.psum(b, layer.AXIS)
""" + meth(""":
    AXIS = 'y'

    def _block(self, b):
        return helper(self, b)
""", extra=", check_vma=False") + CALLM)
one("b03_base_class_block_psum_y", AUTO + """
class Base:
    def _block(self, b):
        return b + lax.psum(b, 'y')
""" + meth("(Base):", extra=", check_vma=False") + CALLM)
one("b04_getattr_self_block", AUTO + meth(""":
    def _block(self, b):
        return b + lax.psum(b, 'y')
""", call="getattr(self, '_block')", extra=", check_vma=False") + CALLM)
one("b05_self_method_psum_y", AUTO + meth(""":
    def _red(self, b):
        return lax.psum(b, 'y')

    def _block(self, b):
        return b + self._red(b)
""", extra=", check_vma=False") + CALLM)
one("b06_class_attr_axis", AUTO + meth(""":
    AXIS = 'y'

    def _block(self, b):
        return b + lax.psum(b, Layer.AXIS)
""", extra=", check_vma=False") + CALLM)
one("b07_self_attr_axis", AUTO + meth(""":
    AXIS = 'y'

    def _block(self, b):
        return b + lax.psum(b, self.AXIS)
""", extra=", check_vma=False") + CALLM)
one("b08_partial_bound_method", AUTO + meth(""":
    def _block(self, k, b):
        return b + k * lax.psum(b, 'y')
""", call="functools.partial(self._block, 1.0)", extra=", check_vma=False") + CALLM)
one("b09_dict_in_specs_method", AUTO + """
class Layer:
    def _block(self, d):
        return {'a': d['a'] + lax.psum(d['a'], 'y')}

    def __call__(self, v):
        return jax.shard_map(self._block, mesh=mesh, in_specs=({'a': P('x')},), out_specs={'a': P('x')}, check_vma=False)({'a': v})['a']
""" + CALLM)
one("b10_method_interp_h2", AUTO + XPFP + meth(""":
    def _block(self, b):
        return jnp.interp(b, XP, FP)
""", call="self._block") + CALLM)
one("b11_method_self_fn_interp", AUTO + XPFP + meth(""":
    fn = staticmethod(jnp.interp)

    def _block(self, b):
        return self.fn(b, XP, FP)
""") + CALLM)
one("b12_method_object_sum_cond", AUTO + """
class Summer:
    def sum(self, t):
        return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)
""" + meth(""":
    def __init__(self):
        self.s = make()

    def _block(self, b):
        return self.s.sum(b)
""") + "\n\ndef make():\n    return Summer()\n" + CALLM)
one("b13_wraps_decorated_method", AUTO + """
def deco(f):
    @functools.wraps(f)
    def w(*a, **k):
        return f(*a, **k)
    return w
""" + meth(""":
    @deco
    def _block(self, b):
        return b + lax.psum(b, 'y')
""", extra=", check_vma=False") + CALLM)
one("b14_type_self_block_two_args", AUTO + meth(""":
    def _block(self, b):
        return b + lax.psum(b, 'y')
""", call="functools.partial(type(self)._block, self)", extra=", check_vma=False") + CALLM)
one("b15_module_global_method_psum_axis", AUTO + "AX = 'y'\n" + meth(""":
    def _block(self, b, *, ax=AX):
        return b + lax.psum(b, ax)
""", extra=", check_vma=False") + CALLM)

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
