"""Writes progs/ (the breaker12 programs): python make_progs.py. Groups: r* the rename transform (batch read at
the wrong dimension, mesh sizes, other uses of the new axis); s* the strip transform (non-elementwise bodies,
specs held in helpers, NamedTuples, dataclasses, dicts); a* add-axis (make_mesh keyword forms, Mesh(...)
constructors, reads of the mesh); k* packages fixed as a whole (config/model/train)."""
import pathlib, shutil
HERE = pathlib.Path(__file__).resolve().parent
P = {}
PYPROJECT = '[project]\nname = "{name}"\nversion = "0"\n'

HEAD = """import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

"""
AUTO = "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n"


def one(name, body, head=HEAD):
    """A single-module program: main.py."""
    P[name] = {"main.py": head + body}


def pkg(name, files):
    P[name] = files

# ---------------- group r: rename ----------------
BLOCK = """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

"""
one("r01_batch_in_axes_1", AUTO + BLOCK + """
def main():
    xs = np.arange(8 * 6, dtype=np.float32).reshape(8, 6)
    out = jax.vmap(block, in_axes=1, spmd_axis_name='x')(xs)
    ref = (xs * 2.0).T
    print("RESULT: match" if np.allclose(np.asarray(out), ref) else "RESULT: mismatch")


main()
""")
one("r02_batch_transposed", AUTO + BLOCK + """
def main():
    xs = jnp.arange(8 * 6, dtype=jnp.float32).reshape(8, 6).T
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(xs) * 2.0) else "RESULT: mismatch")


main()
""")
one("r03_batch_reshape_minus1", AUTO + BLOCK + """
def main():
    xs = np.arange(48, dtype=np.float32).reshape(-1, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r04_batch_sliced", AUTO + BLOCK + """
def main():
    xs = np.arange(64, dtype=np.float32).reshape(8, 8)[:6]
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r05_batch_concatenated", AUTO + BLOCK + """
def main():
    a = np.ones((2, 8), dtype=np.float32)
    xs = np.concatenate([a, a * 2, a * 3])
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r06_mesh_devices_transposed", """devices = np.array(jax.devices()).reshape(4, 2).T
mesh = Mesh(devices, ('x', 'y'))
""" + BLOCK + """
def main():
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r07_mesh_from_device_count", """mesh = jax.make_mesh((2, jax.device_count() // 2), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
""" + BLOCK + """
def main():
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r08_outer_vmap_spmd_y", AUTO + BLOCK + """
def main():
    xs = np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8)
    out = jax.vmap(jax.vmap(block, spmd_axis_name='x'), spmd_axis_name='y')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r09_inner_vmap_spmd_y_in_function", AUTO + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def rows(m):
    return jax.vmap(block, spmd_axis_name='y')(m)


def main():
    xs = np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8)
    out = jax.vmap(rows, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r10_second_shard_map_via_registry", AUTO + """

def post(v):
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)


STAGES = {'post': post}


def block(v):
    h = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    return STAGES['post'](h)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0 + 1.0) else "RESULT: mismatch")


main()
""")
one("r11_psum_y_in_helper_def", AUTO + """

def normalise(b):
    return b / jax.lax.psum(1.0, 'y')


def block(v):
    return jax.shard_map(lambda b: normalise(b) * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0 / 4.0) else "RESULT: mismatch")


main()
""")
pkg("r12_psum_y_in_helper_other_module", {
    "pkg/__init__.py": "",
    "pkg/ops.py": "import jax\n\n\ndef normalise(b):\n    return b / jax.lax.psum(1.0, 'y')\n",
    "main.py": HEAD + "from pkg.ops import normalise\n\n" + AUTO + """

def block(v):
    return jax.shard_map(lambda b: normalise(b) * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0 / 4.0) else "RESULT: mismatch")


main()
"""})
one("r13_axis_index_y_in_helper", AUTO + """

def offset(b):
    return b + jax.lax.axis_index('y').astype(b.dtype)


def block(v):
    return jax.shard_map(offset, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs) else "RESULT: mismatch")


main()
""")
pkg("r14_collective_axes_from_config", {
    "pkg/__init__.py": "",
    "pkg/config.py": "MODEL_AXES = ('y',)\n",
    "main.py": HEAD + "from pkg.config import MODEL_AXES\n\n" + AUTO + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0 / jax.lax.psum(1.0, MODEL_AXES), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0 / 4.0) else "RESULT: mismatch")


main()
"""})
one("r15_scan_body_all_gather_y", AUTO + """

def body(b):
    def step(c, _):
        g = jax.lax.all_gather(c, 'y', tiled=True)
        return c + g[:c.shape[0]] * 0.0 + 1.0, None
    out, _ = jax.lax.scan(step, b, None, length=2)
    return out


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs + 2.0) else "RESULT: mismatch")


main()
""")
one("r16_partial_manual_constraint_y_in_body", AUTO + """

def body(b):
    b = jax.lax.with_sharding_constraint(b, P(None, 'y'))
    return b * 2.0


def block(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x', None), out_specs=P('x', None), axis_names={'x'})(v)


def main():
    xs = np.arange(4 * 8 * 8, dtype=np.float32).reshape(4, 8, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r17_partial_decorator_axis_names_constraint_y", AUTO + """

@functools.partial(jax.shard_map, mesh=mesh, in_specs=P('x', None), out_specs=P('x', None), axis_names={'x'})
def body(b):
    return jax.lax.with_sharding_constraint(b * 2.0, NamedSharding(mesh, P(None, 'y')))


def main():
    xs = np.arange(4 * 8 * 8, dtype=np.float32).reshape(4, 8, 8)
    out = jax.jit(jax.vmap(body, spmd_axis_name='x'))(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r18_axis_size_y_in_body", AUTO + """

def block(v):
    return jax.shard_map(lambda b: b * jax.lax.axis_size('y'), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 4.0) else "RESULT: mismatch")


main()
""")
one("r19_jit_in_shardings_around_vmap", AUTO + BLOCK + """
def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    f = jax.jit(jax.vmap(block, spmd_axis_name='x'), in_shardings=NamedSharding(mesh, P('x', None)),
                out_shardings=NamedSharding(mesh, P('x', None)))
    out = f(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r20_batch_via_stack", AUTO + BLOCK + """
def main():
    rows = [np.full((8,), i, dtype=np.float32) for i in range(6)]
    xs = jnp.stack(rows)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(xs) * 2.0) else "RESULT: mismatch")


main()
""")
one("r21_batch_swapaxes", AUTO + BLOCK + """
def main():
    xs = jnp.swapaxes(jnp.zeros((8, 6), dtype=jnp.float32) + 1.0, 0, 1)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(xs) * 2.0) else "RESULT: mismatch")


main()
""")
one("r22_in_axes_tuple_second_arg", AUTO + """

def block(v, w):
    return jax.shard_map(lambda b, c: b * c, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P('x'))(v, w)


def main():
    w = np.ones((8, 8), dtype=np.float32) * 2.0
    xs = np.arange(8 * 6, dtype=np.float32).reshape(8, 6)
    out = jax.vmap(block, in_axes=(1, None), spmd_axis_name='x')(xs, w[0])
    print("RESULT: match" if np.allclose(np.asarray(out), xs.T * 2.0) else "RESULT: mismatch")


main()
""")
one("r23_batch_rebound_after_reshape", AUTO + BLOCK + """
def main():
    xs = jnp.zeros((8, 8), dtype=jnp.float32)
    xs = xs.reshape(16, 4)[:6].reshape(6, 4)
    xs = jnp.tile(xs, (1, 2)) + 1.0
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(xs) * 2.0) else "RESULT: mismatch")


main()
""")
one("r24_pcast_y_in_body", AUTO + """

def block(v):
    return jax.shard_map(lambda b: jax.lax.pcast(b, 'y', to='varying') * 2.0, mesh=mesh, in_specs=P('x', None),
                         out_specs=P('x', 'y'))(v)


def main():
    xs = np.arange(4 * 8 * 2, dtype=np.float32).reshape(4, 8, 2)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    ref = np.tile(xs * 2.0, (1, 1, 4))
    ok = np.asarray(out).shape == ref.shape and np.allclose(np.asarray(out), ref)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
""")
pkg("r25_constraint_y_in_helper_other_module", {
    "pkg/__init__.py": "",
    "pkg/layers.py": "import jax\nfrom jax.sharding import NamedSharding, PartitionSpec as P\n\n\ndef constrain(h, mesh):\n    return jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P('y')))\n",
    "main.py": HEAD + "from pkg.layers import constrain\n\n" + AUTO + """

def block(v):
    h = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    return constrain(h, mesh)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
"""})
one("r26_constraint_y_in_helper_def", AUTO + """

def constrain(h):
    return jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P('y')))


def block(v):
    h = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    return constrain(h)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name='x'))(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r27_in_axes_none_first", AUTO + """

def block(w, v):
    return jax.shard_map(lambda c, b: b * c, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P('x'))(w, v)


def main():
    w = np.full((8,), 2.0, dtype=np.float32)
    table = np.zeros((8, 8), dtype=np.float32)
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    out = jax.vmap(block, in_axes=(None, 0), spmd_axis_name='x')(w + table[0], xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r28_batch_passed_by_keyword", AUTO + BLOCK + """
def main():
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    out = jax.vmap(block, spmd_axis_name='x')(v=xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r29_batch_from_pytree_tuple_in_axes", AUTO + """

def block(pair):
    a, b = pair
    return jax.shard_map(lambda u, w: u * w, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P('x'))(a, b)


def main():
    a = np.ones((8, 8), dtype=np.float32) * 2.0
    xs = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    out = jax.vmap(block, in_axes=((None, 0),), spmd_axis_name='x')((a[0], xs))
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r30_batch_minus_one_drop", AUTO + BLOCK + """
def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    xs = xs[1:-1]
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""")
one("r31_in_axes_minus_1", AUTO + BLOCK + """
def main():
    xs = np.arange(8 * 6, dtype=np.float32).reshape(8, 6)
    out = jax.vmap(block, in_axes=-1, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs.T * 2.0) else "RESULT: mismatch")


main()
""")
one("r32_in_axes_dict", AUTO + """

def block(d):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(d['v'])


def main():
    xs = np.arange(8 * 6, dtype=np.float32).reshape(8, 6)
    out = jax.vmap(block, in_axes=({'v': 1},), spmd_axis_name='x')({'v': xs})
    print("RESULT: match" if np.allclose(np.asarray(out), xs.T * 2.0) else "RESULT: mismatch")


main()
""")
R33_MAIN = """

def layer(x):
    return jax.shard_map(add_total, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'), check_vma=False)(x)


def main():
    xs = jnp.arange(4 * 4 * 4, dtype=jnp.float32).reshape(4, 4, 4)
    out = jax.vmap(layer, spmd_axis_name='x')(xs)
    x = np.asarray(xs)
    block_sums = x.reshape(4, 2, 2, 2, 2).sum(axis=(2, 4), keepdims=True)
    ref = (x.reshape(4, 2, 2, 2, 2) + 2.0 * block_sums).reshape(4, 4, 4)
    print("RESULT: match" if np.allclose(np.asarray(out), ref) else "RESULT: mismatch")


main()
"""
MESH3 = "mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))\n"
pkg("r33_psum_z_in_helper_other_module_values", {
    "pkg/__init__.py": "",
    "pkg/ops.py": "import jax\n\n\ndef add_total(v):\n    return v + jax.lax.psum(v.sum(), 'z')\n",
    "main.py": HEAD + "from pkg.ops import add_total\n\n" + MESH3 + R33_MAIN})
one("r34_psum_z_in_helper_same_module_values", MESH3 + "\n\ndef add_total(v):\n    return v + jax.lax.psum(v.sum(), 'z')\n" + R33_MAIN)
pkg("r35_psum_z_helper_imported_as_module", {
    "pkg/__init__.py": "",
    "pkg/ops.py": "import jax\n\n\ndef add_total(v):\n    return v + jax.lax.psum(v.sum(), 'z')\n",
    "main.py": HEAD + "from pkg import ops\n\n" + MESH3 + R33_MAIN.replace("shard_map(add_total", "shard_map(lambda v: ops.add_total(v)")})
pkg("r36_spmd004_pmean_spmd_axis_in_other_module", {
    "pkg/__init__.py": "",
    "pkg/ops.py": "import jax\n\n\ndef centre(b):\n    return b - jax.lax.pmean(b, 'x')\n",
    "main.py": HEAD + "from pkg import ops\n\n" + AUTO + """

def block(v):
    return jax.shard_map(lambda b: ops.centre(b), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 0.0) else "RESULT: mismatch")


main()
"""})
# ---------------- group s: strip ----------------
def strip_prog(name, body_expr, ref, in_spec="P('x')", out_spec="P('x')", extra="", cols=8, kw="", shape=None, more=None):
    """A strip candidate: the vmapped block's shard_map with `body_expr`; `ref` a numpy expression of one example
    `v`, or None: the reference is then the same block under a plain jax.vmap, run from ref.py (its own mesh,
    its own specs: no fix touches it)."""
    shape = shape or str(cols)
    sm = f"jax.shard_map({body_expr}, mesh=mesh, in_specs={in_spec}, out_specs={out_spec}{kw})(v)"
    files = {"main.py": HEAD + AUTO + extra + f"""

def block(v):
    return {sm}


def main():
    xs = np.arange(4 * {cols}, dtype=np.float32).reshape(4, {shape}) + 1.0
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    REF
    ok = np.asarray(out).shape == ref.shape and np.allclose(np.asarray(out), ref)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
"""}
    if ref is None:
        files["main.py"] = files["main.py"].replace("REF", "from ref_impl import reference\n    ref = reference(xs)")
        files["ref_impl.py"] = HEAD + AUTO + extra + f"""

def block(v):
    return {sm}


def reference(xs):
    return np.asarray(jax.vmap(block)(xs))
"""
    else:
        files["main.py"] = files["main.py"].replace("REF", f"ref = np.stack([{ref} for v in xs])")
    files.update(more or {})
    P[name] = files


strip_prog("s01_stack_blocks_with_array", "lambda b: jnp.array([b, b * 2.0])",
           "np.concatenate([np.stack([v[:4], v[:4] * 2]), np.stack([v[4:], v[4:] * 2])])")
strip_prog("s02_asarray_tuple_of_blocks", "lambda b: jnp.asarray((b, -b))",
           "np.concatenate([np.stack([v[:4], -v[:4]]), np.stack([v[4:], -v[4:]])])")
strip_prog("s03_array_ndmin", "lambda b: jnp.array(b, ndmin=2)",
           "np.stack([v[:4], v[4:]])")
strip_prog("s04_default_param_array", "lambda b, w=W: b * w", "v * np.tile(np.arange(1.0, 5.0), 2)",
           extra="\nW = jnp.arange(1.0, 5.0)\n")
strip_prog("s05_partial_bound_array", "functools.partial(scale, w=W)", "v * np.tile(np.arange(1.0, 5.0), 2)",
           extra="\nW = jnp.arange(1.0, 5.0)\n\n\ndef scale(b, w):\n    return b * w\n")
strip_prog("s06_asarray_module_tuple", "lambda b: b * jnp.asarray(WEIGHTS)", "v * np.tile(np.arange(1.0, 5.0), 2)",
           extra="\nWEIGHTS = (1.0, 2.0, 3.0, 4.0)\n")
strip_prog("s07_array_of_repeated_list", "lambda b: b * jnp.array(2 * [1.0, 2.0])", "v * np.tile([1.0, 2.0], 4)")
strip_prog("s08_where_one_arg_mask", "lambda b: jnp.where(b > 2.0, b, MASK)", "np.where(v > 2.0, v, np.tile([0.0, 1.0, 0.0, 1.0], 2))",
           extra="\nMASK = np.array([0.0, 1.0, 0.0, 1.0], dtype=np.float32)\n")
strip_prog("s09_clip_tuple_bound", "lambda b: jnp.clip(b, 0.0, HI)", "np.clip(v, 0.0, np.tile([5.0, 6.0, 7.0, 8.0], 2))",
           extra="\nHI = (5.0, 6.0, 7.0, 8.0)\n")
strip_prog("s10_power_of_module_list", "lambda b: jnp.power(b, EXPS)", "np.power(v, np.tile([1.0, 2.0, 1.0, 2.0], 2))",
           extra="\nEXPS = [1.0, 2.0, 1.0, 2.0]\n")
strip_prog("s11_nested_def_body_closure_local", "body", "v * np.tile(np.arange(1.0, 5.0), 2)",
           extra="\nbody = None\n\n\ndef _make():\n    w = jnp.arange(1.0, 5.0)\n\n    def inner(b):\n        return b * w\n    return inner\n\n\nbody = _make()\n")
strip_prog("s12_psum_other_axis_out_replicated_dim", "lambda b: jax.lax.psum(b, 'y')", "v.reshape(8, 4, 2).sum(1)",
           in_spec="P('x', 'y')", out_spec="P('x', None)", cols=64, shape="8, 8")
strip_prog("s13_ppermute_other_axis", "lambda b: jax.lax.ppermute(b, 'y', [(i, (i + 1) % 4) for i in range(4)])",
           "np.roll(v.reshape(8, 4, 2), 1, axis=1).reshape(8, 8)", in_spec="P('x', 'y')", out_spec="P('x', 'y')", cols=64, shape="8, 8")
strip_prog("s14_all_to_all_other_axis", "lambda b: jax.lax.all_to_all(b, 'y', 0, 0, tiled=True)",
           None, in_spec="P('x', 'y')", out_spec="P('x', 'y')", cols=64, shape="8, 8")
strip_prog("s15_check_vma_false_out_unmapped", "lambda b: b * 2.0", "v[:4] * 2.0", out_spec="P()", kw=", check_vma=False")
strip_prog("s16_pmean_over_y_in_1d_spec_tuple", "lambda b: b - jax.lax.pmean(b, 'y')", None,
           in_spec="P(('y', 'x'))", out_spec="P(('y', 'x'))")
strip_prog("s17_cumsum_body", "lambda b: jnp.cumsum(b)", "np.concatenate([np.cumsum(v[:4]), np.cumsum(v[4:])])")
strip_prog("s18_sort_via_lax_select", "lambda b: jax.lax.select(b > 4.0, b, jnp.flip(b))", None)
strip_prog("s19_nan_to_num_posinf_array", "lambda b: jnp.nan_to_num(b / 0.0, posinf=LIMITS)", None,
           extra="\nLIMITS = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)\n")
strip_prog("s20_round_decimals_from_block", "lambda b: jnp.round(b, 1) + b.clip(min=b.mean())", None)
# strip: the spec held somewhere another use reads it (the other use is a shard_map that reduces per block)
OTHER = """

def centre(a):
    # run outside the vmap: subtracts each block's own mean
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=ROWSPEC, out_specs=ROWSPEC)(a)


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=INSPEC, out_specs=INSPEC)(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) + 1.0
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    c = centre(xs[0])
    ref_c = np.concatenate([xs[0][:4] - xs[0][:4].mean(), xs[0][4:] - xs[0][4:].mean()])
    ok = np.allclose(np.asarray(out), xs * 2.0) and np.allclose(np.asarray(c), ref_c)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
"""


def shared_spec(name, defs, inspec, rowspec):
    one(name, AUTO + defs + OTHER.replace("INSPEC", inspec).replace("ROWSPEC", rowspec))


shared_spec("s21_spec_from_helper_function", "\n\ndef row_spec():\n    return P('x')\n", "row_spec()", "row_spec()")
shared_spec("s22_spec_in_namedtuple", """
from typing import NamedTuple


class Specs(NamedTuple):
    rows: P
    full: P


SPECS = Specs(rows=P('x'), full=P())
""", "SPECS.rows", "SPECS.rows")
shared_spec("s23_spec_in_dataclass_default", """
import dataclasses


@dataclasses.dataclass(frozen=True)
class Specs:
    rows: P = P('x')


SPECS = Specs()
""", "SPECS.rows", "SPECS.rows")
shared_spec("s24_spec_in_dict", "\nSPECS = {'rows': P('x'), 'full': P()}\n", "SPECS['rows']", "SPECS['rows']")
shared_spec("s25_spec_in_class_attribute", "\n\nclass Specs:\n    rows = P('x')\n", "Specs.rows", "Specs.rows")
shared_spec("s26_spec_from_lru_cache_helper", "\n\n@functools.lru_cache\ndef spec_for(axis):\n    return P(axis)\n", "spec_for('x')", "spec_for('x')")
shared_spec("s27_spec_helper_with_default", "\n\ndef row_spec(axis='x'):\n    return P(axis)\n", "row_spec()", "row_spec()")
shared_spec("s28_spec_from_namedtuple_positional", """
from typing import NamedTuple


class Specs(NamedTuple):
    rows: P
    full: P


SPECS = Specs(P('x'), P())
""", "SPECS[0]", "SPECS.rows")
one("s29_partial_shard_map_decorator_specs_helper", AUTO + """

def specs():
    return dict(mesh=mesh, in_specs=P('x'), out_specs=P('x'))


@functools.partial(jax.shard_map, **specs())
def double(b):
    return b * 2.0


@functools.partial(jax.shard_map, **specs())
def centre(b):
    return b - b.mean()


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) + 1.0
    out = jax.vmap(double, spmd_axis_name='x')(xs)
    c = centre(xs[0])
    ref_c = np.concatenate([xs[0][:4] - xs[0][:4].mean(), xs[0][4:] - xs[0][4:].mean()])
    ok = np.allclose(np.asarray(out), xs * 2.0) and np.allclose(np.asarray(c), ref_c)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
""")
one("s30_partial_shard_map_same_partial_twice", AUTO + """
sharded = functools.partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))


@sharded
def double(b):
    return b * 2.0


@sharded
def centre(b):
    return b - b.mean()


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) + 1.0
    out = jax.vmap(double, spmd_axis_name='x')(xs)
    c = centre(xs[0])
    ref_c = np.concatenate([xs[0][:4] - xs[0][:4].mean(), xs[0][4:] - xs[0][4:].mean()])
    ok = np.allclose(np.asarray(out), xs * 2.0) and np.allclose(np.asarray(c), ref_c)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
""")
# ---------------- group a: add-axis ----------------
def addaxis(name, mesh_def, extra="", check="True", head=HEAD):
    one(name, mesh_def + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

""" + extra + f"""

def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    ok = np.allclose(np.asarray(out), xs * 2.0) and ({check})
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
""", head=head)


addaxis("a01_make_mesh_all_keywords", "mesh = jax.make_mesh(axis_shapes=(2, 4), axis_names=('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n")
addaxis("a02_make_mesh_devices_keyword", "mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto), devices=jax.devices())\n")
addaxis("a03_make_mesh_positional_axis_types", "mesh = jax.make_mesh((2, 4), ('x', 'y'), (AxisType.Auto, AxisType.Auto))\n")
addaxis("a04_mesh_ctor_reshape_tuple", "mesh = Mesh(np.array(jax.devices()).reshape((2, 4)), ('x', 'y'))\n")
addaxis("a05_mesh_ctor_reshape_minus1", "mesh = Mesh(np.asarray(jax.devices()).reshape(2, -1), ('x', 'y'))\n")
addaxis("a06_mesh_ctor_keywords", "mesh = Mesh(devices=np.array(jax.devices()).reshape(2, 4), axis_names=('x', 'y'))\n")
addaxis("a07_create_device_mesh", "from jax.experimental import mesh_utils\nmesh = Mesh(mesh_utils.create_device_mesh((2, 4)), ('x', 'y'))\n")
addaxis("a08_len_mesh_devices", AUTO, extra="\nN_DATA = len(mesh.devices)\n", check="N_DATA == 2")
addaxis("a09_axis_names_index", AUTO, extra="\nMODEL_DIM = mesh.axis_names.index('y')\n", check="MODEL_DIM == 1")
addaxis("a10_mesh_shape_dict_compare", AUTO, extra="\nSHAPE_OK = dict(mesh.shape) == {'x': 2, 'y': 4}\n", check="SHAPE_OK")
addaxis("a11_mesh_axis_sizes", AUTO, extra="\nDATA_SIZE = mesh.axis_sizes[0]\n", check="DATA_SIZE == 2")
addaxis("a12_submesh_from_row", AUTO, extra="\nrow_mesh = Mesh(mesh.devices[0], ('y',))\n", check="row_mesh.size == 4")
addaxis("a13_devices_shape_1", AUTO, extra="\nMODEL_SIZE = mesh.devices.shape[1]\n", check="MODEL_SIZE == 4")
addaxis("a14_axis_names_1", AUTO, extra="\nMODEL_AXIS = mesh.axis_names[1]\n", check="MODEL_AXIS == 'y'")
addaxis("a15_shape_tuple", AUTO, extra="\nSHAPES = mesh.shape_tuple\n", check="SHAPES == (('x', 2), ('y', 4))")
addaxis("a16_devices_ndim", AUTO, extra="\nNDIM = mesh.devices.ndim\n", check="NDIM == 2")
addaxis("a17_mesh_passed_to_helper_index", AUTO, extra="""
def first_axis(m):
    return m.axis_names[0]


FIRST = first_axis(mesh)
""", check="FIRST == 'x'")
addaxis("a18_list_shape_values", AUTO, extra="\nSIZES = list(mesh.shape.values())\n", check="SIZES == [2, 4]")
addaxis("a19_zip_names_sizes", AUTO, extra="\nPAIRS = list(zip(mesh.axis_names, mesh.devices.shape))\n", check="PAIRS == [('x', 2), ('y', 4)]")
addaxis("a20_mesh_built_in_function_used_twice", """
def build_mesh():
    return jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


mesh = build_mesh()
""", extra="\nother = build_mesh()\nROWS = other.devices.shape[0]\n", check="ROWS == 2")
one("a21_set_mesh_context_no_mesh_kw", AUTO + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        out = jax.vmap(block, spmd_axis_name='x')(xs)
        n = jax.sharding.get_abstract_mesh().axis_names
    ok = np.allclose(np.asarray(out), xs * 2.0) and n == ('x', 'y')
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
""")
one("a29_module_set_mesh_reads_abstract", AUTO + """jax.sharding.set_mesh(mesh)


def block(v):
    return jax.shard_map(lambda b: b * 2.0, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    n = len(jax.sharding.get_abstract_mesh().axis_names)
    ok = np.allclose(np.asarray(out), xs * 2.0) and n == 2
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
""")
one("a30_pmap_migrated_1d_mesh_pmean", """mesh = Mesh(np.array(jax.devices()), ('batch',))


def block(v):
    return jax.shard_map(lambda b: b - jax.lax.pmean(b, 'batch'), mesh=mesh, in_specs=P('batch'), out_specs=P('batch'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name='batch')(xs)
    ref = xs - xs.mean(axis=1, keepdims=True)
    print("RESULT: match" if np.allclose(np.asarray(out), ref) else "RESULT: mismatch")


main()
""")
one("a31_pmap_migrated_axis_index", """mesh = Mesh(np.array(jax.devices()), ('batch',))


def block(v):
    return jax.shard_map(lambda b: b * 0 + jax.lax.axis_index('batch'), mesh=mesh, in_specs=P('batch'), out_specs=P('batch'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name='batch')(xs)
    ref = np.tile(np.arange(8, dtype=np.float32), (4, 1))
    print("RESULT: match" if np.allclose(np.asarray(out), ref) else "RESULT: mismatch")


main()
""")
one("a32_jit_shardings_around_vmap_mesh", AUTO + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    f = jax.jit(jax.vmap(block, spmd_axis_name='x'), out_shardings=NamedSharding(mesh, P(None, 'y')))
    out = f(xs)
    ok = np.allclose(np.asarray(out), xs * 2.0) and out.sharding.spec == P(None, 'y')
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
""")
one("a33_mesh_devices_for_submesh_loop", AUTO + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


STAGES = [Mesh(row, ('y',)) for row in mesh.devices]


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    ok = np.allclose(np.asarray(out), xs * 2.0) and len(STAGES) == 2
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
""")
addaxis("a22_mesh_eq_other", AUTO, extra="\nSAME = mesh == jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n", check="SAME")
addaxis("a23_devices_tolist", AUTO, extra="\nGRID = mesh.devices.tolist()\n", check="len(GRID) == 2")
addaxis("a24_devices_iterated", AUTO, extra="\nROWS = [list(r) for r in mesh.devices]\n", check="len(ROWS) == 2")
addaxis("a25_axis_names_unpacked", AUTO, extra="\nDATA, MODEL = mesh.axis_names\n", check="MODEL == 'y'")
addaxis("a26_shape_keys", AUTO, extra="\nKEYS = tuple(mesh.shape)\n", check="KEYS == ('x', 'y')")
addaxis("a27_axis_types_index", AUTO, extra="\nT1 = mesh.axis_types[1]\nN_TYPES = len(mesh.axis_types)\n", check="N_TYPES == 2")
addaxis("a28_abstract_mesh_shape", AUTO, extra="\nAM = mesh.abstract_mesh\nAM_SIZES = AM.axis_sizes\n", check="AM_SIZES == (2, 4)")
# ---------------- group k: packages fixed as a whole ----------------
K_CONFIG = """import jax
from jax.sharding import AxisType

DATA = 'x'
MODEL = 'y'
MESH = jax.make_mesh((2, 4), (DATA, MODEL), axis_types=(AxisType.Auto, AxisType.Auto))
"""
K_MODEL = """import jax
from jax.sharding import PartitionSpec as P

from pkg import config


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=config.MESH, in_specs=P(config.DATA), out_specs=P(config.DATA))(v)
"""
K_TRAIN = """import jax

from pkg import config
from pkg.model import block


def step(xs):
    return jax.vmap(block, spmd_axis_name=config.DATA)(xs)
"""
K_MAIN = """import numpy as np
from pkg.train import step
EXTRA_IMPORT

def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = step(xs)
    ok = np.allclose(np.asarray(out), xs * 2.0) and (CHECK)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
"""


def k(name, config=K_CONFIG, model=K_MODEL, train=K_TRAIN, extra_import="", check="True", extra=None):
    files = {"pkg/__init__.py": "", "pkg/config.py": config, "pkg/model.py": model, "pkg/train.py": train,
             "main.py": K_MAIN.replace("EXTRA_IMPORT", extra_import).replace("CHECK", check)}
    files.update(extra or {})
    P[name] = files


k("k01_control_package")
k("k02_train_reads_axis_names_0", train=K_TRAIN + "\nFIRST_AXIS = config.MESH.axis_names[0]\n",
  extra_import="from pkg.train import FIRST_AXIS", check="FIRST_AXIS == 'x'")
k("k03_eval_submesh_from_row", extra={"pkg/evaluate.py": "from jax.sharding import Mesh\n\nfrom pkg.config import MESH\n\nROW = Mesh(MESH.devices[0], ('y',))\n"},
  extra_import="from pkg.evaluate import ROW", check="ROW.size == 4")
k("k04_helper_module_reads_shape_1", extra={"pkg/sizes.py": "from pkg import config\n\n\ndef model_size():\n    return config.MESH.devices.shape[1]\n"},
  extra_import="from pkg.sizes import model_size", check="model_size() == 4")
k("k05_specs_namedtuple_in_config", config=K_CONFIG + """from typing import NamedTuple
from jax.sharding import PartitionSpec as P


class Specs(NamedTuple):
    rows: P


SPECS = Specs(rows=P('x'))
""", model="""import jax

from pkg import config


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=config.MESH, in_specs=config.SPECS.rows, out_specs=config.SPECS.rows)(v)
""", extra={"pkg/evaluate.py": """import jax

from pkg.config import MESH, SPECS


def centre(a):
    return jax.shard_map(lambda b: b - b.mean(), mesh=MESH, in_specs=SPECS.rows, out_specs=SPECS.rows)(a)
"""}, extra_import="from pkg.evaluate import centre",
  check="np.allclose(np.asarray(centre(xs[0])), np.concatenate([xs[0][:4] - xs[0][:4].mean(), xs[0][4:] - xs[0][4:].mean()]))")
k("k06_mesh_factory_in_config", config="""import jax
from jax.sharding import AxisType

DATA = 'x'


def make_mesh():
    return jax.make_mesh((2, 4), (DATA, 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


MESH = make_mesh()
""", extra={"pkg/evaluate.py": "from pkg.config import make_mesh\n\nEVAL_MESH = make_mesh()\nDATA_SIZE = EVAL_MESH.devices.shape[0]\n"},
  extra_import="from pkg.evaluate import DATA_SIZE", check="DATA_SIZE == 2")
k("k07_train_jit_in_shardings", train="""import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg import config
from pkg.model import block

step = jax.jit(jax.vmap(block, spmd_axis_name=config.DATA),
               in_shardings=NamedSharding(config.MESH, P(config.DATA, None)))
""")
k("k08_star_import_reads_axis_names", extra={"pkg/evaluate.py": "from pkg.config import *\n\nMODEL_AXIS = MESH.axis_names[1]\n"},
  extra_import="from pkg.evaluate import MODEL_AXIS", check="MODEL_AXIS == 'y'")
k("k09_spec_helper_module_strip", model="""import jax

from pkg import config
from pkg.specs import rows


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=config.MESH, in_specs=rows(), out_specs=rows())(v)
""", extra={"pkg/specs.py": "from jax.sharding import PartitionSpec as P\n\n\ndef rows():\n    return P('x')\n",
            "pkg/evaluate.py": """import jax

from pkg.config import MESH
from pkg.specs import rows


def centre(a):
    return jax.shard_map(lambda b: b - b.mean(), mesh=MESH, in_specs=rows(), out_specs=rows())(a)
"""}, extra_import="from pkg.evaluate import centre",
  check="np.allclose(np.asarray(centre(xs[0])), np.concatenate([xs[0][:4] - xs[0][:4].mean(), xs[0][4:] - xs[0][4:].mean()]))")
k("k10_rename_other_module_collective_y", model="""import jax
from jax.sharding import PartitionSpec as P

from pkg import config
from pkg.ops import norm


def block(v):
    return jax.shard_map(lambda b: norm(b) * 8.0, mesh=config.MESH, in_specs=P(config.DATA), out_specs=P(config.DATA))(v)
""", extra={"pkg/ops.py": "import jax\n\nfrom pkg import config\n\n\ndef norm(b):\n    return b / jax.lax.psum(1.0, config.MODEL)\n"},
  check="True")

# strip: more bodies (s31+)
strip_prog("s31_pmean_over_imported_data_axis", "lambda b: b - jax.lax.pmean(b, DATA_AXIS)", None,
           extra="\nfrom axes import DATA_AXIS\n", kw=", check_vma=False", more={"axes.py": "DATA_AXIS = 'x'\n"})
strip_prog("s32_pmean_over_mesh_axis_names_0", "lambda b: b - jax.lax.pmean(b, mesh.axis_names[0])", None, kw=", check_vma=False")
strip_prog("s33_module_attribute_array", "lambda b: b * weights.W", "v * np.tile(np.arange(1.0, 5.0), 2)",
           extra="\nimport weights\n", more={"weights.py": "import numpy as np\n\nW = np.arange(1.0, 5.0, dtype=np.float32)\n"})
strip_prog("s34_class_attribute_array", "lambda b: b * Consts.W", "v * np.tile(np.arange(1.0, 5.0), 2)",
           extra="\n\nclass Consts:\n    W = np.arange(1.0, 5.0, dtype=np.float32)\n")
strip_prog("s35_numpy_module_attribute_array", "lambda b: b * np.e", "v * np.e")
strip_prog("s36_default_param_array_def", "scale", "v * np.tile(np.arange(1.0, 5.0), 2)",
           extra="\nW = jnp.arange(1.0, 5.0)\n\n\ndef scale(b, w=W):\n    return b * w\n")
strip_prog("s37_default_param_array_2d_default_strip", "lambda b, w=W: b * w", "(v.reshape(2, 4, 2, 4) * np.arange(1.0, 5.0)).reshape(8, 8) if False else np.block([[v[i*4:(i+1)*4, j*2:(j+1)*2] * W_NP for j in range(4)] for i in range(2)])",
           in_spec="P('x', 'y')", out_spec="P('x', 'y')", cols=64, shape="8, 8",
           extra="\nW = jnp.arange(1.0, 9.0).reshape(4, 2)\nW_NP = np.arange(1.0, 9.0).reshape(4, 2)\nN_ROWS = mesh.devices.shape[0]\n")
strip_prog("s38_default_param_scalar_control", "lambda b, s=2.0: b * s", "v * 2.0")
strip_prog("s39_jnp_array_copy_kw", "lambda b: jnp.array(b, copy=True) * 2.0", "v * 2.0")
strip_prog("s40_asarray_ndmin_like_reshape", "lambda b: jnp.asarray(b, dtype=jnp.float32) + jnp.array(b, ndmin=1)", "v * 2.0")
strip_prog("s41_numeric_rebound_by_global_setup", "lambda b: b * SCALE", None,
           extra="\nSCALE = 1.0\n\n\ndef setup():\n    global SCALE\n    SCALE = jnp.arange(1.0, 5.0)\n\n\nsetup()\n")
strip_prog("s42_out_tuple_entry_reordered", "lambda b: b * 2.0", None, in_spec="P(('x', 'y'))", out_spec="P(('y', 'x'))", cols=16)
strip_prog("s43_out_drops_y_unchecked", "lambda b: b * 2.0", None, in_spec="P(('x', 'y'))", out_spec="P('x')", cols=16, kw=", check_vma=False")
strip_prog("s44_in_y_x_out_x_y", "lambda b: b * 2.0", None, in_spec="P(('y', 'x'))", out_spec="P(('x', 'y'))", cols=16)
strip_prog("s45_two_params_second_default_block_spec_tuple", "lambda b, w=W: b * w", None, in_spec="(P('x'),)", out_spec="P('x')",
           extra="\nW = jnp.arange(1.0, 5.0)\n")
strip_prog("s46_out_x_in_x_y_unchecked_2d", "lambda b: b * 2.0", None, in_spec="P('x', 'y')", out_spec="P('x')", cols=64, shape="8, 8", kw=", check_vma=False")
# ---------------- group c: spellings of the path from the vmap to the shard_map (silences) ----------------
def path(name, pre, call, head=HEAD, mesh=AUTO, vmap="jax.vmap(step, spmd_axis_name='x')"):
    """The vmapped `step(v)` reaches `block` (a shard_map naming 'x') through `call`; `pre` defines helpers."""
    one(name, mesh + """

def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

""" + pre + f"""

def step(v):
    return {call}


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    out = VMAP(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * 2.0) else "RESULT: mismatch")


main()
""".replace("VMAP", vmap), head=head)


path("c01_checkpoint", "", "jax.checkpoint(block)(v)")
path("c02_cond", "", "jax.lax.cond(v[0] > -1.0, block, lambda a: a * 2.0, v)")
path("c03_switch", "", "jax.lax.switch(0, [block, lambda a: a * 2.0], v)")
path("c04_grad_of_loss", "\ndef loss(v):\n    return (block(v) ** 2).sum() / 8.0\n", "block(v) + 0.0 * jax.grad(loss)(v)")
path("c05_while_loop", "", "jax.lax.while_loop(lambda c: c[0] < 1, lambda c: (c[0] + 1, block(c[1])), (0, v))[1]")
path("c06_fori_loop", "", "jax.lax.fori_loop(0, 1, lambda i, a: block(a), v)")
path("c07_scan_over_rows", "", "jax.lax.scan(lambda c, r: (c, block(r)), 0.0, v.reshape(1, 8))[1].reshape(8)")
path("c08_lax_map", "", "jax.lax.map(block, v.reshape(1, 8)).reshape(8)")
path("c09_tree_map", "", "jax.tree.map(block, {'a': v})['a']")
path("c10_named_call", "", "jax.named_call(block, name='blk')(v)")
path("c11_custom_jvp", "\n@jax.custom_jvp\ndef cblock(v):\n    return block(v)\n\n\n@cblock.defjvp\ndef _cblock_jvp(p, t):\n    return cblock(p[0]), t[0] * 2.0\n", "cblock(v)")
path("c12_decorator_factory_form", "\n@jax.shard_map(mesh=mesh, in_specs=P('x'), out_specs=P('x'))\ndef deco(b):\n    return b * 2.0\n", "deco(v)")
path("c13_experimental_positional", "\nfrom jax.experimental.shard_map import shard_map as old_shard_map\n\n\ndef old(v):\n    return old_shard_map(lambda b: b * 2.0, mesh, P('x'), P('x'))(v)\n", "old(v)")
path("c14_partial_of_block_kw", "\ndef scaled(v, scale):\n    return block(v) * scale\n", "functools.partial(scaled, scale=1.0)(v)")
path("c15_in_specs_star_axes", "\nAXES = ('x',)\n\n\ndef starred(v):\n    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(*AXES), out_specs=P(*AXES))(v)\n", "starred(v)")
path("c16_in_specs_list", "\ndef listed(v):\n    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=[P('x')], out_specs=P('x'))(v)\n", "listed(v)")
path("c17_in_specs_tree_map", "\ndef mapped(v):\n    specs = jax.tree.map(lambda _: P('x'), (v,))\n    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=specs, out_specs=P('x'))(v)\n", "mapped(v)")
path("c18_in_specs_fstring_axis", "\nAX = 'x'\n\n\ndef fmt(v):\n    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(f'{AX}'), out_specs=P(f'{AX}'))(v)\n", "fmt(v)")
path("c19_getattr_jax_shard_map", "\nsm = getattr(jax, 'shard_map')\n\n\ndef dyn(v):\n    return sm(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n", "dyn(v)")
path("c20_block_from_list_index", "\nBLOCKS = [block]\n", "BLOCKS[0](v)")
path("c21_vmap_kwargs_dict", "\nVMAP_KW = dict(spmd_axis_name='x')\n", "block(v)", vmap="jax.vmap(step, **VMAP_KW)")
path("c22_spmd_from_mesh_axis_names", "", "block(v)", vmap="jax.vmap(step, spmd_axis_name=mesh.axis_names[0])")
path("c23_spmd_env_default", "\nimport os\nAXIS = os.environ.get('DATA_AXIS', 'x')\n", "block(v)", vmap="jax.vmap(step, spmd_axis_name=AXIS)")
path("c24_shard_map_alias_import", "\nfrom jax import shard_map as smap\n\n\ndef aliased(v):\n    return smap(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)\n", "aliased(v)")
path("c25_jit_static_argnames", "\n@functools.partial(jax.jit, static_argnames=('scale',))\ndef jblock(v, scale):\n    return block(v) * scale\n", "jblock(v, scale=1.0)")
path("c26_method_of_module_instance", "\nclass Runner:\n    def run(self, v):\n        return block(v)\n\n\nRUNNER = Runner()\n", "RUNNER.run(v)")
path("c27_lambda_assigned", "\nrun = lambda v: block(v)\n", "run(v)")
path("c28_vmap_over_pytree_dict", "", "block(v['a'])", vmap="(lambda a: jax.vmap(step, spmd_axis_name='x')({'a': a}))")


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


def write_missing():
    """Write the programs whose directory does not exist yet (a harness run may be reading the others)."""
    out = HERE / "progs"
    for name, files in P.items():
        if (out / name).exists():
            continue
        for rel, text in files.items():
            p = out / name / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        (out / name / "pyproject.toml").write_text(PYPROJECT.format(name=name.replace("_", "-")))
        print("wrote", name)


if __name__ == "__main__":
    import sys
    write_missing() if sys.argv[1:] == ["--missing"] else main()
