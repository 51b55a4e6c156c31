"""breaker18 h24: `P('x', pick(AXES))` with `def pick(names, i=1)` and `pick.__defaults__ = (2,)`: JAX reads
AXES[2], 'y'; me8 read the `def`'s default, 'z', and renamed 'x' to 'y' SAFE (the fixed program raised). A
function whose `__defaults__`, `__kwdefaults__` or `__code__` a module stores is not read: an SPMD910 record"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))

AXES = ("x", "z", "y")


def pick(names, i=1):
    return names[i]


pick.__defaults__ = (2,)


def double(b):
    return b * 2.0


def block(v):
    return jax.shard_map(double, mesh=MESH, in_specs=P("x", pick(AXES)), out_specs=P("x", pick(AXES)))(v)


def main():
    xs = np.arange(8 * 4 * 4, dtype=np.float32).reshape(8, 4, 4) / 10.0
    return jax.vmap(block, spmd_axis_name="x")(xs), xs * 2.0
