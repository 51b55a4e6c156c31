"""breaker18 h16: `P('x', pick(AXES, 1))` with `def pick(names, i)` whose nested `bump` rebinds `i` by `nonlocal`:
JAX reads AXES[2], 'y'. me8 read the argument, 'z', and renamed the spmd axis 'x' to 'y' SAFE (the fixed program
raised). The parameter a `nonlocal` statement names is not read: an SPMD910 record, rename unsafe"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))

AXES = ("x", "z", "y")


def pick(names, i):
    def bump():
        nonlocal i
        i = 2

    bump()
    return names[i]


def double(b):
    return b * 2.0


def block(v):
    return jax.shard_map(double, mesh=MESH, in_specs=P("x", pick(AXES, 1)), out_specs=P("x", pick(AXES, 1)))(v)


def main():
    xs = np.arange(8 * 4 * 4, dtype=np.float32).reshape(8, 4, 4) / 10.0
    return jax.vmap(block, spmd_axis_name="x")(xs), xs * 2.0
