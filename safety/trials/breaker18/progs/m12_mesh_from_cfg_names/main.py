import copy
import dataclasses
import functools
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)

class Cfg:
    def __init__(self, names=('x', 'y', 'z')):
        self.names = names


CFG = Cfg(('x', 'z', 'y'))
M = jax.make_mesh((2, 2, 2), CFG.names, axis_types=(AxisType.Auto,) * 3)



def double(b):
    return b * 2.0


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x', M.axis_names[2]), out_specs=P('x', M.axis_names[2]))(v)


def compute():
    xs = np.arange(8 * 4 * 4, dtype=np.float32).reshape(8, 4, 4) / 10.0
    return jax.vmap(block, spmd_axis_name='x')(xs)


if __name__ == "__main__":
    out = compute()
    import ref_impl
    ref = ref_impl.compute()
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(ref), atol=1e-5) else "RESULT: mismatch")
