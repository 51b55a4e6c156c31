"""breaker18 h22: `P('x', pick(AXES))` with `def pick(names): global J; J = 2; bump(); return names[J]`, `bump`
setting `J = 1`: JAX reads AXES[1], 'z'; me8 read the local store `J = 2`, 'y', and renamed 'x' to 'z' SAFE (the
fixed program raised). A name a `global` statement names, read in a call evaluated, is not read: an SPMD910
record"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))

AXES = ("x", "z", "y")
J = 0


def bump():
    global J
    J = 1


def pick(names):
    global J
    J = 2
    bump()
    return names[J]


def double(b):
    return b * 2.0


def block(v):
    return jax.shard_map(double, mesh=MESH, in_specs=P("x", pick(AXES)), out_specs=P("x", pick(AXES)))(v)


def main():
    xs = np.arange(8 * 4 * 4, dtype=np.float32).reshape(8, 4, 4) / 10.0
    return jax.vmap(block, spmd_axis_name="x")(xs), xs * 2.0
