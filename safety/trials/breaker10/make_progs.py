"""Writes progs/ (the breaker10 programs): python make_progs.py."""
import pathlib, textwrap
HERE = pathlib.Path(__file__).resolve().parent
P = {}
HEAD = """import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P
"""
CONFIG = "import jax\n\nMESH = jax.make_mesh((2, 4), ('x', 'y'))\n"
MODEL_JIT = """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def accumulate(fn, xs):
    return jax.jit(jax.vmap(fn, spmd_axis_name='x'))(xs)
"""
MAIN = """import numpy as np
from pkg.train import step


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0 * MULT) else "RESULT: mismatch")


main()
"""
def pkg(name, train, model=MODEL_JIT, mult="1.0", main=None, config=CONFIG):
    # the vmapped function is model.py's own block (a parameter fn makes every fix unsafe: train.py's call
    # "may run it with a vmapped function of its own"), so that only the batch's placement decides add-axis
    model = model.replace("def accumulate(fn, xs", "def accumulate(xs").replace("jax.vmap(fn,", "jax.vmap(block,")
    train = train.replace("accumulate(block, ", "accumulate(")
    P[name] = {"pkg/__init__.py": "", "pkg/config.py": config, "pkg/model.py": model, "pkg/train.py": train,
               "main.py": (main or MAIN).replace("MULT", mult)}

# t01: one module, batch placed P(None, 'x') under jit: the base (add-axis safe?)
P["t01_one_module_base"] = {"main.py": HEAD + """
mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def accumulate(fn, xs):
    return jax.jit(jax.vmap(fn, spmd_axis_name='x'))(xs)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    placed = jax.device_put(xs, NamedSharding(mesh, P(None, 'x')))
    out = accumulate(block, placed)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
"""}
T = """import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate, block


"""
pkg("t02_pkg_base_device_put", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return accumulate(block, xs)
""")
pkg("t03_pkg_loop_replaces_on_batch_axis", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    for _ in range(2):
        out = accumulate(block, xs)
        xs = jax.device_put(out, NamedSharding(MESH, P('x', None)))
    return out
""", mult="2.0")
pkg("t04_pkg_if_two_placements", T + """def step(xs, flip=True):
    if flip:
        xs = jax.device_put(xs, NamedSharding(MESH, P('x', None)))
    else:
        xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return accumulate(block, xs)
""")
pkg("t05_pkg_if_replace_after_placement", T + """def step(xs, flip=True):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    if flip:
        xs = jax.device_put(xs, NamedSharding(MESH, P('x', None)))
    return accumulate(block, xs)
""")
pkg("t06_pkg_model_param_rebound_in_if", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return accumulate(block, xs, True)
""", model=MODEL_JIT.replace("from jax.sharding import PartitionSpec as P", "from jax.sharding import NamedSharding, PartitionSpec as P").replace(
"""def accumulate(fn, xs):
""", """def accumulate(fn, xs, flip=False):
    if flip:
        xs = jax.device_put(xs, NamedSharding(MESH, P('x', None)))
"""))
pkg("t07_pkg_caller_fn_two_inputs", T + """def run(xs):
    return accumulate(block, xs)


def step(xs):
    a = run(jax.device_put(xs, NamedSharding(MESH, P(None, 'x'))))
    return run(jax.device_put(a, NamedSharding(MESH, P('x', None))))
""", mult="2.0")
pkg("t08_pkg_caller_param_from_main", T + """def run(xs):
    return accumulate(block, xs)


def step(xs):
    return xs
""", main="""import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P
from pkg.config import MESH
from pkg.train import run


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = run(jax.device_put(xs, NamedSharding(MESH, P('x', None))))
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
pkg("t09_pkg_alias_rebound_later", T + """def step(xs):
    a = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    b = a
    a = jax.device_put(xs, NamedSharding(MESH, P('x', None)))
    return accumulate(block, a)
""")
pkg("t10_pkg_placed_on_x_at_batch", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P('x')))
    return accumulate(block, xs)
""")
pkg("t11_pkg_reshard_set_mesh", T + """def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P(None, 'x'))
        return accumulate(block, xs)
""")
pkg("t12_pkg_eager_model_jit_in_caller", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return jax.jit(lambda v: accumulate(block, v))(xs)
""", model=MODEL_JIT.replace("jax.jit(jax.vmap(fn, spmd_axis_name='x'))(xs)", "jax.vmap(fn, spmd_axis_name='x')(xs)"))
pkg("t13_pkg_while_loop_replaces", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    n = 0
    while n < 2:
        if n == 1:
            xs = jax.device_put(xs, NamedSharding(MESH, P('x', None)))
        out = accumulate(block, xs)
        n += 1
    return out
""")
pkg("t14_pkg_ok_loop_keeps_placement", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    for _ in range(2):
        out = accumulate(block, xs)
        xs = out
    return out
""", mult="2.0")
pkg("t15_pkg_placed_then_nested_def_rebinds", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))

    def replace():
        nonlocal xs
        xs = jax.device_put(xs, NamedSharding(MESH, P('x', None)))

    replace()
    return accumulate(block, xs)
""")

pkg("t16_pkg_walrus_rebinds", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    if (xs := jax.device_put(xs, NamedSharding(MESH, P('x', None)))) is None:
        return None
    return accumulate(block, xs)
""")
pkg("t17_pkg_for_target_rebinds", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    for xs in [jax.device_put(xs, NamedSharding(MESH, P('x', None)))]:
        pass
    return accumulate(block, xs)
""")
pkg("t18_pkg_tuple_unpack_rebinds", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    xs, _ = jax.device_put(xs, NamedSharding(MESH, P('x', None))), 0
    return accumulate(block, xs)
""")
pkg("t19_pkg_with_as_rebinds", T.replace("import jax\n", "import contextlib\n\nimport jax\n", 1) + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    with contextlib.nullcontext(jax.device_put(xs, NamedSharding(MESH, P('x', None)))) as xs:
        return accumulate(block, xs)
""")
pkg("t20_pkg_except_rebinds", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    try:
        raise RuntimeError('re-place')
    except RuntimeError:
        xs = jax.device_put(xs, NamedSharding(MESH, P('x', None)))
    return accumulate(block, xs)
""")
pkg("t21_pkg_global_rebound_by_helper", T + """XS = None


def prepare(xs):
    global XS
    XS = jax.device_put(xs, NamedSharding(MESH, P('x', None)))


def step(xs):
    global XS
    XS = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    prepare(xs)
    return accumulate(block, XS)
""")
P["t22_one_module_nonlocal_rebinds"] = {"main.py": HEAD + """
mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    placed = jax.device_put(xs, NamedSharding(mesh, P(None, 'x')))

    def replace():
        nonlocal placed
        placed = jax.device_put(placed, NamedSharding(mesh, P('x', None)))

    replace()
    out = jax.jit(jax.vmap(block, spmd_axis_name='x'))(placed)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
"""}
AUTO = "import jax\nfrom jax.sharding import AxisType\n\nMESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n"
BASE = """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Base:
    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
"""
VTRAIN = """import jax

from pkg.model import apply


def step(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
"""
def cls(name, model, base=BASE):
    P[name] = {"pkg/__init__.py": "", "pkg/config.py": AUTO, "pkg/base.py": base, "pkg/model.py": model,
               "pkg/train.py": VTRAIN, "main.py": MAIN.replace("MULT", "1.0")}
cls("t23_cls_call_inherited_other_module", """from pkg.base import Base


class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""")
cls("t24_cls_call_by_assignment", """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def _apply(self, v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


class Layer:
    __call__ = _apply


def apply(v):
    return Layer()(v)
""")
cls("t25_ok_cls_call_overridden", """from pkg.base import Base


class Layer(Base):
    def __call__(self, v):
        return v * 2.0


def apply(v):
    return Layer()(v)
""")
cls("t26_cls_call_assigned_from_base_module", """import pkg.base


class Layer:
    __call__ = pkg.base.Base.__call__


def apply(v):
    return Layer()(v)
""")
cls("t27_cls_init_then_call_other_module", """from pkg.base import Base


class Layer(Base):
    def __init__(self, scale=2.0):
        self.scale = scale


def apply(v):
    return Layer(2.0)(v)
""")
WCONF = "import jax\nfrom jax.sharding import AxisType\n\nAXIS = 'x'\nMESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n"
WMODEL = """import jax
from jax.sharding import PartitionSpec as P

from pkg import config


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=config.MESH, in_specs=P('y'), out_specs=P('y'))(v)


def accumulate(xs):
    return jax.vmap(block, spmd_axis_name=config.AXIS)(xs)
"""
def wr(name, train):
    P[name] = {"pkg/__init__.py": "", "pkg/config.py": WCONF, "pkg/model.py": WMODEL, "pkg/train.py": train,
               "main.py": MAIN.replace("MULT", "1.0")}
wr("t28_writes_sys_modules", """import sys

from pkg.model import accumulate


def step(xs):
    sys.modules['pkg.config'].AXIS = 'y'
    return accumulate(xs)
""")
wr("t29_writes_importlib", """import importlib

from pkg.model import accumulate


def step(xs):
    importlib.import_module('pkg.config').AXIS = 'y'
    return accumulate(xs)
""")
wr("t30_writes_dict_update", """from pkg import config
from pkg.model import accumulate


def step(xs):
    vars(config).update(AXIS='y')
    return accumulate(xs)
""")
wr("t31_writes_setattr_getattr_module", """import pkg
from pkg.model import accumulate


def step(xs):
    setattr(getattr(pkg, 'config'), 'AXIS', 'y')
    return accumulate(xs)
""")

cls("t32_control_cls_own_call", """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Layer:
    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def apply(v):
    return Layer()(v)
""")
cls("t33_cls_call_inherited_same_module", """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Base:
    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
""")

pkg("t34_pkg_caller_places_on_other_mesh", T + """OTHER = jax.make_mesh((4, 2), ('y', 'x'))


def step(xs):
    xs = jax.device_put(xs, NamedSharding(OTHER, P(None, 'x')))
    return accumulate(block, xs)
""")
P["t35_one_module_other_mesh"] = {"main.py": P["t01_one_module_base"]["main.py"].replace(
    "mesh = jax.make_mesh((2, 4), ('x', 'y'))", "mesh = jax.make_mesh((2, 4), ('x', 'y'))\nother = jax.make_mesh((4, 2), ('y', 'x'))").replace(
    "NamedSharding(mesh, P(None, 'x'))", "NamedSharding(other, P(None, 'x'))")}
ALIAS_MAIN = """import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P
from pkg.config import MESH
from pkg import model
from pkg.train import step


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    run = model.accumulate
    out2 = CALL
    ok = np.allclose(np.asarray(out), xs * 2.0) and np.allclose(np.asarray(out2), xs * 2.0)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
"""
pkg("t36_pkg_alias_call_in_main", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return accumulate(block, xs)
""", main=ALIAS_MAIN.replace("CALL", "run(jax.device_put(xs, NamedSharding(MESH, P('x', None))))"))
pkg("t37_pkg_map_call_in_main", T + """def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return accumulate(block, xs)
""", main=ALIAS_MAIN.replace("CALL", "list(map(model.accumulate, [jax.device_put(xs, NamedSharding(MESH, P('x', None)))]))[0]"))

G_MODEL = """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def block(x):
    def body(b):
        return b * 2.0 + 1.0
    return jax.shard_map(body, mesh=MESH, in_specs=P('y'), out_specs=P('y'), axis_names={'x', 'y'})(x)


def accumulate(fn, xs):
    return jax.vmap(fn, spmd_axis_name='x')(xs)
"""
G_MAIN = """import numpy as np
from pkg.train import step


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0 + 1.0) else "RESULT: mismatch")


main()
"""
G_T = """import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate, block


"""
def g(name, train):
    P[name] = {"pkg/__init__.py": "", "pkg/config.py": CONFIG, "pkg/model.py": G_MODEL, "pkg/train.py": G_T + train,
               "main.py": G_MAIN}
g("t38_spmd008_golden_control", """def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P('x', None))
        return accumulate(block, xs)
""")
g("t39_spmd008_reshard_in_false_if", """def step(xs, flip=False):
    with jax.set_mesh(MESH):
        if flip:
            xs = jax.sharding.reshard(xs, P('x', None))
        return accumulate(block, xs)
""")
g("t40_spmd008_nonlocal_replaces", """def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P('x', None))

        def replace():
            nonlocal xs
            xs = jax.sharding.reshard(xs, P())

        replace()
        return accumulate(block, xs)
""")
g("t41_spmd008_placed_none_at_batch", """def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P(None, 'x'))
        return accumulate(block, xs)
""")

g("t42_spmd008_reshard_in_true_if", """def step(xs, flip=True):
    with jax.set_mesh(MESH):
        if flip:
            xs = jax.sharding.reshard(xs, P('x', None))
        return accumulate(block, xs)
""")
g("t43_spmd008_nonlocal_replaces_y", """def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P('x', None))

        def replace():
            nonlocal xs
            xs = jax.sharding.reshard(xs, P(None, 'y'))

        replace()
        return accumulate(block, xs)
""")
g("t44_spmd008_ok_placed_none_y", """def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P(None, 'y'))
        return accumulate(block, xs)
""")
g("t45_spmd008_if_else_two_placements", """def step(xs, flip=False):
    with jax.set_mesh(MESH):
        if flip:
            xs = jax.sharding.reshard(xs, P('x', None))
        else:
            xs = jax.sharding.reshard(xs, P(None, 'y'))
        return accumulate(block, xs)
""")

P["t46_one_module_spmd008_reshard_in_true_if"] = {"main.py": """import jax
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         axis_names={'x', 'y'})(x)


def step(xs, flip=True):
    with jax.set_mesh(mesh):
        if flip:
            xs = jax.sharding.reshard(xs, P('x', None))
        return jax.vmap(block, spmd_axis_name='x')(xs)


def main():
    xs = np.arange(32, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0 + 1.0) else "RESULT: mismatch")


main()
"""}
for name, files in P.items():
    for rel, text in files.items():
        p = HERE / "progs" / name / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    (HERE / "progs" / name / "pyproject.toml").write_text('[project]\nname = "%s"\nversion = "0"\n' % name.replace("_", "-"))
