"""Writes progs/ (the breaker14 programs): python make_progs.py [--missing]. Each single-module program is main.py
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

# ---------------- a: batch sizes the rename reads ----------------
one("a01_array_ndmin_batch_one", "mesh = jax.make_mesh((1, 8), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n"
    + block("lambda b: b * 2.0") + call("np.array(np.arange(8, dtype=np.float32), ndmin=2)"))
one("a02_linspace_array_endpoints_axis1", AUTO + block("lambda b: b * 2.0")
    + call("np.linspace(np.zeros(6), np.ones(6), 8, axis=1).astype(np.float32)"))
one("a03_jnp_array_ndmin_keyword", "mesh = jax.make_mesh((1, 8), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n"
    + block("lambda b: b + 1.0") + call("jnp.array(np.ones(8, np.float32), ndmin=2)"))
one("a04_linspace_negative_axis", AUTO + block("lambda b: b * 2.0")
    + call("np.linspace(np.zeros(6, np.float32), np.ones(6, np.float32), num=8, axis=-1)"))
one("a05_vmap_axis_size_all_none", AUTO + """
def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda w, v: block(v) * w, in_axes=(0, None), spmd_axis_name='x')(jnp.arange(6.0), xs)
""")
one("a06_in_axes_list_display_batch_second", AUTO + """
def block(w, v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v) + w


def compute():
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8) / 10.0
    w = np.ones((8, 8), np.float32)
    return jax.vmap(block, in_axes=[None, 0], spmd_axis_name='x')(w, xs)
""")

# ---------------- m: meshes ----------------
one("m01_class_attr_mesh_rebound_before_call", """
class Cfg:
    mesh = jax.make_mesh((4, 2), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=Cfg.mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    Cfg.mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("m02_module_mesh_rebound_in_setup_call", """
mesh = jax.make_mesh((4, 2), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    globals()['mesh'] = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("m03_same_axis_constant_two_meshes", """
DATA = 'x'
mesh_a = jax.make_mesh((2, 4), (DATA, 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
mesh_b = jax.make_mesh((2, 2, 2), (DATA, 'z', 'w'), axis_types=(AxisType.Auto,) * 3)


def block(v):
    a = jax.shard_map(lambda b: b * 2.0, mesh=mesh_a, in_specs=P(DATA), out_specs=P(DATA))(v)
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh_b, in_specs=P(DATA), out_specs=P(DATA))(a)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name=DATA)(xs)
""")
one("m04_mixed_axis_types_rename_to_explicit", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Explicit))\n"
    + block("lambda b: b * 2.0") + CALL8, ref="np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0 * 2.0")
one("m05_mixed_axis_types_explicit_spmd_axis", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Auto))\n"
    + block("lambda b: b * 2.0") + CALL8, ref="np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0 * 2.0")
one("m06_globals_read_of_mesh_devices_shape", AUTO + block("lambda b: b * 2.0") + """

def replicas():
    return globals()['mesh'].devices.shape[0]


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
one("m07_mesh_default_param_reader", AUTO + block("lambda b: b * 2.0") + """

def replicas(m=mesh):
    return m.devices.shape[0]


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
one("m08_match_class_pattern_mesh", AUTO + block("lambda b: b * 2.0") + """

def replicas():
    match mesh:
        case Mesh(devices=d):
            return d.shape[0]
    return 0


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
one("m09_mesh_in_tuple_unpacked", AUTO + "LAYOUT = (mesh, P('x'))\n" + block("lambda b: b * 2.0") + """

def replicas():
    m, _ = LAYOUT
    return m.devices.shape[0]


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
one("m10_mesh_walrus_alias", AUTO + block("lambda b: b * 2.0") + """

def replicas():
    if (m := mesh) is not None:
        return m.devices.shape[0]
    return 0


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
one("m11_mesh_for_loop_target", AUTO + block("lambda b: b * 2.0") + """

def replicas():
    for m in (mesh,):
        return m.devices.shape[0]


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
one("m12_mesh_with_as_target", AUTO + block("lambda b: b * 2.0") + """

def replicas():
    with mesh as m:
        return m.devices.shape[0]


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
one("m13_set_mesh_as_target", AUTO + block("lambda b: b * 2.0") + """

def replicas():
    with jax.set_mesh(mesh) as m:
        return len(jax.sharding.get_abstract_mesh().axis_names) + (0 if m is None else 0)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
one("m14_mesh_in_lambda_default", AUTO + block("lambda b: b * 2.0") + """
REPLICAS = lambda m=mesh: m.devices.shape[0]


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * REPLICAS()
""")
one("m15_mesh_comprehension_reader", AUTO + block("lambda b: b * 2.0") + """

def replicas():
    return [m.devices.shape[0] for m in [mesh]][0]


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
one("m16_mesh_dict_value_reader", AUTO + "MESHES = {'train': mesh}\n" + block("lambda b: b * 2.0") + """

def replicas():
    return MESHES['train'].devices.shape[0]


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
one("m17_mesh_device_ids", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * mesh.device_ids.shape[0]
""")
one("m18_named_sharding_memory_kind", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    xs = jax.device_put(xs, NamedSharding(mesh, P('y'), memory_kind='device'))
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("m19_spec_star_axes_list_comp", AUTO + "AXES = [a for a in mesh.axis_names if a != 'y']\n"
    + block("lambda b: b * 2.0", specs="in_specs=P(*AXES), out_specs=P(*AXES)") + CALL8)
one("m20_tree_map_specs_dict", AUTO + """
SPECS = jax.tree.map(lambda a: P(a), {'v': 'x'})


def block(v):
    return jax.shard_map(lambda d: {'v': d['v'] * 2.0}, mesh=mesh, in_specs=(SPECS,), out_specs=SPECS)({'v': v})['v']

""" + CALL8)
one("m21_experimental_shard_map_check_rep", AUTO.replace("mesh =", "from jax.experimental.shard_map import shard_map\nmesh =") + """
def block(v):
    return shard_map(lambda b: b + lax.psum(b, 'y'), mesh, in_specs=P('x'), out_specs=P('x'), check_rep=False)(v)

""" + CALL8)
one("m22_psum_scatter_tuple_axis", AUTO + block("lambda b: lax.psum_scatter(b, ('y',), tiled=True)",
    specs="in_specs=P('x'), out_specs=P(('x', 'y'))", extra=", check_vma=False") + CALL8)
one("m23_all_to_all_tuple_axis", AUTO + block("lambda b: lax.all_to_all(b.reshape(4, 1), ('y',), 0, 0, tiled=True).reshape(4)",
    extra=", check_vma=False") + CALL8)
one("m24_axis_index_tuple_axis", AUTO + block("lambda b: b * (lax.axis_index(('y',)) + 1)", extra=", check_vma=False") + CALL8)
one("m25_nested_vmap_two_spmd_axes", "mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)\n"
    + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) / 10.0
    return jax.vmap(jax.vmap(block, spmd_axis_name='y'), spmd_axis_name='x')(xs)
""")
one("m26_jit_in_shardings_between", AUTO + """
def block(v):
    inner = jax.jit(lambda t: jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(t),
                    in_shardings=NamedSharding(mesh, P('y')))
    return inner(v)

""" + CALL8)


# ---------------- batch 2 ----------------
one("s01_strip_rank1_block_broadcast_rank2", AUTO + """
def block(a, b):
    return jax.shard_map(lambda u, w: u + w, mesh=mesh, in_specs=(P('x'), P('x', None)), out_specs=P('x', None))(a, b)


def compute():
    xa = np.arange(8 * 2, dtype=np.float32).reshape(8, 2) / 10.0
    xb = np.arange(8 * 4 * 2, dtype=np.float32).reshape(8, 4, 2)
    return jax.vmap(block, spmd_axis_name='x')(xa, xb)
""")
one("s02_strip_scalar_block_times_matrix_block", AUTO + """
def block(a, b):
    return jax.shard_map(lambda u, w: w * u, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P('x'))(a, b)


def compute():
    xa = np.arange(8 * 2, dtype=np.float32).reshape(8, 2) / 10.0
    xb = np.arange(8 * 2 * 2, dtype=np.float32).reshape(8, 2, 2)
    return jax.vmap(block, spmd_axis_name='x')(xa, xb)
""")
one("r01_device_put_y_inside_vmapped_fn", AUTO + """
def block(v):
    v = jax.device_put(v, NamedSharding(mesh, P('y')))
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

""" + CALL8)
one("r02_pjit_in_shardings_y_inside", AUTO.replace("mesh =", "from jax.experimental.pjit import pjit\nmesh =") + """
def block(v):
    inner = pjit(lambda t: jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(t),
                 in_shardings=NamedSharding(mesh, P('y')))
    return inner(v)

""" + CALL8)
one("r03_wsc_dict_of_shardings_y", AUTO + """
def block(v):
    v = jax.lax.with_sharding_constraint({'v': v}, {'v': NamedSharding(mesh, P('y'))})['v']
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

""" + CALL8)
one("r04_wsc_in_tree_map_lambda_y", AUTO + """
def block(v):
    v = jax.tree.map(lambda t: jax.lax.with_sharding_constraint(t, NamedSharding(mesh, P('y'))), v)
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

""" + CALL8)
one("r05_wsc_partial_shardings_keyword_y", AUTO + """
CONSTRAIN = functools.partial(jax.lax.with_sharding_constraint, shardings=NamedSharding(mesh, P('y')))


def block(v):
    v = CONSTRAIN(v)
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

""" + CALL8)
one("r06_wsc_sharding_from_list_index", AUTO + """
SHARDINGS = [NamedSharding(mesh, P('x')), NamedSharding(mesh, P('y'))]


def block(v):
    v = jax.lax.with_sharding_constraint(v, SHARDINGS[1])
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

""" + CALL8)
one("r07_device_put_spec_under_set_mesh_y", AUTO + """
def block(v):
    v = jax.device_put(v, P('y'))
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    with jax.set_mesh(mesh):
        return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("r08_wsc_sharding_method_with_spec", AUTO + """
ROWS = NamedSharding(mesh, P('x'))


def block(v):
    v = jax.lax.with_sharding_constraint(v, ROWS.update(spec=P('y')))
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

""" + CALL8)
one("r09_jit_out_shardings_via_kwargs_dict", AUTO + """
OPTS = dict(out_shardings=NamedSharding(mesh, P('y')))


def block(v):
    inner = jax.jit(lambda t: jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(t), **OPTS)
    return inner(v)

""" + CALL8)
one("r10_wsc_method_on_partial_of_jit", AUTO + """
def block(v):
    f = jax.jit(lambda t: t * 1.0, out_shardings=NamedSharding(mesh, P('y')))
    v = f(v)
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

""" + CALL8)
one("m27_mesh_with_as_in_helper_two_names", AUTO + block("lambda b: b * 2.0") + """

def replicas():
    with mesh as m, open(__file__) as _f:
        return m.devices.shape[0]


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * replicas()
""")
pkg("k01_with_model_mesh_as_in_eval_module", {
    "pkg/__init__.py": "",
    "pkg/model.py": "import jax\nfrom jax.sharding import AxisType, PartitionSpec as P\n\n"
                    "MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def block(v):\n    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)\n",
    "pkg/evaluate.py": "from pkg import model\n\n\ndef replicas():\n    with model.MESH as m:\n        return m.devices.shape[0]\n",
    "pkg/train.py": "import jax\nimport numpy as np\nfrom pkg import model, evaluate\n\n\ndef compute():\n"
                    "    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0\n"
                    "    return jax.vmap(model.block, spmd_axis_name='x')(xs) * evaluate.replicas()\n",
    }, "XS * 2.0 * 2")
pkg("k02_config_linspace_grid_batch", {
    "pkg/__init__.py": "",
    "pkg/config.py": "import numpy as np\n\nLO = np.zeros(6, np.float32)\nHI = np.ones(6, np.float32)\nSTEPS = 8\n",
    "pkg/model.py": "import jax\nfrom jax.sharding import AxisType, PartitionSpec as P\n\n"
                    "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def block(v):\n    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n",
    "pkg/train.py": "import jax\nimport numpy as np\nfrom pkg import config, model\n\n\ndef compute():\n"
                    "    grid = np.linspace(config.LO, config.HI, config.STEPS, axis=1)\n"
                    "    return jax.vmap(model.block, spmd_axis_name='x')(grid)\n",
    }, "np.linspace(np.zeros(6, np.float32), np.ones(6, np.float32), 8, axis=1) * 2.0")

# ---------------- batch 3: a strip's spec value stored elsewhere ----------------
one("s03_spec_stored_as_class_attribute", AUTO + """
ROWS = P('x')
class Specs:
    pass


Specs.rows = ROWS


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=ROWS, out_specs=ROWS)(v)


def centred(v):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=Specs.rows, out_specs=Specs.rows)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + centred(xs)
""")
one("s04_spec_stored_in_dict_item", AUTO + """
ROWS = P('x')
REGISTRY = {}
REGISTRY['rows'] = ROWS


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=ROWS, out_specs=ROWS)(v)


def centred(v):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=REGISTRY['rows'], out_specs=REGISTRY['rows'])(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + centred(xs)
""")
one("s05_spec_tuple_unpacked", AUTO + """
ROWS = P('x')
IN, OUT = ROWS, ROWS


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=ROWS, out_specs=ROWS)(v)


def centred(v):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=IN, out_specs=IN)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + centred(xs)
""")
one("s06_spec_walrus_alias", AUTO + """
ROWS = P('x')
ALIAS = (R2 := ROWS)


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=ROWS, out_specs=ROWS)(v)


def centred(v):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=R2, out_specs=R2)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + centred(xs)
""")
one("s07_spec_list_appended", AUTO + """
ROWS = P('x')
SPECS = []
SPECS.append(ROWS)


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=ROWS, out_specs=ROWS)(v)


def centred(v):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=SPECS[0], out_specs=SPECS[0])(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + centred(xs)
""")
one("s08_spec_setattr_namespace", AUTO + """
ROWS = P('x')
import types
NS = types.SimpleNamespace()
setattr(NS, 'rows', ROWS)


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=ROWS, out_specs=ROWS)(v)


def centred(v):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=NS.rows, out_specs=NS.rows)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + centred(xs)
""")
one("s09_spec_annotated_assign", AUTO + """
ROWS = P('x')
OTHER: P = ROWS


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=ROWS, out_specs=ROWS)(v)


def centred(v):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=OTHER, out_specs=OTHER)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + centred(xs)
""")
one("s10_spec_in_set_literal_frozen", AUTO + """
ROWS = P('x')
ALL = frozenset({ROWS})


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=ROWS, out_specs=ROWS)(v)


def centred(v):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=next(iter(ALL)), out_specs=next(iter(ALL)))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + centred(xs)
""")
one("s11_spec_dict_update_kw", AUTO + """
ROWS = P('x')
REG = dict(rows=ROWS)


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=ROWS, out_specs=ROWS)(v)


def centred(v):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=REG['rows'], out_specs=REG['rows'])(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + centred(xs)
""")
one("s12_spec_chained_assign", AUTO + """
ROWS = P('x')
A = B = ROWS


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=ROWS, out_specs=ROWS)(v)


def centred(v):
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=B, out_specs=B)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + centred(xs)
""")

# ---------------- batch 4: wrappers between the spmd vmap and the shard_map (silences) ----------------
one("w01_jvp_wrapper", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: jax.jvp(block, (v,), (jnp.ones_like(v),))[0], spmd_axis_name='x')(xs)
""")
one("w02_linearize_wrapper", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: jax.linearize(block, v)[0], spmd_axis_name='x')(xs)
""")
one("w03_vjp_wrapper", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: jax.vjp(block, v)[0], spmd_axis_name='x')(xs)
""")
one("w04_eval_shape_then_block", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: block(v) + jnp.zeros(jax.eval_shape(block, v).shape), spmd_axis_name='x')(xs)
""")
one("w05_tree_util_partial", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: jax.tree_util.Partial(block)(v), spmd_axis_name='x')(xs)
""")
one("w06_builtin_map_list", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: list(map(block, [v]))[0], spmd_axis_name='x')(xs)
""")
one("w07_comprehension_rows", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: jnp.stack([block(r) for r in v.reshape(2, 4)]).reshape(8), spmd_axis_name='x')(xs)
""")
one("w08_lax_switch_index", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: lax.switch(0, [block, block], v), spmd_axis_name='x')(xs)
""")
one("w09_custom_jvp_wrapper", AUTO + block("lambda b: b * 2.0") + """

@jax.custom_jvp
def blk(v):
    return block(v)


@blk.defjvp
def _blk_jvp(p, t):
    return blk(p[0]), t[0] * 2.0


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: blk(v), spmd_axis_name='x')(xs)
""")
one("w10_lru_cache_factory", AUTO + block("lambda b: b * 2.0") + """

@functools.lru_cache
def get_block():
    return block


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: get_block()(v), spmd_axis_name='x')(xs)
""")
one("w11_named_scope_context", AUTO + block("lambda b: b * 2.0") + """

def scoped(v):
    with jax.named_scope('blk'):
        return block(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: scoped(v), spmd_axis_name='x')(xs)
""")
one("w12_closure_convert", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: jax.closure_convert(block, v)[0](v), spmd_axis_name='x')(xs)
""")
one("w13_operator_call", AUTO + block("lambda b: b * 2.0") + """import operator


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: operator.call(block, v), spmd_axis_name='x')(xs)
""")
one("w14_getattr_module_function", AUTO + block("lambda b: b * 2.0") + """import sys


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: getattr(sys.modules[__name__], 'block')(v), spmd_axis_name='x')(xs)
""")
one("w15_dict_dispatch", AUTO + block("lambda b: b * 2.0") + """
OPS = {'blk': block}


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: OPS['blk'](v), spmd_axis_name='x')(xs)
""")
one("w16_default_arg_function", AUTO + block("lambda b: b * 2.0") + """

def run(v, f=block):
    return f(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: run(v), spmd_axis_name='x')(xs)
""")
one("w17_staticmethod_class", AUTO + block("lambda b: b * 2.0") + """

class Ops:
    blk = staticmethod(block)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: Ops.blk(v), spmd_axis_name='x')(xs)
""")
one("w18_lambda_returned_by_factory", AUTO + block("lambda b: b * 2.0") + """

def make(scale):
    return lambda v: block(v) * scale


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: make(1.0)(v), spmd_axis_name='x')(xs)
""")
one("w19_checkpoint_policy_named", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: jax.checkpoint(block, policy=jax.checkpoint_policies.nothing_saveable)(v), spmd_axis_name='x')(xs)
""")
one("w20_custom_vmap_rule_plain", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: jax.custom_batching.sequential_vmap(block)(v), spmd_axis_name='x')(xs)
""")


# ---------------- batch 5: body collectives reached through builtins ----------------
one("r11_body_helper_psum_y_via_builtin_map", AUTO + """
def red(t):
    return t + lax.psum(t, 'y')

""" + block("lambda b: list(map(red, [b]))[0]", extra=", check_vma=False") + CALL8)
one("r12_body_helper_psum_y_via_reduce", AUTO + """
def add_sum(acc, t):
    return acc + t + lax.psum(t, 'y')

""" + block("lambda b: functools.reduce(add_sum, [b], 0.0)", extra=", check_vma=False") + CALL8)
one("r13_body_helper_psum_y_via_tree_util_partial", AUTO + """
def red(t, axis):
    return t + lax.psum(t, axis)


RED = jax.tree_util.Partial(red, axis='y')
""" + block("lambda b: RED(b)", extra=", check_vma=False") + CALL8)
one("r14_body_psum_partial_tree_util", AUTO + "RED = jax.tree_util.Partial(lax.psum, axis_name='y')\n"
    + block("lambda b: b + RED(b)", extra=", check_vma=False") + CALL8)


# ---------------- batch 6: partials of jit / shard_map / vmap ----------------
one("r15_jit_out_shardings_y_partial_name", AUTO + """
JIT_Y = functools.partial(jax.jit, out_shardings=NamedSharding(mesh, P('y')))


def block(v):
    v = JIT_Y(lambda t: t * 1.0)(v)
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

""" + CALL8)
one("r16_jit_out_shardings_y_partial_decorator", AUTO + """
JIT_Y = functools.partial(jax.jit, out_shardings=NamedSharding(mesh, P('y')))


@JIT_Y
def prep(t):
    return t * 1.0


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(prep(v))

""" + CALL8)
one("w21_tree_util_partial_shard_map_factory", AUTO + """
SM = jax.tree_util.Partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))


def block(v):
    return SM(lambda b: b * 2.0)(v)

""" + CALL8)
one("w22_tree_util_partial_vmap_factory", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.tree_util.Partial(jax.vmap, spmd_axis_name='x')(block)(xs)
""")
one("w23_sorted_key_calls_block", AUTO + block("lambda b: b * 2.0") + """

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(lambda v: max([v], key=lambda r: block(r).sum()) * 2.0, spmd_axis_name='x')(xs)
""")


# ---------------- batch 7: a partial-bound constraint of another module ----------------
pkg("k03_constraint_partial_in_config_module", {
    "pkg/__init__.py": "",
    "pkg/config.py": "import functools\n\nimport jax\nfrom jax.sharding import AxisType, NamedSharding, PartitionSpec as P\n\n"
                     "MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n"
                     "CONSTRAIN = functools.partial(jax.lax.with_sharding_constraint, shardings=NamedSharding(MESH, P('y')))\n",
    "pkg/model.py": "import jax\nfrom jax.sharding import PartitionSpec as P\nfrom pkg.config import CONSTRAIN, MESH\n\n\n"
                    "def block(v):\n    v = CONSTRAIN(v)\n    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)\n",
    "pkg/train.py": "import jax\nimport numpy as np\nfrom pkg import model\n\n\ndef compute():\n"
                    "    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0\n"
                    "    return jax.vmap(model.block, spmd_axis_name='x')(xs)\n",
    }, "XS * 2.0")


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
