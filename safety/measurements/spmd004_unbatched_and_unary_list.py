"""Measurement behind docs/safety.md (jax 0.10.2, CPU, 8 virtual devices). Run: python safety/measurements/spmd004_unbatched_and_unary_list.py

Each line printed: a variant, then OK (runs, equals the reference), WRONG (runs, differs) or RAISED."""
import os
os.environ['XLA_FLAGS']='--xla_force_host_platform_device_count=8'
import jax, numpy as np, jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P
def attempt(name, fn, ref):
    try:
        r=fn(); print(name, 'OK' if np.allclose(np.asarray(r),ref) else 'WRONG')
    except Exception as e: print(name, 'RAISED', type(e).__name__, str(e).split('\n')[0][:100])
m1 = Mesh(np.array(jax.devices()), ('i',))
m2 = Mesh(np.array(jax.devices()).reshape(2,4), ('x','y'))
X = np.arange(8*8, dtype=np.float32).reshape(8,8)
W = np.arange(8, dtype=np.float32)
for c in (True, False):
    def f3(x, w):
        return jax.shard_map(lambda a, b: a + jax.lax.psum(b, 'i'), mesh=m1, in_specs=(P(), P()), out_specs=P(), check_vma=c)(x, w)
    attempt(f"mixed operand, psum of unbatched b check_vma={c}", lambda: jax.vmap(f3, in_axes=(0,None), spmd_axis_name='i')(X, W), X + W*8)
    def f5(x, w):
        return jax.shard_map(lambda a, b: a + jax.lax.psum(b, 'i'), mesh=m1, in_specs=(P(), P('i')), out_specs=P(), check_vma=c)(x, w)
    def f4(x, w):
        return jax.shard_map(lambda a, b: a + jax.lax.psum(a, 'i'), mesh=m1, in_specs=(P(), P()), out_specs=P(), check_vma=c)(x, w)
    attempt(f"mixed operand, psum of batched a check_vma={c}", lambda: jax.vmap(f4, in_axes=(0,None), spmd_axis_name='i')(X, W), X*9)
    def f6(x, w):
        s = jax.shard_map(lambda b: b * jax.lax.psum(1.0, 'i') + jax.lax.pmean(b, 'i'), mesh=m1, in_specs=P(), out_specs=P(), check_vma=c)(w)
        return x * s
    attempt(f"unbatched sm, jit, check_vma={c}", lambda: jax.jit(jax.vmap(f6, in_axes=(0,None), spmd_axis_name='i'))(X, W), X * (W*8 + W))
X3 = np.arange(4*4*8, dtype=np.float32).reshape(4,4,8)/10 + 0.1
bodies = {
 'abs': jnp.abs, 'sqrt': jnp.sqrt, 'log': jnp.log, 'sigmoid': jax.nn.sigmoid, 'relu': jax.nn.relu,
 'gelu': jax.nn.gelu, 'square': jnp.square, 'cos': jnp.cos, 'floor': jnp.floor, 'exp2': jnp.exp2,
 'v**3': lambda v: v ** 3, 'v**0.5': lambda v: v ** 0.5, 'astype': lambda v: v.astype(jnp.float32), 'astype16': lambda v: v.astype(jnp.float16),
 'log1p': jnp.log1p, 'tanh': jnp.tanh, 'rsqrt': jax.lax.rsqrt, 'neg': jnp.negative, 'sign': jnp.sign, 'silu': jax.nn.silu,
 'softplus': jax.nn.softplus, 'reciprocal': jnp.reciprocal, 'expm1': jnp.expm1, 'sin(v)**2': lambda v: jnp.sin(v)**2,
}
for name, body in bodies.items():
    def h(x, body=body):
        return jax.shard_map(jax.vmap(body), mesh=m2, in_specs=P('y'), out_specs=P('y'))(x)
    ref = np.asarray(jax.vmap(jax.vmap(body))(X3))
    attempt(f"inner vmap in body {name}", lambda: jax.vmap(h, spmd_axis_name='x')(X3), ref)
