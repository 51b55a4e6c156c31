"""Measurement behind docs/safety.md (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/spmd004_spmd007_false_positives.py

Each line printed: a variant, then OK (runs, equals the reference), WRONG (runs, differs) or RAISED."""
import os
os.environ['XLA_FLAGS']='--xla_force_host_platform_device_count=8'
import jax, numpy as np, jax.numpy as jnp
from jax.sharding import Mesh, AxisType, PartitionSpec as P, NamedSharding
def attempt(name, fn, ref):
    try:
        r=fn(); print(name, 'OK' if np.allclose(np.asarray(r),ref) else 'WRONG', getattr(getattr(r,'sharding',None),'spec',None))
    except Exception as e: print(name, 'RAISED', type(e).__name__, str(e).split('\n')[0][:150])
m1 = Mesh(np.array(jax.devices()), ('i',))
m2 = Mesh(np.array(jax.devices()).reshape(2,4), ('x','y'))
X = np.arange(4*8, dtype=np.float32).reshape(4,8)
W = np.arange(8, dtype=np.float32)
# item 7a: psum over spmd axis on an unbatched operand
for c in (True, False):
    def f(x, w):
        s = jax.shard_map(lambda b: jax.lax.psum(b, 'i'), mesh=m1, in_specs=P('i'), out_specs=P(), check_vma=c)(w)
        return x + s
    ref = X + W.reshape(8,1).sum(0) if False else X + np.full(1, W.sum())
    ref = X + W.sum()
    # s: psum of blocks of w (size 1 each) -> shape (1,), value sum(W)
    attempt(f"7a psum unbatched in P(i) check_vma={c}", lambda: jax.vmap(f, in_axes=(0,None), spmd_axis_name='i')(X, W), ref)
    def f2(x, w):
        s = jax.shard_map(lambda b: b + jax.lax.psum(b, 'i'), mesh=m1, in_specs=P(), out_specs=P(), check_vma=c)(w)
        return x + s
    attempt(f"7a' psum unbatched in P() check_vma={c}", lambda: jax.vmap(f2, in_axes=(0,None), spmd_axis_name='i')(X, W), X + W*9)
    # mixed: shard_map with batched x AND unbatched w, psum of b from w
    def f3(x, w):
        return jax.shard_map(lambda a, b: a + jax.lax.psum(b, 'i'), mesh=m1, in_specs=(P(), P()), out_specs=P(), check_vma=c)(x, w)
    attempt(f"7a'' mixed operand, psum of unbatched b check_vma={c}", lambda: jax.vmap(f3, in_axes=(0,None), spmd_axis_name='i')(X, W), X + W*8)
    def f4(x, w):
        return jax.shard_map(lambda a, b: a + jax.lax.psum(a, 'i'), mesh=m1, in_specs=(P(), P()), out_specs=P(), check_vma=c)(x, w)
    attempt(f"7a''' mixed operand, psum of batched a check_vma={c}", lambda: jax.vmap(f4, in_axes=(0,None), spmd_axis_name='i')(X, W), X*9)
# 7b size-1 spmd axis collective check_vma=False
m18 = Mesh(np.array(jax.devices()).reshape(1,8), ('b','i'))
for c in (True, False):
    def g(x):
        return jax.shard_map(lambda v: v + jax.lax.psum(v.sum(), 'b'), mesh=m18, in_specs=P('i'), out_specs=P('i'), check_vma=c)(x)
    ref = np.stack([r + np.array([r[j*1:(j+1)*1].sum() for j in range(8)]) for r in X])
    attempt(f"7b size-1 spmd axis psum check_vma={c}", lambda: jax.vmap(g, spmd_axis_name='b')(X), ref)
    def g2(x):
        return jax.shard_map(lambda v: v * (1 + jax.lax.axis_index('b')), mesh=m18, in_specs=P('i'), out_specs=P('i'), check_vma=c)(x)
    attempt(f"7b size-1 spmd axis axis_index check_vma={c}", lambda: jax.vmap(g2, spmd_axis_name='b')(X), X)
# 7c SPMD007 unary inner vmap
for body, name in ((lambda v: jnp.sin(v), 'sin'), (lambda v: jnp.exp(-v), 'exp(-v)'), (lambda v: v ** 2, 'v**2'), (lambda v: v*2.0, 'v*2'), (lambda v: jnp.tanh(jnp.sin(v)), 'tanh(sin)'), (lambda v: -v, 'neg')):
    def h(x):
        return jax.shard_map(jax.vmap(body), mesh=m2, in_specs=P('y'), out_specs=P('y'))(x)
    X3 = np.arange(4*4*8, dtype=np.float32).reshape(4,4,8)/10
    ref = np.asarray(jax.vmap(jax.vmap(body))(X3))
    attempt(f"7c inner vmap in body {name}", lambda: jax.vmap(h, spmd_axis_name='x')(X3), ref)
    def h2(x):
        return jax.vmap(lambda r: jax.shard_map(body, mesh=m2, in_specs=P('y'), out_specs=P('y'))(r))(x)
    attempt(f"7c inner vmap between {name}", lambda: jax.vmap(h2, spmd_axis_name='x')(X3), ref)
