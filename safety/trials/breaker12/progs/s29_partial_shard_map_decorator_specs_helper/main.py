import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


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
