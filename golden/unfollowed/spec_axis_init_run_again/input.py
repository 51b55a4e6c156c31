"""breaker18 i01: `P('x', cfg.axis)` with `cfg = Config(axis='z')` and then `__init__` run again on `cfg` with
axis="y": JAX reads 'y'; me8 read the construction's 'z' and renamed 'x' to 'y' SAFE (the fixed program raised).
An instance whose `__init__` a module runs again is not read: an SPMD910 record"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))


class Config:
    def __init__(self, axis="x"):
        self.axis = axis


cfg = Config(axis="z")
cfg.__init__(axis="y")


def double(b):
    return b * 2.0


def block(v):
    return jax.shard_map(double, mesh=MESH, in_specs=P("x", cfg.axis), out_specs=P("x", cfg.axis))(v)


def main():
    xs = np.arange(8 * 4 * 4, dtype=np.float32).reshape(8, 4, 4) / 10.0
    return jax.vmap(block, spmd_axis_name="x")(xs), xs * 2.0
