"""Measurement behind docs/safety.md (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/spmd006_strip_and_move.py

Each line printed: a variant, then OK (runs, equals the reference), WRONG (runs, differs) or RAISED."""
import os
os.environ['XLA_FLAGS']='--xla_force_host_platform_device_count=8'
import jax, numpy as np, jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P, NamedSharding
def attempt(name, fn, ref):
    try:
        r=fn(); print(name, 'OK' if np.allclose(r,ref) else 'WRONG', getattr(getattr(r,'sharding',None),'spec',None))
    except Exception as e: print(name, 'RAISED', type(e).__name__, str(e).split('\n')[0][:150])

def run(label, mesh, shape, place, ins, outs, ctx=False, axis_names=None, jit=False):
    X = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    kw = dict(in_specs=ins, out_specs=outs)
    if axis_names: kw['axis_names']=axis_names
    if not ctx: kw['mesh']=mesh
    f = lambda v: jax.shard_map(lambda t: t*2+1, **kw)(v)
    g = jax.vmap(f)
    if jit: g = jax.jit(g)
    def go():
        xs = jax.device_put(X, NamedSharding(mesh, place))
        return g(xs)
    if ctx:
        with jax.set_mesh(mesh):
            attempt(label, go, X*2+1)
    else:
        attempt(label, go, X*2+1)

m1 = jax.make_mesh((8,),('S',))
m2 = jax.make_mesh((2,4),('x','y'))
for jit in (False, True):
  for ctx in (False, True):
    t=f"jit={jit} ctx={ctx}"
    run(f"1D orig {t}", m1, (8,8), P('S',None), P('S'), P('S'), ctx, jit=jit)
    run(f"1D strip {t}", m1, (8,8), P('S',None), P(None), P(None), ctx, jit=jit)
    run(f"1D move {t}", m1, (8,8), P(None,'S'), P('S'), P('S'), ctx, jit=jit)
    run(f"2x4 Px orig {t}", m2, (4,8), P('x',None), P('x'), P('x'), ctx, jit=jit)
    run(f"2x4 Px strip {t}", m2, (4,8), P('x',None), P(None), P(None), ctx, jit=jit)
    run(f"2x4 Px move {t}", m2, (4,8), P(None,'x'), P('x'), P('x'), ctx, jit=jit)
    run(f"2x4 Pxy orig {t}", m2, (4,8), P('x','y'), P('x'), P('x'), ctx, jit=jit)
    run(f"2x4 Pxy strip {t}", m2, (4,8), P('x','y'), P(None), P(None), ctx, jit=jit)
    run(f"2x4 Pxy move->P(None,x) {t}", m2, (4,8), P(None,'x'), P('x'), P('x'), ctx, jit=jit)
    run(f"2x4 Pxy move->P(None,y) {t}", m2, (4,8), P(None,'y'), P('x'), P('x'), ctx, jit=jit)
    run(f"2x4 Pxy specs y: orig {t}", m2, (4,8), P('x','y'), P(('x','y')), P(('x','y')), ctx, jit=jit)
    run(f"2x4 Pxy specs (x,y) strip->y {t}", m2, (4,8), P('x','y'), P('y'), P('y'), ctx, jit=jit)
    run(f"2x4 Pxy specs (x,y) move->P(None,(x,y)) {t}", m2, (4,8), P(None,('x','y')), P(('x','y')), P(('x','y')), ctx, jit=jit)
    run(f"2x4 Px an={{x,y}} strip {t}", m2, (4,8), P('x',None), P(None), P(None), ctx, axis_names={'x','y'}, jit=jit)
    run(f"2x4 Px an={{x,y}} orig {t}", m2, (4,8), P('x',None), P('x'), P('x'), ctx, axis_names={'x','y'}, jit=jit)
    run(f"2x4 Px an={{x}} strip {t}", m2, (4,8), P('x',None), P(None), P(None), ctx, axis_names={'x'}, jit=jit)
    run(f"2x4 Px an={{x}} strip an={{y}} {t}", m2, (4,8), P('x',None), P(None), P(None), ctx, axis_names={'y'}, jit=jit)
    run(f"2x4 Px an={{x,y}} move {t}", m2, (4,8), P(None,'x'), P('x'), P('x'), ctx, axis_names={'x','y'}, jit=jit)
