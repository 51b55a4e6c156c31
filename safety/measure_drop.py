"""Measurements behind docs/safety.md "drop-spmd-axis" (jax 0.10.2, CPU, 8 virtual devices).

Run: `python safety/measure_drop.py`; each line prints a case and OK (values match), WRONG or RAISED <error>.
"""
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, PartitionSpec as P  # noqa: E402


def attempt(name, fn, ref):
    try:
        r = fn()
        ok = np.shape(r) == np.shape(ref) and np.allclose(r, ref)
        print(name, "OK" if ok else f"WRONG {np.shape(r)} vs {np.shape(ref)}")
    except Exception as e:  # noqa: BLE001 - the error is the measurement
        print(name, "RAISED", type(e).__name__, str(e).strip().split("\n")[0][:110])


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
mesh3 = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))
X = np.arange(4*2*8, dtype=np.float32).reshape(4,2,8)
def nested(m, outer_names, inner_spec='y', outer_spec='x', inner_mesh=True, spmd_inner=False):
    def inner(b):
        kw = dict(mesh=m) if inner_mesh else {}
        return jax.shard_map(lambda t: t * 2 + 1, in_specs=P(None, inner_spec), out_specs=P(None, inner_spec), axis_names={inner_spec}, **kw)(b)
    def f(v):
        return jax.shard_map(inner, mesh=m, in_specs=P(outer_spec), out_specs=P(outer_spec), axis_names=outer_names)(v)
    return f
ref = X*2+1
attempt("base no vmap inner mesh", lambda: nested(mesh, {'x'})(X[0]), ref[0])
attempt("base no vmap inner ctx", lambda: nested(mesh, {'x'}, inner_mesh=False)(X[0]), ref[0])
attempt("base no vmap inner ctx jit", lambda: jax.jit(nested(mesh, {'x'}, inner_mesh=False))(X[0]), ref[0])
f = nested(mesh, {'x'}, inner_mesh=False)
for spmd in ('x', 'y'):
    attempt(f"M6 nested spmd={spmd}", lambda: jax.vmap(f, spmd_axis_name=spmd)(X), ref)
    attempt(f"M6 nested spmd={spmd} jit", lambda: jax.jit(jax.vmap(f, spmd_axis_name=spmd))(X), ref)
attempt("M6 nested dropped", lambda: jax.vmap(f)(X), ref)
attempt("M6 nested dropped jit", lambda: jax.jit(jax.vmap(f))(X), ref)
f3 = nested(mesh3, {'x', 'batch'}, inner_mesh=False)
attempt("M6 add-axis", lambda: jax.vmap(f3, spmd_axis_name='batch')(X), ref)
attempt("M6 add-axis jit", lambda: jax.jit(jax.vmap(f3, spmd_axis_name='batch'))(X), ref)
f3b = nested(mesh3, {'x'}, inner_mesh=False)
attempt("M6 add-axis no names", lambda: jax.vmap(f3b, spmd_axis_name='batch')(X), ref)
attempt("M6 add-axis no names jit", lambda: jax.jit(jax.vmap(f3b, spmd_axis_name='batch'))(X), ref)
fs = nested(mesh, {'x'}, outer_spec=None, inner_mesh=False)
attempt("M6 strip outer spmd=x", lambda: jax.vmap(fs, spmd_axis_name='x')(X), ref)
attempt("M6 strip outer spmd=x jit", lambda: jax.jit(jax.vmap(fs, spmd_axis_name='x'))(X), ref)
# drop with collective over x in the outer body
# drop on flax? later. Explicit mesh drop
emesh = jax.make_mesh((2,4),('x','y'))
fe = lambda v: jax.shard_map(lambda t: t*2+1, mesh=emesh, in_specs=P('x'), out_specs=P('x'))(v)
X2 = np.arange(4*8, dtype=np.float32).reshape(4,8)
attempt("M5 explicit dropped", lambda: jax.vmap(fe)(X2), X2*2+1)
attempt("M5 explicit dropped jit", lambda: jax.jit(jax.vmap(fe))(X2), X2*2+1)
# drop with capture of batched w: does dropping cure the capture too?
W = np.arange(4, dtype=np.float32)
fw = lambda w, v: jax.shard_map(lambda t: t*w, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
attempt("M5 drop with capture", lambda: jax.vmap(fw)(W, X2), X2*W[:,None])
# drop with jit + psum over x check_vma False and True
for cv in (True, False):
    fp = lambda v: jax.shard_map(lambda t: t - jax.lax.psum(t.sum(), 'x'), mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=cv)(v)
    attempt(f"M5 drop psum cv={cv}", lambda: jax.jit(jax.vmap(fp))(X2), np.stack([r - r.sum() for r in X2]))
# drop under inner vmap (H2) check_vma True
fi = lambda r: jax.vmap(lambda v: jax.shard_map(lambda t: t*2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v))(r)
attempt("M5 drop with H2 inner vmap", lambda: jax.vmap(fi)(X), X*2)
with jax.set_mesh(mesh):
    fsm = lambda v: jax.smap(lambda b: b*2+1, in_axes=0, out_axes=0, axis_name='x')(v)
    attempt("M5 smap spmd x jit", lambda: jax.jit(jax.vmap(fsm, spmd_axis_name='x'))(X2), X2*2+1)
    attempt("M5 smap dropped jit", lambda: jax.jit(jax.vmap(fsm))(X2), X2*2+1)
    attempt("M5 smap dropped eager", lambda: jax.vmap(fsm)(X2), X2*2+1)
# the plain collision on an Auto mesh, and where the batch ends up
X2 = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
fa = lambda v: jax.shard_map(lambda t: t * 2 + 1, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(v)
attempt("M5 collision spmd=x", lambda: jax.vmap(fa, spmd_axis_name="x")(X2), X2 * 2 + 1)
attempt("M5 collision dropped", lambda: jax.vmap(fa)(X2), X2 * 2 + 1)
attempt("M5 collision dropped jit", lambda: jax.jit(jax.vmap(fa))(X2), X2 * 2 + 1)
print("M5 dropped output sharding:", jax.jit(jax.vmap(fa))(X2).sharding.spec)
# jax.smap under add-axis (size-1 'batch' axis as the spmd axis): fails too
mesh3b = jax.make_mesh((1, 2, 4), ("batch", "x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 3)
with jax.set_mesh(mesh3b):
    fsb = lambda v: jax.smap(lambda b: b * 2 + 1, in_axes=0, out_axes=0, axis_name="x")(v)
    attempt("M5 smap add-axis jit", lambda: jax.jit(jax.vmap(fsb, spmd_axis_name="batch"))(X2), X2 * 2 + 1)
    attempt("M5 smap add-axis eager", lambda: jax.vmap(fsb, spmd_axis_name="batch")(X2), X2 * 2 + 1)
