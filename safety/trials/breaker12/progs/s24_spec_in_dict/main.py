import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))

SPECS = {'rows': P('x'), 'full': P()}


def centre(a):
    # run outside the vmap: subtracts each block's own mean
    return jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=SPECS['rows'], out_specs=SPECS['rows'])(a)


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=SPECS['rows'], out_specs=SPECS['rows'])(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) + 1.0
    out = jax.vmap(block, spmd_axis_name='x')(xs)
    c = centre(xs[0])
    ref_c = np.concatenate([xs[0][:4] - xs[0][:4].mean(), xs[0][4:] - xs[0][4:].mean()])
    ok = np.allclose(np.asarray(out), xs * 2.0) and np.allclose(np.asarray(c), ref_c)
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
