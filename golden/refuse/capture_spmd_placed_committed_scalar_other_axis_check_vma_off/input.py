"""clean/capture_spmd_placed_committed_scalar_itself_other_axis with check_vma off: the shard_map body closes over
`w`, a 0-d argument the spmd vmap does not map, committed to the Explicit mesh (`P()`), the batch placed on the
spmd axis `'x'`, in_specs `P('y')`: JAX fails, `For primitive mul, context mesh ... should match the aval mesh`
under jit (eagerly `out_specs argument must refer to an axis marked as manual`; measured on jax 0.10.2:
safety/measurements/capture_spmd_placed_committed_other_axis.py). SPMD003; nothing applied (lifting is unsafe)."""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         check_vma=False)(x)


def main():
    X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    W = np.float32(1.5)
    xs = jax.device_put(X, NamedSharding(mesh, P('x', 'y')))
    ws = jax.device_put(W, NamedSharding(mesh, P()))
    result = jax.jit(jax.vmap(block, in_axes=(0, None), spmd_axis_name='x'))(xs, ws)
    return result, (X * 2 + 1) * W
