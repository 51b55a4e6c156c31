"""Writes progs/ (the breaker13 programs): python make_progs.py. Each single-module program is main.py defining
`compute()`; its reference is ref_impl.py, the same source with `spmd_axis_name=...` removed (a plain vmap keeps
the values on an Auto mesh, measured: docs/safety.md row 27), or a numpy expression (REF) where a plain vmap
fails too (Explicit meshes). Groups: r rename hazards (collective axes spelled indirectly, batch sizes changed in
place, meshes rebound), e Explicit/abstract/context meshes and add-axis on mesh spellings, s strip on bodies that
look elementwise, k packages (config/model/train)."""
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


def one(name, body, ref=None, head=HEAD):
    """A single-module program: main.py (compute() + check) and, without `ref`, ref_impl.py (plain vmap)."""
    refline = f"ref = {ref}" if ref else "import ref_impl; ref = ref_impl.compute()"
    files = {"main.py": head + body + TAIL.format(refline=refline)}
    if not ref:
        src = SPMD.sub("", head + body)
        assert src != head + body, name
        files["ref_impl.py"] = src
    P[name] = files


def block(body, specs="in_specs=P('x'), out_specs=P('x')", extra=""):
    return f"""

def block(v):
    return jax.shard_map({body}, mesh=mesh, {specs}{extra})(v)

"""


CALL8 = """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs)
"""

# ---------------- r: rename hazards (the new axis used indirectly by the body) ----------------
one("r01_psum_partial_axis_name_module_level", AUTO + "RED = functools.partial(jax.lax.psum, axis_name='y')\n"
    + block("lambda b: b + RED(b)", extra=", check_vma=False") + CALL8)
one("r02_psum_axis_tuple_constant", AUTO + "AX = ('y',)\n" + block("lambda b: b + lax.psum(b, AX)", extra=", check_vma=False") + CALL8)
one("r03_psum_axis_param_default", AUTO + """
def body(b, axis='y'):
    return b + lax.psum(b, axis)
""" + block("body", extra=", check_vma=False") + CALL8)
one("r04_psum_in_tree_map_lambda", AUTO + block("lambda b: jax.tree.map(lambda t: t + lax.psum(t, 'y'), b)", extra=", check_vma=False") + CALL8)
one("r05_ppermute_over_y", AUTO + "PERM = [(i, (i + 1) % 4) for i in range(4)]\n"
    + block("lambda b: b + lax.ppermute(b, 'y', perm=PERM)", extra=", check_vma=False") + CALL8)
one("r06_all_gather_tiled_keyword", AUTO + block("lambda b: lax.all_gather(b, axis_name='y', tiled=True)[:4] * 2.0", extra=", check_vma=False") + CALL8)
one("r07_axis_index_y_scales", AUTO + block("lambda b: b * (lax.axis_index('y') + 1)", extra=", check_vma=False") + CALL8)
one("r08_axis_size_y_ok", AUTO + block("lambda b: b / lax.axis_size('y')") + CALL8)
one("r09_method_reads_axis_attr", AUTO + """
class Ops:
    axis = 'y'

    def red(self, b):
        return lax.psum(b, self.axis)


OPS = Ops()
""" + block("lambda b: b + OPS.red(b)", extra=", check_vma=False") + CALL8)
one("r10_psum_axis_from_mesh_axis_names", AUTO + block("lambda b: b + lax.psum(b, mesh.axis_names[1])", extra=", check_vma=False") + CALL8)
one("r11_pmean_other_axes_comprehension", AUTO + block("lambda b: b + lax.pmean(b, tuple(a for a in mesh.axis_names if a != 'x'))", extra=", check_vma=False") + CALL8)
one("r12_psum_scatter_y", AUTO + block("lambda b: jnp.tile(lax.psum_scatter(b, 'y', tiled=True), 4)", extra=", check_vma=False") + CALL8)
one("r13_psum_via_getattr_lax", AUTO + block("lambda b: b + getattr(lax, 'psum')(b, 'y')", extra=", check_vma=False") + CALL8)
one("r14_psum_alias_import", "from jax.lax import psum as reduce_all\n" + AUTO + block("lambda b: b + reduce_all(b, 'y')", extra=", check_vma=False") + CALL8)
one("r15_psum_check_vma_true_partial", AUTO + "RED = functools.partial(jax.lax.psum, axis_name='y')\n"
    + block("lambda b: b + RED(b)") + CALL8)
one("r16_batch_resized_in_place", AUTO + block("lambda b: b * 2.0") + """
def compute():
    xs = np.zeros((8, 8), dtype=np.float32)
    xs.resize((6, 8), refcheck=False)
    xs += np.arange(48, dtype=np.float32).reshape(6, 8)
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("r17_batch_shape_assigned", AUTO + block("lambda b: b * 2.0") + """
def compute():
    xs = np.arange(48, dtype=np.float32)
    xs.shape = (6, 8)
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("r18_batch_np_delete", AUTO + block("lambda b: b * 2.0") + """
def compute():
    xs = np.delete(np.arange(64, dtype=np.float32).reshape(8, 8), [0, 1], axis=0)
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("r19_mesh_rebound_by_setup_global", "mesh = jax.make_mesh((4, 2), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n" + """

def setup():
    global mesh
    mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
""" + block("lambda b: b * 2.0") + """
def compute():
    setup()
    xs = np.arange(2 * 8, dtype=np.float32).reshape(2, 8)
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("r20_context_mesh_inner_set_mesh", "mesh0 = jax.make_mesh((4, 2), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n" + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(2 * 8, dtype=np.float32).reshape(2, 8)
    with jax.set_mesh(jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))):
        return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("r21_batch_via_star_args", AUTO + block("lambda b: b * 2.0") + """
def compute():
    args = (np.arange(6 * 8, dtype=np.float32).reshape(6, 8),)
    return jax.vmap(block, spmd_axis_name='x')(*args)
""")
one("r22_batch_np_repeat", AUTO + block("lambda b: b * 2.0") + """
def compute():
    xs = np.repeat(np.arange(16, dtype=np.float32).reshape(2, 8), 3, axis=0)
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("r23_batch_tile", AUTO + block("lambda b: b * 2.0") + """
def compute():
    xs = np.tile(np.arange(16, dtype=np.float32).reshape(2, 8), (3, 1))
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("r24_batch_random_shape_from_list", AUTO + block("lambda b: b * 2.0") + """
def compute():
    shape = [8, 8]
    shape[0] = 6
    xs = jax.random.normal(jax.random.key(0), shape)
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("r25_psum_axis_from_dict", AUTO + "AXES = {'model': 'y'}\n" + block("lambda b: b + lax.psum(b, AXES['model'])", extra=", check_vma=False") + CALL8)
one("r26_custom_vjp_psum_in_bwd", AUTO + """
@jax.custom_vjp
def f(b):
    return b * 2.0


def f_fwd(b):
    return f(b), None


def f_bwd(_, g):
    return (lax.psum(g, 'y'),)


f.defvjp(f_fwd, f_bwd)
""" + block("lambda b: jax.grad(lambda t: f(t).sum())(b)", extra=", check_vma=False") + CALL8)
one("r27_while_loop_psum_y", AUTO + block("lambda b: lax.while_loop(lambda c: c[0] < 1, lambda c: (c[0] + 1, c[1] + lax.psum(c[1], 'y')), (0, b))[1]", extra=", check_vma=False") + CALL8)
one("r28_cond_branch_pmax_y", AUTO + block("lambda b: lax.cond(True, lambda t: lax.pmax(t * (lax.axis_index('y') + 1), 'y'), lambda t: t, b)", extra=", check_vma=False") + CALL8)

# ---------------- e: explicit / abstract / context meshes; add-axis on mesh spellings ----------------
one("e01_axis_types_tuple_times_two", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)\n"
    + block("lambda b: b * 2.0") + CALL8)
one("e02_axis_types_single_value", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=AxisType.Auto)\n"
    + block("lambda b: b * 2.0") + CALL8)
one("e03_shape_names_constants_reused", "SHAPE = (2, 4)\nNAMES = ('x', 'y')\nmesh = jax.make_mesh(SHAPE, NAMES, axis_types=(AxisType.Auto, AxisType.Auto))\n"
    + block("lambda b: b * 2.0") + """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + np.zeros(SHAPE).sum() + len(NAMES)
""")
one("e04_axis_types_generator", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=tuple(AxisType.Auto for _ in range(2)))\n"
    + block("lambda b: b * 2.0") + CALL8)
one("e05_abstract_mesh_under_set_mesh", AUTO + "AMESH = jax.sharding.AbstractMesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n" + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=AMESH, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    with jax.set_mesh(mesh):
        return jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
""")
one("e06_mesh_abstract_mesh_attr", AUTO + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh.abstract_mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    with jax.set_mesh(mesh):
        return jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
""")
one("e07_get_abstract_mesh_in_block", AUTO + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=jax.sharding.get_abstract_mesh(), in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    with jax.set_mesh(mesh):
        return jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
""")
one("e08_explicit_jit_set_mesh_unplaced", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit,) * 2)\n" + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    with jax.set_mesh(mesh):
        xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8) / 10.0
        return jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
""", ref="np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0 * 2.0")
one("e09_explicit_jit_in_shardings_batch_y", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))\n" + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    f = jax.jit(jax.vmap(block, spmd_axis_name='x'), in_shardings=NamedSharding(mesh, P('y', None)))
    return f(xs)
""", ref="np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0 * 2.0")
one("e10_explicit_auto_axes_wrapper", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))\n" + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    with jax.set_mesh(mesh):
        f = jax.sharding.auto_axes(jax.vmap(block, spmd_axis_name='x'), out_sharding=P())
        return jax.jit(f)(xs)
""", ref="np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0 * 2.0")
one("e11_explicit_reshard_batch_y_then_jit", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))\n" + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    with jax.set_mesh(mesh):
        xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8) / 10.0
        xs = jax.sharding.reshard(xs, P('y', None))
        return jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
""", ref="np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0 * 2.0")
one("e12_spmd006_plain_vmap_placed_then_transposed", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Explicit, AxisType.Explicit))\n" + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(v)


def compute():
    xs = np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) / 10.0
    xs = jax.device_put(xs, NamedSharding(mesh, P(None, 'x', 'y')))
    xs = jnp.swapaxes(xs, 0, 1)
    return jax.jit(jax.vmap(block))(xs)
""", ref="np.swapaxes(np.arange(128, dtype=np.float32).reshape(4, 4, 8) / 10.0, 0, 1) * 2.0")
one("e13_two_meshes_same_names_block_uses_second", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n"
    "mesh2 = jax.make_mesh((4, 2), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n" + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh2, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    return jax.vmap(block, spmd_axis_name='x')(xs) + mesh.shape['y']
""")
one("e14_partial_manual_axis_names_3d_mesh", "mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)\n" + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0 + lax.psum(b, 'z'), mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x', 'z'}, check_vma=False)(v)
""" + CALL8.replace("return jax.vmap(block, spmd_axis_name='x')(xs)", "return jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)"))
one("e15_partial_manual_body_einsum_out_sharding", AUTO + """

def block(v):
    return jax.shard_map(lambda b: jnp.outer(b, b).sum(1), mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(v)
""" + CALL8)
one("e16_mesh_size_in_body", AUTO + block("lambda b: b * mesh.size") + CALL8)
one("e17_mesh_shape_y_in_body_psum", AUTO + block("lambda b: b + lax.psum(b, 'y') / mesh.shape['y']", extra=", check_vma=False") + CALL8)
one("e18_len_mesh_shape_addaxis", AUTO + block("lambda b: b * 2.0") + """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) * len(mesh.shape)
""")
one("e19_mesh_devices_flat_index", AUTO + block("lambda b: b * 2.0") + """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    d = mesh.devices[1][0]
    return jax.vmap(block, spmd_axis_name='x')(xs) + d.id
""")
one("e20_np_prod_mesh_devices_shape_slice", AUTO + block("lambda b: b * 2.0") + """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs) + mesh.devices.shape[-2]
""")

# ---------------- s: strip on bodies that look elementwise ----------------
def strip_prog(name, body, extra=""):
    one(name, AUTO + block(body, extra=extra) + CALL8)


strip_prog("s01_at_index_set", "lambda b: b.at[0].set(0.0)")
strip_prog("s02_reverse_slice", "lambda b: b[::-1] + b")
strip_prog("s03_softmax", "jax.nn.softmax")
strip_prog("s04_norm_divide", "lambda b: b / jnp.linalg.norm(b)")
strip_prog("s05_maximum_first", "lambda b: jnp.maximum(b, b[0])")
strip_prog("s06_len_block", "lambda b: b * len(b)")
strip_prog("s07_jnp_size_block", "lambda b: b * jnp.size(b)")
strip_prog("s08_jnp_shape_block", "lambda b: b * jnp.shape(b)[0]")
strip_prog("s09_vectorize", "jnp.vectorize(lambda t: t * 2.0)")
strip_prog("s10_tree_map_minus_mean", "lambda b: jax.tree.map(lambda t: t - t.mean(), b)")
strip_prog("s11_einsum_reduce", "lambda b: jnp.einsum('i,i->', b, b) + b")
strip_prog("s12_sort", "jnp.sort")
strip_prog("s13_stop_gradient_max", "lambda b: b - lax.stop_gradient(b).max()")
strip_prog("s14_cumsum_method", "lambda b: b.cumsum()")
strip_prog("s15_ones_like_cumsum", "lambda b: b * jnp.ones_like(b).cumsum()")
strip_prog("s16_astype_mean", "lambda b: b - b.astype(jnp.float32).mean()")
strip_prog("s17_dynamic_update_slice", "lambda b: lax.dynamic_update_slice(b, jnp.zeros(1), (0,))")
strip_prog("s18_where_nonzero_first", "lambda b: jnp.where(jnp.arange(b.size) == 0, 0.0, b)")
strip_prog("s19_b_nbytes", "lambda b: b * (b.nbytes // 4)")
strip_prog("s20_roll", "lambda b: jnp.roll(b, 1)")
strip_prog("s21_diff_append", "lambda b: jnp.diff(b, append=0.0)")
strip_prog("s22_iota_lax", "lambda b: b + lax.iota(jnp.float32, 4)")
strip_prog("s23_module_helper_decorated_jit", "scale_norm")
P["s23_module_helper_decorated_jit"]["main.py"] = P["s23_module_helper_decorated_jit"]["main.py"].replace(
    "mesh = jax.make", "@jax.jit\ndef scale_norm(b):\n    return b / b.sum()\n\n\nmesh = jax.make")
P["s23_module_helper_decorated_jit"]["ref_impl.py"] = P["s23_module_helper_decorated_jit"]["ref_impl.py"].replace(
    "mesh = jax.make", "@jax.jit\ndef scale_norm(b):\n    return b / b.sum()\n\n\nmesh = jax.make")
strip_prog("s24_partial_jnp_mean_keepdims", "lambda b: b - functools.partial(jnp.mean, keepdims=True)(b)")
strip_prog("s25_reshape_transpose", "lambda b: b.reshape(2, 2).T.reshape(-1)")
strip_prog("s26_pad_slice", "lambda b: jnp.pad(b, (1, 0))[:-1]")

# ---------------- k: packages ----------------
def pkg(name, files, ref):
    """A package program: pkg/{config,model,train}.py, main.py comparing train.compute() with numpy `ref`."""
    files = dict(files)
    files["main.py"] = MAIN.format(ref=ref)
    P[name] = files


MAIN = """import numpy as np
from pkg import train

XS = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0
out = train.compute()
ref = {ref}
print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(ref), atol=1e-5) else "RESULT: mismatch")
"""
pkg("k01_config_partial_psum_y", {
    "pkg/__init__.py": "",
    "pkg/config.py": "import functools\nimport jax\n\nMODEL_AXIS = 'y'\nreduce_model = functools.partial(jax.lax.psum, axis_name=MODEL_AXIS)\n",
    "pkg/model.py": "import jax\nfrom jax.sharding import AxisType, PartitionSpec as P\nfrom pkg import config\n\n"
                    "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def block(v):\n    return jax.shard_map(lambda b: b + config.reduce_model(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)\n",
    "pkg/train.py": "import jax\nimport numpy as np\nfrom pkg import model\n\n\ndef compute():\n    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0\n    return jax.vmap(model.block, spmd_axis_name='x')(xs)\n",
    }, "XS * 5.0")
pkg("k02_config_shape_reused_by_train", {
    "pkg/__init__.py": "",
    "pkg/config.py": "MESH_SHAPE = (2, 4)\nMESH_AXES = ('x', 'y')\n",
    "pkg/model.py": "import jax\nfrom jax.sharding import AxisType, PartitionSpec as P\nfrom pkg import config\n\n"
                    "mesh = jax.make_mesh(config.MESH_SHAPE, config.MESH_AXES, axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def block(v):\n    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n",
    "pkg/train.py": "import jax\nimport numpy as np\nfrom pkg import config, model\n\n\ndef compute():\n    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0\n"
                    "    rows, cols = config.MESH_SHAPE\n    return jax.vmap(model.block, spmd_axis_name='x')(xs) + rows * 10 + cols\n",
    }, "XS * 2.0 + 24.0")
pkg("k03_train_rebinds_model_mesh", {
    "pkg/__init__.py": "",
    "pkg/model.py": "import jax\nfrom jax.sharding import AxisType, PartitionSpec as P\n\n"
                    "mesh = jax.make_mesh((4, 2), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def block(v):\n    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n",
    "pkg/train.py": "import jax\nimport numpy as np\nfrom jax.sharding import AxisType\nfrom pkg import model\n\n"
                    "model.mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def compute():\n    xs = np.arange(16, dtype=np.float32).reshape(2, 8)\n    return jax.vmap(model.block, spmd_axis_name='x')(xs)\n",
    }, "np.arange(16, dtype=np.float32).reshape(2, 8) * 2.0")
pkg("k04_abstract_mesh_in_model_concrete_in_train", {
    "pkg/__init__.py": "",
    "pkg/model.py": "import jax\nfrom jax.sharding import AbstractMesh, AxisType, PartitionSpec as P\n\n"
                    "AMESH = AbstractMesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def block(v):\n    return jax.shard_map(lambda b: b * 2.0, mesh=AMESH, in_specs=P('x'), out_specs=P('x'))(v)\n",
    "pkg/train.py": "import jax\nimport numpy as np\nfrom jax.sharding import AxisType\nfrom pkg import model\n\n"
                    "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def compute():\n    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0\n    with jax.set_mesh(mesh):\n"
                    "        return jax.jit(jax.vmap(model.block, spmd_axis_name='x'))(xs)\n",
    }, "XS * 2.0")
pkg("k05_model_method_axis_attr_config", {
    "pkg/__init__.py": "",
    "pkg/config.py": "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Axes:\n    data: str = 'x'\n    model: str = 'y'\n\n\nAXES = Axes()\n",
    "pkg/model.py": "import jax\nfrom jax import lax\nfrom jax.sharding import AxisType, PartitionSpec as P\nfrom pkg.config import AXES\n\n"
                    "mesh = jax.make_mesh((2, 4), (AXES.data, AXES.model), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def body(b):\n    return b + lax.psum(b, AXES.model)\n\n\n"
                    "def block(v):\n    return jax.shard_map(body, mesh=mesh, in_specs=P(AXES.data), out_specs=P(AXES.data), check_vma=False)(v)\n",
    "pkg/train.py": "import jax\nimport numpy as np\nfrom pkg import model\nfrom pkg.config import AXES\n\n\n"
                    "def compute():\n    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0\n    return jax.vmap(model.block, spmd_axis_name=AXES.data)(xs)\n",
    }, "XS * 5.0")

# ---------------- batch 2 ----------------
strip_prog("s27_vectorize_in_body_lambda", "lambda b: jnp.vectorize(lambda t: t * 2.0)(b)")
strip_prog("s28_jacrev_diag_in_body", "lambda b: jnp.diagonal(jax.jacrev(jnp.sin)(b))")
strip_prog("s29_hessian_diag_in_body", "lambda b: jnp.diagonal(jax.hessian(lambda t: jnp.sin(t).sum())(b))")
one("s30_jacfwd_no_collision_silence", AUTO + block("lambda b: jnp.diagonal(jax.jacfwd(jnp.sin)(b))") + """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='y')(xs)
""")
one("r29_psum_via_module_alias_var", AUTO + "red = lax.psum\n" + block("lambda b: b + red(b, 'y')", extra=", check_vma=False") + CALL8)
one("r30_tree_map_partial_psum", AUTO + block("lambda b: b + jax.tree_util.tree_map(functools.partial(lax.psum, axis_name='y'), b)", extra=", check_vma=False") + CALL8)
one("r31_instance_call_body", AUTO + """
class Layer:
    def __call__(self, b):
        return b + lax.psum(b, 'y')
""" + block("Layer()", extra=", check_vma=False") + CALL8)
one("r32_init_default_axis_attr", AUTO + """
class Reducer:
    def __init__(self, axis='y'):
        self.axis = axis

    def __call__(self, b):
        return b + lax.psum(b, self.axis)


RED = Reducer()
""" + block("lambda b: RED(b)", extra=", check_vma=False") + CALL8)
one("r33_psum_star_axes", AUTO + "OTHER = ['y']\n" + block("lambda b: b + lax.psum(b, (*OTHER,))", extra=", check_vma=False") + CALL8)
one("r34_all_to_all_y", AUTO + block("lambda b: lax.all_to_all(b.reshape(4, 1), 'y', 0, 0, tiled=True).reshape(-1) * 2.0", extra=", check_vma=False") + CALL8)
one("r35_fold_in_axis_index_y", AUTO + block("lambda b: b + jax.random.uniform(jax.random.fold_in(jax.random.key(0), lax.axis_index('y')), b.shape)", extra=", check_vma=False") + CALL8)
one("r36_axis_index_keyword", AUTO + block("lambda b: b * (lax.axis_index(axis_name='y') + 1)", extra=", check_vma=False") + CALL8)
one("r37_pmax_in_nested_def_closure", AUTO + """

def make_body(axis):
    def body(b):
        return b + lax.pmax(b * (lax.axis_index(axis) + 1), axis)
    return body
""" + block("make_body('y')", extra=", check_vma=False") + CALL8)
one("e21_two_shard_maps_two_meshes", AUTO + "mesh2 = jax.make_mesh((2, 4), ('x', 'z'), axis_types=(AxisType.Auto, AxisType.Auto))\n" + """

def block(v):
    a = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh2, in_specs=P('x'), out_specs=P('x'))(a)
""" + CALL8)
one("e22_two_shard_maps_one_psums_y", AUTO + """

def block(v):
    a = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    return jax.shard_map(lambda b: b + lax.psum(b, 'y'), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(a)
""" + CALL8)
one("e23_mesh_param_default", AUTO + """

def block(v, m=mesh):
    return jax.shard_map(lambda b: b * 2.0, mesh=m, in_specs=P('x'), out_specs=P('x'))(v)
""" + CALL8)
one("e24_shared_manual_set_other_shard_map", AUTO + "MANUAL = {'x'}\n" + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names=MANUAL)(v)


def other(v):
    return jax.shard_map(lambda b: jax.lax.with_sharding_constraint(b, P(None, 'y')), mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names=MANUAL)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs) + jax.jit(other)(xs)
""")
one("e25_axis_names_computed", AUTO + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names=set(mesh.axis_names) - {'y'})(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
""")
one("e26_check_vma_via_kwargs_dict", AUTO + "SM = dict(check_vma=True)\n" + """

def block(v):
    return jax.shard_map(lambda b: jax.vmap(lambda t: t * 2.0)(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'), **SM)(v)
""" + CALL8)
one("e27_jit_out_shardings_around_vmap", AUTO + block("lambda b: b * 2.0") + """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    f = jax.jit(jax.vmap(block, spmd_axis_name='x'), in_shardings=NamedSharding(mesh, P('x')), out_shardings=NamedSharding(mesh, P('x', 'y')))
    return f(xs)
""")
one("e28_device_put_batch_on_y_auto", AUTO + block("lambda b: b * 2.0") + """
def compute():
    xs = jax.device_put(np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0, NamedSharding(mesh, P('y', 'x')))
    return jax.vmap(block, spmd_axis_name='x')(xs)
""")
one("e29_grad_through_vmap_psum_y", AUTO + block("lambda b: b * lax.psum(b, 'y')", extra=", check_vma=False") + """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.grad(lambda a: jax.vmap(block, spmd_axis_name='x')(a).sum())(xs)
""")
one("e30_scan_over_vmap_steps", AUTO + block("lambda b: b + lax.psum(b, 'y')", extra=", check_vma=False") + """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    def step(c, _):
        return jax.vmap(block, spmd_axis_name='x')(c) * 0.1, None
    return lax.scan(step, xs, None, length=2)[0]
""")
one("e31_custom_vjp_around_vmap", AUTO + block("lambda b: b + lax.psum(b, 'y')", extra=", check_vma=False") + """
@jax.custom_vjp
def apply(a):
    return jax.vmap(block, spmd_axis_name='x')(a)


apply.defvjp(lambda a: (apply(a), None), lambda _, g: (g,))


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return apply(xs)
""")

# ---------------- batch 3: calls whose batching fails under an spmd vmap with check_vma (H2-like) ----------------
G = "G = jnp.linspace(0.0, 7.0, 4)\n"
strip_prog("s31_interp_in_body", "lambda b: jnp.interp(b, G, G * 2.0)")
strip_prog("s32_searchsorted_in_body", "lambda b: jnp.searchsorted(G, b).astype(jnp.float32)")
strip_prog("s33_digitize_in_body", "lambda b: jnp.digitize(b, G).astype(jnp.float32)")
strip_prog("s34_polyval_in_body", "lambda b: jnp.polyval(jnp.array([1.0, 2.0]), b)")
strip_prog("s35_cond_batched_predicate", "lambda b: lax.cond(b.sum() > 1.0, lambda t: t * 2.0, lambda t: t - 1.0, b)")
strip_prog("s36_switch_batched_index", "lambda b: lax.switch((b.sum() > 1.0).astype(jnp.int32), [lambda t: t * 2.0, lambda t: t - 1.0], b)")
strip_prog("s37_piecewise_in_body", "lambda b: jnp.piecewise(b, [b < 1.0], [lambda t: t * 2.0, lambda t: t * 3.0])")
strip_prog("s38_histogram_in_body", "lambda b: jnp.histogram(b, bins=4, range=(0.0, 7.0))[0].astype(jnp.float32)")
for n in ("s31", "s32", "s33"):
    k = next(k for k in P if k.startswith(n))
    P[k] = {f: t.replace("mesh = jax.make", G + "mesh = jax.make", 1) for f, t in P[k].items()}
one("s39_cond_no_collision_silence", AUTO + block("lambda b: lax.cond(b.sum() > 1.0, lambda t: t * 2.0, lambda t: t - 1.0, b)") + """
def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='y')(xs)
""")
one("s40_cond_closed_flag_helper_module_fn", AUTO + """
FLAG = jnp.array(True)


def helper(b):
    return lax.cond(FLAG, lambda t: t * 2.0, lambda t: t, b)
""" + block("lambda b: helper(b)") + CALL8)
one("s41_cond_unary_branches_ok", AUTO + block("lambda b: lax.cond(b.sum() > 1.0, jnp.sin, jnp.cos, b)") + CALL8)

# ---------------- batch 4: bodies the analysis does not read, holding H2-like calls ----------------
one("s42_instance_body_applies_cond", AUTO + """
class Layer:
    def __call__(self, b):
        return lax.cond(b.sum() > 1.0, lambda t: t * 2.0, lambda t: t - 1.0, b)
""" + block("Layer()") + CALL8)
pkg("k06_body_function_of_ops_module_cond", {
    "pkg/__init__.py": "",
    "pkg/ops.py": "import jax\nfrom jax import lax\n\n\ndef body(b):\n    return lax.cond(b.sum() > 1.0, lambda t: t * 2.0, lambda t: t - 1.0, b)\n",
    "pkg/model.py": "import jax\nfrom jax.sharding import AxisType, PartitionSpec as P\nfrom pkg import ops\n\n"
                    "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def block(v):\n    return jax.shard_map(ops.body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n",
    "pkg/train.py": "import jax\nimport numpy as np\nfrom pkg import model\n\n\ndef compute():\n    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0\n    return jax.vmap(model.block, spmd_axis_name='x')(xs)\n",
    }, "np.where(XS.reshape(8, 2, 4).sum(-1, keepdims=True) > 1.0, XS.reshape(8, 2, 4) * 2.0, XS.reshape(8, 2, 4) - 1.0).reshape(8, 8)")
pkg("k07_body_calls_ops_helper_cond_left", {
    "pkg/__init__.py": "",
    "pkg/ops.py": "import jax\nfrom jax import lax\n\n\ndef helper(b):\n    return lax.cond(b.sum() > 1.0, lambda t: t * 2.0, lambda t: t - 1.0, b)\n",
    "pkg/model.py": "import jax\nfrom jax.sharding import AxisType, PartitionSpec as P\nfrom pkg import ops\n\n"
                    "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n\n\n"
                    "def block(v):\n    return jax.shard_map(lambda b: ops.helper(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n",
    "pkg/train.py": "import jax\nimport numpy as np\nfrom pkg import model\n\n\ndef compute():\n    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0\n    return jax.vmap(model.block, spmd_axis_name='x')(xs)\n",
    }, "np.where(XS.reshape(8, 2, 4).sum(-1, keepdims=True) > 1.0, XS.reshape(8, 2, 4) * 2.0, XS.reshape(8, 2, 4) - 1.0).reshape(8, 8)")


def main(missing=False):
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
        if any(r.startswith("pkg/") for r in files):
            (d / "ENTRY").write_text("main.py\n")
    print(len(P), "programs")


if __name__ == "__main__":
    import sys
    main("--missing" in sys.argv)
