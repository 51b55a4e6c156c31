"""Writes progs/ (the breaker18 programs): python make_progs.py. Each program is main.py defining `compute()`: an
spmd vmap over 'x' of a shard_map on a 3-axis mesh ('x', 'y', 'z') whose specs are P('x', E), E an axis name
read through one of the spellings taught on me8 (a mesh's axis_names, a tuple's item, a helper's one return, an
attribute set by __init__). JAX raises (the spmd axis 'x' in in_specs); a safe rename must pick an axis E is not.
ref_impl.py is main.py without spmd_axis_name. Where E is written in the spmd_axis_name instead, the spec is
literal."""
import pathlib, re, shutil
HERE = pathlib.Path(__file__).resolve().parent
P = {}
PYPROJECT = '[project]\nname = "{name}"\nversion = "0"\n'
HEAD = """import copy
import dataclasses
import functools
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

"""
MESH = "mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)\n"
TAIL = """

if __name__ == "__main__":
    out = compute()
    import ref_impl
    ref = ref_impl.compute()
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(ref), atol=1e-5) else "RESULT: mismatch")
"""
SPMD = re.compile(r",\s*spmd_axis_name\s*=\s*[^)]+(?=\)\(xs\))")


def one(name, pre, spec="P('x', E)", spmd="'x'", mesh=MESH, body="", others=None):
    """A program: `pre` defines E (module level) before the block; `spec` the shard_map's specs."""
    src = HEAD + mesh + pre + f"""


def double(b):
    return b * 2.0
{body}

def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs={spec}, out_specs={spec})(v)


def compute():
    xs = np.arange(8 * 4 * 4, dtype=np.float32).reshape(8, 4, 4) / 10.0
    return jax.vmap(block, spmd_axis_name={spmd})(xs)
"""
    P[name] = {"main.py": src + TAIL, **(others or {})}


def _refs():
    """ref_impl.py of each program: main's `compute` without `spmd_axis_name`, every other name imported from
    main (a copy of main's classes would be a second module writing their attributes: the analysis refuses)."""
    for name, files in P.items():
        src = files["main.py"].split(TAIL)[0]
        body = src[src.index("def compute():"):]
        ref = SPMD.sub("", body)
        assert ref != body, name
        files["ref_impl.py"] = "from main import *  # noqa\n\n\n" + ref


# controls: E a literal
one("k01_literal_y", "E = 'y'\n")
one("k02_literal_z", "E = 'z'\n")


# ---- m: a mesh's own axis names (naive read 'z', JAX 'y' unless said) ----
MZY = "jax.make_mesh((2, 2, 2), ('x', 'z', 'y'), axis_types=(AxisType.Auto,) * 3)"
MYZ = "jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)"
one("m01_mesh_rebound_later", f"M = {MZY}\nM = {MYZ}\n", spec="P('x', M.axis_names[1])")
one("m02_mesh_helper_two_returns", f"""
def make(flag):
    if flag:
        return {MZY}
    return {MYZ}


M = make(False)
""", spec="P('x', M.axis_names[1])")
one("m03_mesh_helper_param_names", f"""
def make(names=('x', 'z', 'y')):
    return jax.make_mesh((2, 2, 2), names, axis_types=(AxisType.Auto,) * 3)


M = make(('x', 'y', 'z'))
""", spec="P('x', M.axis_names[1])")
one("m04_mesh_names_list_sorted", f"""
NAMES = ['x', 'z', 'y']
NAMES.sort()
M = jax.make_mesh((2, 2, 2), NAMES, axis_types=(AxisType.Auto,) * 3)
""", spec="P('x', M.axis_names[1])")
one("m05_mesh_shadowed_in_function", "", spec="P('x', mesh.axis_names[2])",
    body=f"\n\ndef _unused():\n    return 0\n")
P["m05_mesh_shadowed_in_function"]["main.py"] = P["m05_mesh_shadowed_in_function"]["main.py"].replace(
    "def block(v):\n", f"def block(v):\n    mesh = {MZY}\n")
one("m06_abstract_mesh", "AM = jax.sharding.AbstractMesh((2, 2, 2), ('x', 'z', 'y'))\n", spec="P('x', AM.axis_names[2])")
one("m07_mesh_devices_keyword_names", "M = Mesh(np.array(jax.devices()).reshape(2, 2, 2), axis_names=('x', 'z', 'y'))\n",
    spec="P('x', M.axis_names[-1])")
one("m08_mesh_names_list_reverse_tuple", """
NAMES = ['x', 'y', 'z']
M = jax.make_mesh((2, 2, 2), NAMES, axis_types=(AxisType.Auto,) * 3)
NAMES.reverse()
""", spec="P('x', M.axis_names[1])")  # make_mesh copies: JAX reads 'y'
one("m09_mesh_global_rebound_in_function", f"""
M = {MZY}


def setup():
    global M
    M = {MYZ}


setup()
""", spec="P('x', M.axis_names[1])")
one("m10_mesh_spmd_axis_names_all", "", spec="P('x', 'y')", spmd="mesh.axis_names[0]")
one("m11_mesh_names_single_string", "M1 = Mesh(np.array(jax.devices()[:1]), 'xy')\n", spec="P('x', 'y')",
    spmd="M1.axis_names[0][0]")
one("m12_mesh_from_cfg_names", f"""
class Cfg:
    def __init__(self, names=('x', 'y', 'z')):
        self.names = names


CFG = Cfg(('x', 'z', 'y'))
M = jax.make_mesh((2, 2, 2), CFG.names, axis_types=(AxisType.Auto,) * 3)
""", spec="P('x', M.axis_names[2])")

# ---- t: a tuple's item ----
one("t01_tuple_globals_write", "AX = ('x', 'z', 'y')\nglobals()['AX'] = ('x', 'y', 'z')\n", spec="P('x', AX[1])")
one("t02_tuple_nested", "AX = (('x', 'z'), 'y')\n", spec="P('x', AX[0][1])")
one("t03_tuple_class_attr_subclass", """
class A:
    AX = ('x', 'z', 'y')


class B(A):
    AX = ('x', 'y', 'z')
""", spec="P('x', B.AX[1])")
one("t04_tuple_unpacking", "AX, BX = ('x', 'y', 'z'), ('x', 'z', 'y')\n", spec="P('x', AX[1])")
one("t05_tuple_index_partial_bound", "AX = ('x', 'z', 'y')\n", spec="P('x', AX[i])")
for k in ("main.py",):
    P["t05_tuple_index_partial_bound"][k] = P["t05_tuple_index_partial_bound"][k].replace(
        "def block(v):", "def block(v, i=1):").replace("jax.vmap(block", "jax.vmap(partial(block, i=2)")
one("t06_tuple_global_in_function", """
AX = ('x', 'z', 'y')


def setup():
    global AX
    AX = ('x', 'y', 'z')


setup()
""", spec="P('x', AX[1])")
one("t07_tuple_other_module_rebinds", "import consts\nimport tweak\n", spec="P('x', consts.AX[1])",
    others={"consts.py": "AX = ('x', 'z', 'y')\n", "tweak.py": "import consts\nconsts.AX = ('x', 'y', 'z')\n"})
one("t08_tuple_from_import_rebinds", "import tweak\nfrom consts import AX\n", spec="P('x', AX[1])",
    others={"consts.py": "AX = ('x', 'z', 'y')\n", "tweak.py": "import consts\nconsts.AX = ('x', 'y', 'z')\n"})
one("t09_tuple_index_bool", "AX = ('z', 'y')\n", spec="P('x', AX[True])")
one("t10_tuple_index_name_aug", "AX = ('x', 'z', 'y')\nI = 1\nI += 1\n", spec="P('x', AX[I])")
one("t11_tuple_star_unpack", "_, *AX = ('q', 'x', 'z', 'y')\nAX = tuple(AX)\n", spec="P('x', AX[1])")
one("t12_tuple_walrus_in_func", "AX = ('x', 'z', 'y')\n", spec="P('x', AX[1])")
for k in ("main.py",):
    P["t12_tuple_walrus_in_func"][k] = P["t12_tuple_walrus_in_func"][k].replace(
        "def block(v):\n", "def block(v):\n    if (AX := ('x', 'y', 'z')):\n        pass\n")

# ---- h: a helper's one return ----
H = "AX = ('x', 'z', 'y')\n\n\n"
def helper(name, defn, call="pick(AX, 1)"):
    one(name, H + defn + "\n", spec=f"P('x', {call})")
helper("h01_param_augassign", "def pick(names, i):\n    i += 1\n    return names[i]\n")
helper("h02_param_walrus", "def pick(names, i):\n    if (i := i + 1):\n        pass\n    return names[i]\n")
helper("h03_param_for", "def pick(names, i):\n    for i in (2,):\n        pass\n    return names[i]\n")
helper("h04_decorator_shifts", "def shift(f):\n    return lambda names, i: f(names, i + 1)\n\n\n@shift\ndef pick(names, i):\n    return names[i]\n")
helper("h05_param_except_as", "def pick(names, i):\n    try:\n        raise KeyError(2)\n    except KeyError as e:\n        i = e.args[0]\n    return names[i]\n")
helper("h06_param_with_as", "import contextlib\n\n\ndef pick(names, i):\n    with contextlib.nullcontext(2) as i:\n        pass\n    return names[i]\n")
helper("h07_param_annassign", "def pick(names, i):\n    i: int = 2\n    return names[i]\n")
helper("h08_param_import_as", "def pick(names, i):\n    from consts import TWO as i\n    return names[i]\n")
P["h08_param_import_as"]["consts.py"] = "TWO = 2\n"
helper("h09_param_match", "def pick(names, i):\n    match i + 1:\n        case j:\n            i = j\n    return names[i]\n")
helper("h10_lambda", "pick = lambda names, i: names[i + 1]\n")
helper("h11_conditional_def", "def pick(names, i):\n    return names[i]\n\n\nif len(jax.devices()) > 1:\n    def pick(names, i):\n        return names[i + 1]\n")
helper("h12_finally_rebinds", "def pick(names, i):\n    try:\n        pass\n    finally:\n        i = 2\n    return names[i]\n")
helper("h13_global_default_rebound", "I = 1\n\n\ndef pick(names, i=I):\n    return names[i]\n\n\nI = 2\n", call="pick(AX)")
helper("h14_pick_reassigned_later", "def pick(names, i):\n    return names[i]\n\n\ndef pick2(names, i):\n    return names[i + 1]\n\n\npick = pick2\n")
helper("h15_names_param_rebound", "def pick(names, i):\n    names = names[::-1]\n    return names[i]\n", call="pick(AX, 1)")
helper("h16_helper_nested_closure", "def pick(names, i):\n    def inner():\n        nonlocal i\n        i = 2\n    inner()\n    return names[i]\n")
helper("h17_helper_global_index", "J = 1\n\n\ndef pick(names):\n    global J\n    J = 2\n    return names[J]\n", call="pick(AX)")
helper("h18_helper_del_reimport", "def pick(names, i):\n    del i\n    i = 2\n    return names[i]\n")
helper("h19_helper_exec", "def pick(names, i):\n    exec('')\n    return names[locals().get('j', 2)]\n")
helper("h20_helper_vararg", "def pick(names, *rest):\n    return names[len(rest) + 1]\n", call="pick(AX, 1)")
helper("h21_kwonly_default_and_call", "def pick(names, *, i=2):\n    return names[i]\n", call="pick(AX)")

# ---- i: an attribute __init__ sets ----
C = "class Config:\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\n"
def init(name, pre, spec="P('x', cfg.axis)", **kw):
    one(name, pre, spec=spec, **kw)
init("i01_reinit_method", C + "cfg = Config(axis='z')\ncfg.__init__(axis='y')\n")
init("i02_reinit_class_call", C + "cfg = Config(axis='z')\nConfig.__init__(cfg, 'y')\n")
init("i03_param_rebound_in_init", "class Config:\n    def __init__(self, axis='x'):\n        if axis == 'z':\n            axis = 'y'\n        self.axis = axis\n\n\ncfg = Config('z')\n")
init("i04_class_scope_default", "AXIS = 'z'\n\n\nclass Config:\n    AXIS = 'y'\n\n    def __init__(self, axis=AXIS):\n        self.axis = axis\n\n\ncfg = Config()\n")
init("i05_vararg_init", "class Config:\n    def __init__(self, axis='z', *rest):\n        self.axis = rest[0] if rest else axis\n\n\ncfg = Config('z', 'y')\n")
init("i06_reset_dict_update", "class Config:\n    def __init__(self, axis='x'):\n        self.axis = axis\n        self.reset()\n\n    def reset(self):\n        self.__dict__.update(axis='y')\n\n\ncfg = Config('z')\n")
init("i07_property_same_name", "class Config:\n    axis = property(lambda self: 'y', lambda self, v: None)\n\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\ncfg = Config('z')\n")
init("i08_descriptor_same_name", "class Fixed:\n    def __get__(self, obj, owner):\n        return obj._v\n\n    def __set__(self, obj, v):\n        obj._v = 'y'\n\n\nclass Config:\n    axis = Fixed()\n\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\ncfg = Config('z')\n")
init("i09_subclass_super_init", C + "class Sub(Config):\n    def __init__(self, axis):\n        super().__init__('y')\n\n\ncfg = Sub('z')\n")
init("i10_class_in_function", "def make():\n    class Config:\n        def __init__(self, axis='y'):\n            self.axis = axis\n    return Config\n\n\nConfig = make()\ncfg = Config()\n")
init("i11_third_module_reinit", "import tweak\nfrom config import CFG as cfg\n",
     others={"config.py": C + "CFG = Config('z')\n", "tweak.py": "from config import CFG\nCFG.__init__('y')\n"})
init("i12_class_swapped_in_init", "class Config:\n    def __init__(self, axis='x'):\n        self.axis = axis\n        self.__class__ = Sub\n\n\nclass Sub(Config):\n    axis = property(lambda self: 'y')\n\n\ncfg = Config('z')\n")
init("i13_init_wrapped_in_body", "def wrap(f):\n    return lambda self, axis='x': f(self, 'y')\n\n\nclass Config:\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n    __init__ = wrap(__init__)\n\n\ncfg = Config('z')\n")
init("i14_init_replaced_outside", C + "_orig = Config.__init__\nConfig.__init__ = lambda self, axis='x': _orig(self, 'y')\ncfg = Config('z')\n")
init("i15_slots_class_default", "class Config:\n    __slots__ = ('axis',)\n\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\ncfg = Config('y')\n")
init("i16_copy_replace_reinit", C + "cfg = Config('z')\ncfg2 = copy.copy(cfg)\ncfg2.__init__('y')\n", spec="P('x', cfg2.axis)")
init("i17_init_param_default_class_later", "class Config:\n    def __init__(self, axis=None):\n        self.axis = axis or 'y'\n\n\ncfg = Config()\n")
init("i18_init_tuple_item_param", "AX = ('x', 'z', 'y')\n\n\nclass Config:\n    def __init__(self, i=1):\n        i = i + 1\n        self.axis = AX[i]\n\n\ncfg = Config()\n")
init("i19_init_self_param_renamed", "class Config:\n    def __init__(this, axis='x', self=None):\n        this.axis = axis\n\n\ncfg = Config('y', self='z')\n")
init("i20_staticmethod_init_via_new_cls", "class Config:\n    def __init__(self, axis='z'):\n        self.axis = axis\n\n    @classmethod\n    def make(cls):\n        c = cls.__new__(cls)\n        c.__init__('y')\n        return c\n\n\ncfg = Config('z')\ncfg = Config.make()\n")
init("i21_init_later_setattr_builtin", C + "cfg = Config('z')\nsetattr(cfg, 'ax' + 'is', 'y')\n")
init("i22_init_in_function_local", C + "cfg = Config('y')\n", spec="P('x', cfg.axis)")
for k in ("main.py",):
    P["i22_init_in_function_local"][k] = P["i22_init_in_function_local"][k].replace(
        "def block(v):\n", "def block(v):\n    cfg = Config('y')\n").replace("cfg = Config('y')\n\n\ndef double", "cfg = Config('z')\n\n\ndef double")


# ---- m: a mesh's own axis names (naive read 'z', JAX 'y' unless said) ----
MZY = "jax.make_mesh((2, 2, 2), ('x', 'z', 'y'), axis_types=(AxisType.Auto,) * 3)"
MYZ = "jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)"
one("m01_mesh_rebound_later", f"M = {MZY}\nM = {MYZ}\n", spec="P('x', M.axis_names[1])")
one("m02_mesh_helper_two_returns", f"""
def make(flag):
    if flag:
        return {MZY}
    return {MYZ}


M = make(False)
""", spec="P('x', M.axis_names[1])")
one("m03_mesh_helper_param_names", f"""
def make(names=('x', 'z', 'y')):
    return jax.make_mesh((2, 2, 2), names, axis_types=(AxisType.Auto,) * 3)


M = make(('x', 'y', 'z'))
""", spec="P('x', M.axis_names[1])")
one("m04_mesh_names_list_sorted", f"""
NAMES = ['x', 'z', 'y']
NAMES.sort()
M = jax.make_mesh((2, 2, 2), NAMES, axis_types=(AxisType.Auto,) * 3)
""", spec="P('x', M.axis_names[1])")
one("m05_mesh_shadowed_in_function", "", spec="P('x', mesh.axis_names[2])",
    body=f"\n\ndef _unused():\n    return 0\n")
P["m05_mesh_shadowed_in_function"]["main.py"] = P["m05_mesh_shadowed_in_function"]["main.py"].replace(
    "def block(v):\n", f"def block(v):\n    mesh = {MZY}\n")
one("m06_abstract_mesh", "AM = jax.sharding.AbstractMesh((2, 2, 2), ('x', 'z', 'y'))\n", spec="P('x', AM.axis_names[2])")
one("m07_mesh_devices_keyword_names", "M = Mesh(np.array(jax.devices()).reshape(2, 2, 2), axis_names=('x', 'z', 'y'))\n",
    spec="P('x', M.axis_names[-1])")
one("m08_mesh_names_list_reverse_tuple", """
NAMES = ['x', 'y', 'z']
M = jax.make_mesh((2, 2, 2), NAMES, axis_types=(AxisType.Auto,) * 3)
NAMES.reverse()
""", spec="P('x', M.axis_names[1])")  # make_mesh copies: JAX reads 'y'
one("m09_mesh_global_rebound_in_function", f"""
M = {MZY}


def setup():
    global M
    M = {MYZ}


setup()
""", spec="P('x', M.axis_names[1])")
one("m10_mesh_spmd_axis_names_all", "", spec="P('x', 'y')", spmd="mesh.axis_names[0]")
one("m11_mesh_names_single_string", "M1 = Mesh(np.array(jax.devices()[:1]), 'xy')\n", spec="P('x', 'y')",
    spmd="M1.axis_names[0][0]")
one("m12_mesh_from_cfg_names", f"""
class Cfg:
    def __init__(self, names=('x', 'y', 'z')):
        self.names = names


CFG = Cfg(('x', 'z', 'y'))
M = jax.make_mesh((2, 2, 2), CFG.names, axis_types=(AxisType.Auto,) * 3)
""", spec="P('x', M.axis_names[2])")

# ---- t: a tuple's item ----
one("t01_tuple_globals_write", "AX = ('x', 'z', 'y')\nglobals()['AX'] = ('x', 'y', 'z')\n", spec="P('x', AX[1])")
one("t02_tuple_nested", "AX = (('x', 'z'), 'y')\n", spec="P('x', AX[0][1])")
one("t03_tuple_class_attr_subclass", """
class A:
    AX = ('x', 'z', 'y')


class B(A):
    AX = ('x', 'y', 'z')
""", spec="P('x', B.AX[1])")
one("t04_tuple_unpacking", "AX, BX = ('x', 'y', 'z'), ('x', 'z', 'y')\n", spec="P('x', AX[1])")
one("t05_tuple_index_partial_bound", "AX = ('x', 'z', 'y')\n", spec="P('x', AX[i])")
for k in ("main.py",):
    P["t05_tuple_index_partial_bound"][k] = P["t05_tuple_index_partial_bound"][k].replace(
        "def block(v):", "def block(v, i=1):").replace("jax.vmap(block", "jax.vmap(partial(block, i=2)")
one("t06_tuple_global_in_function", """
AX = ('x', 'z', 'y')


def setup():
    global AX
    AX = ('x', 'y', 'z')


setup()
""", spec="P('x', AX[1])")
one("t07_tuple_other_module_rebinds", "import consts\nimport tweak\n", spec="P('x', consts.AX[1])",
    others={"consts.py": "AX = ('x', 'z', 'y')\n", "tweak.py": "import consts\nconsts.AX = ('x', 'y', 'z')\n"})
one("t08_tuple_from_import_rebinds", "import tweak\nfrom consts import AX\n", spec="P('x', AX[1])",
    others={"consts.py": "AX = ('x', 'z', 'y')\n", "tweak.py": "import consts\nconsts.AX = ('x', 'y', 'z')\n"})
one("t09_tuple_index_bool", "AX = ('z', 'y')\n", spec="P('x', AX[True])")
one("t10_tuple_index_name_aug", "AX = ('x', 'z', 'y')\nI = 1\nI += 1\n", spec="P('x', AX[I])")
one("t11_tuple_star_unpack", "_, *AX = ('q', 'x', 'z', 'y')\nAX = tuple(AX)\n", spec="P('x', AX[1])")
one("t12_tuple_walrus_in_func", "AX = ('x', 'z', 'y')\n", spec="P('x', AX[1])")
for k in ("main.py",):
    P["t12_tuple_walrus_in_func"][k] = P["t12_tuple_walrus_in_func"][k].replace(
        "def block(v):\n", "def block(v):\n    if (AX := ('x', 'y', 'z')):\n        pass\n")

# ---- h: a helper's one return ----
H = "AX = ('x', 'z', 'y')\n\n\n"
def helper(name, defn, call="pick(AX, 1)"):
    one(name, H + defn + "\n", spec=f"P('x', {call})")
helper("h01_param_augassign", "def pick(names, i):\n    i += 1\n    return names[i]\n")
helper("h02_param_walrus", "def pick(names, i):\n    if (i := i + 1):\n        pass\n    return names[i]\n")
helper("h03_param_for", "def pick(names, i):\n    for i in (2,):\n        pass\n    return names[i]\n")
helper("h04_decorator_shifts", "def shift(f):\n    return lambda names, i: f(names, i + 1)\n\n\n@shift\ndef pick(names, i):\n    return names[i]\n")
helper("h05_param_except_as", "def pick(names, i):\n    try:\n        raise KeyError(2)\n    except KeyError as e:\n        i = e.args[0]\n    return names[i]\n")
helper("h06_param_with_as", "import contextlib\n\n\ndef pick(names, i):\n    with contextlib.nullcontext(2) as i:\n        pass\n    return names[i]\n")
helper("h07_param_annassign", "def pick(names, i):\n    i: int = 2\n    return names[i]\n")
helper("h08_param_import_as", "def pick(names, i):\n    from consts import TWO as i\n    return names[i]\n")
P["h08_param_import_as"]["consts.py"] = "TWO = 2\n"
helper("h09_param_match", "def pick(names, i):\n    match i + 1:\n        case j:\n            i = j\n    return names[i]\n")
helper("h10_lambda", "pick = lambda names, i: names[i + 1]\n")
helper("h11_conditional_def", "def pick(names, i):\n    return names[i]\n\n\nif len(jax.devices()) > 1:\n    def pick(names, i):\n        return names[i + 1]\n")
helper("h12_finally_rebinds", "def pick(names, i):\n    try:\n        pass\n    finally:\n        i = 2\n    return names[i]\n")
helper("h13_global_default_rebound", "I = 1\n\n\ndef pick(names, i=I):\n    return names[i]\n\n\nI = 2\n", call="pick(AX)")
helper("h14_pick_reassigned_later", "def pick(names, i):\n    return names[i]\n\n\ndef pick2(names, i):\n    return names[i + 1]\n\n\npick = pick2\n")
helper("h15_names_param_rebound", "def pick(names, i):\n    names = names[::-1]\n    return names[i]\n", call="pick(AX, 1)")
helper("h16_helper_nested_closure", "def pick(names, i):\n    def inner():\n        nonlocal i\n        i = 2\n    inner()\n    return names[i]\n")
helper("h17_helper_global_index", "J = 1\n\n\ndef pick(names):\n    global J\n    J = 2\n    return names[J]\n", call="pick(AX)")
helper("h18_helper_del_reimport", "def pick(names, i):\n    del i\n    i = 2\n    return names[i]\n")
helper("h19_helper_exec", "def pick(names, i):\n    exec('')\n    return names[locals().get('j', 2)]\n")
helper("h20_helper_vararg", "def pick(names, *rest):\n    return names[len(rest) + 1]\n", call="pick(AX, 1)")
helper("h21_kwonly_default_and_call", "def pick(names, *, i=2):\n    return names[i]\n", call="pick(AX)")

# ---- i: an attribute __init__ sets ----
C = "class Config:\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\n"
def init(name, pre, spec="P('x', cfg.axis)", **kw):
    one(name, pre, spec=spec, **kw)
init("i01_reinit_method", C + "cfg = Config(axis='z')\ncfg.__init__(axis='y')\n")
init("i02_reinit_class_call", C + "cfg = Config(axis='z')\nConfig.__init__(cfg, 'y')\n")
init("i03_param_rebound_in_init", "class Config:\n    def __init__(self, axis='x'):\n        if axis == 'z':\n            axis = 'y'\n        self.axis = axis\n\n\ncfg = Config('z')\n")
init("i04_class_scope_default", "AXIS = 'z'\n\n\nclass Config:\n    AXIS = 'y'\n\n    def __init__(self, axis=AXIS):\n        self.axis = axis\n\n\ncfg = Config()\n")
init("i05_vararg_init", "class Config:\n    def __init__(self, axis='z', *rest):\n        self.axis = rest[0] if rest else axis\n\n\ncfg = Config('z', 'y')\n")
init("i06_reset_dict_update", "class Config:\n    def __init__(self, axis='x'):\n        self.axis = axis\n        self.reset()\n\n    def reset(self):\n        self.__dict__.update(axis='y')\n\n\ncfg = Config('z')\n")
init("i07_property_same_name", "class Config:\n    axis = property(lambda self: 'y', lambda self, v: None)\n\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\ncfg = Config('z')\n")
init("i08_descriptor_same_name", "class Fixed:\n    def __get__(self, obj, owner):\n        return obj._v\n\n    def __set__(self, obj, v):\n        obj._v = 'y'\n\n\nclass Config:\n    axis = Fixed()\n\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\ncfg = Config('z')\n")
init("i09_subclass_super_init", C + "class Sub(Config):\n    def __init__(self, axis):\n        super().__init__('y')\n\n\ncfg = Sub('z')\n")
init("i10_class_in_function", "def make():\n    class Config:\n        def __init__(self, axis='y'):\n            self.axis = axis\n    return Config\n\n\nConfig = make()\ncfg = Config()\n")
init("i11_third_module_reinit", "import tweak\nfrom config import CFG as cfg\n",
     others={"config.py": C + "CFG = Config('z')\n", "tweak.py": "from config import CFG\nCFG.__init__('y')\n"})
init("i12_class_swapped_in_init", "class Config:\n    def __init__(self, axis='x'):\n        self.axis = axis\n        self.__class__ = Sub\n\n\nclass Sub(Config):\n    axis = property(lambda self: 'y')\n\n\ncfg = Config('z')\n")
init("i13_init_wrapped_in_body", "def wrap(f):\n    return lambda self, axis='x': f(self, 'y')\n\n\nclass Config:\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n    __init__ = wrap(__init__)\n\n\ncfg = Config('z')\n")
init("i14_init_replaced_outside", C + "_orig = Config.__init__\nConfig.__init__ = lambda self, axis='x': _orig(self, 'y')\ncfg = Config('z')\n")
init("i15_slots_class_default", "class Config:\n    __slots__ = ('axis',)\n\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\ncfg = Config('y')\n")
init("i16_copy_replace_reinit", C + "cfg = Config('z')\ncfg2 = copy.copy(cfg)\ncfg2.__init__('y')\n", spec="P('x', cfg2.axis)")
init("i17_init_param_default_class_later", "class Config:\n    def __init__(self, axis=None):\n        self.axis = axis or 'y'\n\n\ncfg = Config()\n")
init("i18_init_tuple_item_param", "AX = ('x', 'z', 'y')\n\n\nclass Config:\n    def __init__(self, i=1):\n        i = i + 1\n        self.axis = AX[i]\n\n\ncfg = Config()\n")
init("i19_init_self_param_renamed", "class Config:\n    def __init__(this, axis='x', self=None):\n        this.axis = axis\n\n\ncfg = Config('y', self='z')\n")
init("i20_staticmethod_init_via_new_cls", "class Config:\n    def __init__(self, axis='z'):\n        self.axis = axis\n\n    @classmethod\n    def make(cls):\n        c = cls.__new__(cls)\n        c.__init__('y')\n        return c\n\n\ncfg = Config('z')\ncfg = Config.make()\n")
init("i21_init_later_setattr_builtin", C + "cfg = Config('z')\nsetattr(cfg, 'ax' + 'is', 'y')\n")
init("i22_init_in_function_local", C + "cfg = Config('y')\n", spec="P('x', cfg.axis)")
for k in ("main.py",):
    P["i22_init_in_function_local"][k] = P["i22_init_in_function_local"][k].replace(
        "def block(v):\n", "def block(v):\n    cfg = Config('y')\n").replace("cfg = Config('y')\n\n\ndef double", "cfg = Config('z')\n\n\ndef double")


# ---- second wave ----
helper("h22_global_rebound_by_callee", "J = 0\n\n\ndef bump():\n    global J\n    J = 1\n\n\ndef pick(names):\n    global J\n    J = 2\n    bump()\n    return names[J]\n", call="pick(AX)")
one("h23_helper_patched_by_other_module", "import tweak\nfrom helpers import pick\nAX = ('x', 'z', 'y')\n", spec="P('x', pick(AX, 1))",
    others={"helpers.py": "def pick(names, i):\n    return names[i]\n",
            "tweak.py": "import helpers\nhelpers.pick = lambda names, i: names[i + 1]\n"})
helper("h24_defaults_replaced", "def pick(names, i=1):\n    return names[i]\n\n\npick.__defaults__ = (2,)\n", call="pick(AX)")
helper("h25_kwdefaults_replaced", "def pick(names, *, i=1):\n    return names[i]\n\n\npick.__kwdefaults__ = {'i': 2}\n", call="pick(AX)")
helper("h26_code_replaced", "def pick(names, i):\n    return names[i]\n\n\npick.__code__ = (lambda names, i: names[i + 1]).__code__\n")
init("i23_init_nonlocal_closure", "class Config:\n    def __init__(self, axis='x'):\n        def f():\n            nonlocal axis\n            axis = 'y'\n        f()\n        self.axis = axis\n\n\ncfg = Config('z')\n")
init("i24_dataclass_reinit", "@dataclasses.dataclass\nclass Config:\n    axis: str = 'x'\n\n\ncfg = Config(axis='z')\ncfg.__init__(axis='y')\n")
init("i25_new_replaced_outside", "class Config:\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\nclass Sub(Config):\n    def __init__(self, axis='x'):\n        super().__init__('y')\n\n\nConfig.__new__ = lambda cls, *a, **k: object.__new__(Sub)\ncfg = Config('z')\n")
init("i26_init_defaults_replaced", "class Config:\n    def __init__(self, axis='z'):\n        self.axis = axis\n\n\nConfig.__init__.__defaults__ = ('y',)\ncfg = Config()\n")
init("i27_init_global_rebound", "AXIS = 'z'\n\n\ndef bump():\n    global AXIS\n    AXIS = 'y'\n\n\nclass Config:\n    def __init__(self):\n        bump()\n        self.axis = AXIS\n\n\ncfg = Config()\n")
init("i28_setattr_on_class_outside", C + "setattr(Config, '__init__', lambda self, axis='x': Config.__dict__['_i'](self, 'y'))\n" if False else C + "_real = Config.__init__\nsetattr(Config, '__init__', lambda self, axis='x': _real(self, 'y'))\ncfg = Config('z')\n")
init("i29_class_attr_plain_same_name", "class Config:\n    axis = 'q'\n\n    def __init__(self, axis='x'):\n        self.axis = axis\n\n\ncfg = Config('y')\n")
one("m13_mesh_from_init_attr", """
class Holder:
    def __init__(self, names=('x', 'y', 'z')):
        self.mesh = jax.make_mesh((2, 2, 2), names, axis_types=(AxisType.Auto,) * 3)


H = Holder(('x', 'z', 'y'))
H.__init__()
""", spec="P('x', H.mesh.axis_names[1])")


if __name__ == "__main__":
    _refs()
    progs = HERE / "progs"
    shutil.rmtree(progs, ignore_errors=True)
    for name, files in P.items():
        d = progs / name
        for rel, text in files.items():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            (d / rel).write_text(text)
        (d / "pyproject.toml").write_text(PYPROJECT.format(name=name.replace("_", "-")))
    print(len(P), "programs")
