"""Measurement behind docs/safety.md (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/spmd006_move_layouts.py

Each line printed: a variant, then OK (runs, equals the reference), WRONG (runs, differs) or RAISED."""
import os
os.environ['XLA_FLAGS']='--xla_force_host_platform_device_count=8'
import jax, numpy as np, jax.numpy as jnp
from jax.sharding import PartitionSpec as P, NamedSharding
def attempt(name, fn, ref):
    try:
        r=fn(); print(name, 'OK' if np.allclose(r,ref) else 'WRONG', getattr(getattr(r,'sharding',None),'spec',None))
    except Exception as e: print(name, 'RAISED', type(e).__name__, str(e).split('\n')[0][:150])
m1 = jax.make_mesh((8,),('S',))
m2 = jax.make_mesh((2,4),('x','y'))
def run(label, mesh, shape, place, ins, outs, body, jit=False):
    X = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    f = lambda v: jax.shard_map(body, mesh=mesh, in_specs=ins, out_specs=outs)(v)
    g = jax.jit(jax.vmap(f)) if jit else jax.vmap(f)
    ref = np.asarray(jax.vmap(jax.vmap(body))(X.reshape(shape[0], 1, *shape[1:]))).reshape(shape) if False else None
    return attempt(label, lambda: g(jax.device_put(X, NamedSharding(mesh, place))), refs[label.split()[0]](X))
refs = {'sum': lambda X: X - X.sum(-1, keepdims=True) / 1, 'mul': lambda X: X*2+1}
# reduction body with move: body sees per-example blocks split over S: t - psum? use local mean: block-local -> values are "the program's own"
for jit in (False, True):
    body = lambda t: t * 2 + 1
    run(f"mul 1D move 3d jit={jit}", m1, (8,8,4), P(None,'S',None), P('S'), P('S'), body, jit)
    run(f"mul 1D move-swap 3d jit={jit}", m1, (8,8,4), P(None,'S'), P('S'), P('S'), body, jit)
    run(f"mul 2x4 place(x,None,None) spec(x,y) strip->(None,y) jit={jit}", m2, (4,4,8), P('x',None,None), P(None,'y'), P(None,'y'), body, jit)
    run(f"mul 2x4 place(x,None,None) spec(x,y) move->(None,x,y) jit={jit}", m2, (4,4,8), P(None,'x','y'), P('x','y'), P('x','y'), body, jit)
    run(f"mul 2x4 place(x,None,y) spec(x,y) strip->(None,y) jit={jit}", m2, (4,4,8), P('x',None,'y'), P(None,'y'), P(None,'y'), body, jit)
    run(f"mul 2x4 place(x) spec() strip n/a P() jit={jit}", m2, (4,8), P('x'), P(), P(), body, jit)
    run(f"mul 2x4 place(x,None) spec(x) strip->P() jit={jit}", m2, (4,8), P('x',None), P(), P(), body, jit)
# reduction body: t - t.sum() per block. In the original intent, blocks per example are split by in_spec.
def red(t): return t - t.sum()
X = np.arange(8*8, dtype=np.float32).reshape(8,8)
refr = np.stack([np.concatenate([r[i:i+1] - r[i:i+1].sum() for i in range(8)]) for r in X])
for jit in (False, True):
    f = lambda v: jax.shard_map(red, mesh=m1, in_specs=P('S'), out_specs=P('S'))(v)
    g = jax.jit(jax.vmap(f)) if jit else jax.vmap(f)
    attempt(f"reduction 1D move jit={jit}", lambda: g(jax.device_put(X, NamedSharding(m1, P(None,'S')))), refr)
    f = lambda v: jax.shard_map(red, mesh=m1, in_specs=P(None), out_specs=P(None))(v)
    g = jax.jit(jax.vmap(f)) if jit else jax.vmap(f)
    attempt(f"reduction 1D strip jit={jit}", lambda: g(jax.device_put(X, NamedSharding(m1, P('S',None)))), refr)
