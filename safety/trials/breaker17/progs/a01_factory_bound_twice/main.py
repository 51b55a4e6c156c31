import functools
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def double(b):
    return b * 2.0

FLAG = len(jax.devices()) > 100
if FLAG:
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
else:
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))


def block(v):
    return smap(double)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block, spmd_axis_name='y')(xs)


if __name__ == "__main__":
    out = compute()
    import ref_impl
    ref = ref_impl.compute()
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(ref), atol=1e-5) else "RESULT: mismatch")
