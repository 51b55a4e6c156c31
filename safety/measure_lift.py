"""Measurements behind docs/safety.md "lift-captures: the allowlist" (jax 0.10.2, CPU, 8 virtual devices).

Run: `python safety/measure_lift.py`; each line prints a case and OK (values match), WRONG or RAISED <error>.
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
X = np.arange(4*16, dtype=np.float32).reshape(4,16)
# M1 static n
def f_static(x):
    n = x.shape[0] // mesh.shape['y']
    return jax.shard_map(lambda t: jax.lax.dynamic_slice_in_dim(t, 0 * n, n) * 2, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
def f_lifted(x):
    n = x.shape[0] // mesh.shape['y']
    return jax.shard_map(lambda t, n: jax.lax.dynamic_slice_in_dim(t, 0 * n, n) * 2, mesh=mesh, in_specs=(P('y'), P()), out_specs=P('y'))(x, n)
attempt("M1 static n closure jit", lambda: jax.jit(jax.vmap(f_static, spmd_axis_name='x'))(X), X*2)
attempt("M1 static n closure eager", lambda: jax.vmap(f_static, spmd_axis_name='x')(X), X*2)
attempt("M1 lifted n jit", lambda: jax.jit(jax.vmap(f_lifted, spmd_axis_name='x'))(X), X*2)
attempt("M1 lifted n eager", lambda: jax.vmap(f_lifted, spmd_axis_name='x')(X), X*2)
# M2 jit(shard_map) capture of batched w
W = np.arange(4, dtype=np.float32)
def f_jsm(w, x):
    return jax.jit(jax.shard_map(lambda b: b + w, mesh=mesh, in_specs=P('y'), out_specs=P('y')))(x)
attempt("M2 jit(shard_map) capture eager", lambda: jax.vmap(f_jsm, spmd_axis_name='x')(W, X), X + W[:,None])
attempt("M2 jit(shard_map) capture jit", lambda: jax.jit(jax.vmap(f_jsm, spmd_axis_name='x'))(W, X), X + W[:,None])
def f_jsm2(w, x):
    return jax.jit(jax.shard_map(lambda b: b + w, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False))(x)
attempt("M2 jit(shard_map) capture check_vma=False", lambda: jax.vmap(f_jsm2, spmd_axis_name='x')(W, X), X + W[:,None])
def f_jsm3(w, x):
    return jax.jit(jax.shard_map(lambda: w*jnp.ones(2), mesh=mesh, in_specs=(), out_specs=P()))()
attempt("M2 jit(shard_map) capture in_specs=()", lambda: jax.vmap(f_jsm3, spmd_axis_name='x')(W, X), W[:,None]*np.ones(2))
def f_sm(w, x):
    return jax.shard_map(lambda b: b + w, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
attempt("M2 control shard_map capture", lambda: jax.vmap(f_sm, spmd_axis_name='x')(W, X), X + W[:,None])
W = np.linspace(0.5, 1.5, 8, dtype=np.float32)
WJ = jnp.asarray(W)
xs = np.linspace(-2, 2, 32, dtype=np.float32).reshape(4, 8)
ref = xs*W
for spmd in ('x','y',('x','y')):
  for cv in (True, False):
    f = lambda a: jax.shard_map(lambda b: b * W, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=cv)(a)
    attempt(f"M3 np W closure spmd={spmd} cv={cv}", lambda: jax.vmap(f, spmd_axis_name=spmd)(xs), ref)
  g = lambda a: jax.shard_map(lambda b, w: b * w, mesh=mesh, in_specs=(P(), P()), out_specs=P())(a, W)
  attempt(f"M3 np W lifted P() spmd={spmd}", lambda: jax.vmap(g, spmd_axis_name=spmd)(xs), ref)
  attempt(f"M3 np W lifted P() spmd={spmd} jit", lambda: jax.jit(jax.vmap(g, spmd_axis_name=spmd))(xs), ref)
f = lambda a: jax.shard_map(lambda b: b * WJ, mesh=mesh, in_specs=P(), out_specs=P())(a)
attempt("M3 jnp W closure", lambda: jax.vmap(f, spmd_axis_name='x')(xs), ref)
attempt("M3 jnp W closure jit", lambda: jax.jit(jax.vmap(f, spmd_axis_name='x'))(xs), ref)
def floc(a):
    w = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)
    return jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P(), out_specs=P())(a)
attempt("M3 local unbatched W closure", lambda: jax.vmap(floc, spmd_axis_name='x')(xs), ref)
def fpar(w, a):
    return jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P(), out_specs=P())(a)
attempt("M3 in_axes None param closure", lambda: jax.vmap(fpar, in_axes=(None,0), spmd_axis_name='x')(W, xs), ref)
fs = lambda a: jax.shard_map(lambda b: b * np.float32(2.0), mesh=mesh, in_specs=P(), out_specs=P())(a)
attempt("M3 scalar np closure", lambda: jax.vmap(fs, spmd_axis_name='x')(xs), xs*2)
S = jnp.float32(2.0)
fs2 = lambda a: jax.shard_map(lambda b: b * S, mesh=mesh, in_specs=P(), out_specs=P())(a)
attempt("M3 scalar jnp closure", lambda: jax.vmap(fs2, spmd_axis_name='x')(xs), xs*2)
fy = lambda a: jax.shard_map(lambda b: b * W[:2], mesh=mesh, in_specs=P('y'), out_specs=P('y'))(a)
attempt("M3 np W closure specs P('y')", lambda: jax.vmap(fy, spmd_axis_name='x')(xs), xs*np.tile(W[:2],4))
fn = lambda a: jax.shard_map(lambda b: b * W, mesh=mesh, in_specs=P(None), out_specs=P(None))(a)
attempt("M3 np W closure specs P(None)", lambda: jax.vmap(fn, spmd_axis_name='x')(xs), ref)
fu = lambda a: jax.shard_map(lambda b: b + jnp.sin(W).sum(), mesh=mesh, in_specs=P(), out_specs=P())(a)
attempt("M3 W reduced to scalar in body", lambda: jax.vmap(fu, spmd_axis_name='x')(xs), xs+np.sin(W).sum())
f2 = lambda a: jax.shard_map(lambda b, c: b * c + W, mesh=mesh, in_specs=(P(), P()), out_specs=P())(a, a)
attempt("M3 closure with 2 operands", lambda: jax.vmap(f2, spmd_axis_name='x')(xs), xs*xs+W)
fo = lambda a: jax.shard_map(lambda b: jnp.sin(b) + 1, mesh=mesh, in_specs=P(), out_specs=P())(a)
attempt("M3 no closure control", lambda: jax.vmap(fo, spmd_axis_name='x')(xs), np.sin(xs)+1)
W4 = np.arange(4, dtype=np.float32)+1
X = np.arange(4*4*8, dtype=np.float32).reshape(4,4,8)
ref = X * W4[:,None,None]
for cv in (False, True):
    def f0(w, x):
        return jax.shard_map(jax.vmap(lambda r: r * w), mesh=mesh, in_specs=P(None,'y'), out_specs=P(None,'y'), check_vma=cv)(x)
    attempt(f"M4 input cv={cv}", lambda: jax.vmap(f0, spmd_axis_name='x')(W4, X), ref)
    def f1(w, x):
        return jax.shard_map(jax.vmap(lambda r, w: r * w), mesh=mesh, in_specs=(P(None,'y'), P()), out_specs=P(None,'y'), check_vma=cv)(x, w)
    attempt(f"M4 naive lift cv={cv}", lambda: jax.vmap(f1, spmd_axis_name='x')(W4, X), ref)
    def f2(w, x):
        return jax.shard_map(jax.vmap(lambda r, w: r * w, in_axes=(0, None)), mesh=mesh, in_specs=(P(None,'y'), P()), out_specs=P(None,'y'), check_vma=cv)(x, w)
    attempt(f"M4 in_axes lift cv={cv}", lambda: jax.vmap(f2, spmd_axis_name='x')(W4, X), ref)
    attempt(f"M4 in_axes lift cv={cv} jit", lambda: jax.jit(jax.vmap(f2, spmd_axis_name='x'))(W4, X), ref)
    # def body decorated
    def f3(w, x):
        def g(r, w):
            return r * w
        return jax.shard_map(jax.vmap(g, in_axes=(0, None)), mesh=mesh, in_specs=(P(None,'y'), P()), out_specs=P(None,'y'), check_vma=cv)(x, w)
    attempt(f"M4 def g in_axes lift cv={cv}", lambda: jax.vmap(f3, spmd_axis_name='x')(W4, X), ref)
# unary-only body under check_vma True with vmap body: capture of w with unary? skip
# M4b: nested jit wrapper body: shard_map(jax.jit(lambda b: b*w))
def f4(w, x):
    return jax.shard_map(jax.jit(lambda b: b * w), mesh=mesh, in_specs=P(None,'y'), out_specs=P(None,'y'))(x)
attempt("M4b jit body capture", lambda: jax.vmap(f4, spmd_axis_name='x')(W4, X), ref)
def f5(w, x):
    return jax.shard_map(jax.jit(lambda b, w: b * w), mesh=mesh, in_specs=(P(None,'y'), P()), out_specs=P(None,'y'))(x, w)
attempt("M4b jit body lifted", lambda: jax.vmap(f5, spmd_axis_name='x')(W4, X), ref)
# no operand at all: nothing varies, the closure runs
fe = lambda a: a + jax.shard_map(lambda: W * 2, mesh=mesh, in_specs=(), out_specs=P())()
attempt("M3 empty in_specs closure W", lambda: jax.vmap(fe, spmd_axis_name="x")(xs), xs + W * 2)
