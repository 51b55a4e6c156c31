"""breaker18 i07: `P('x', cfg.axis)` with `cfg = Config('z')`, its `__init__` storing its parameter on the instance
but the class body binding `axis = property(...)` (getter 'y', setter ignoring): JAX reads 'y'; me8 read 'z' and
renamed 'x' to 'y' SAFE (the fixed program raised). A class body binding the attribute (a property, a
descriptor) keeps it unread: an SPMD910 record"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))


class Config:
    axis = property(lambda self: "y", lambda self, value: None)

    def __init__(self, axis="x"):
        self.axis = axis


cfg = Config("z")


def double(b):
    return b * 2.0


def block(v):
    return jax.shard_map(double, mesh=MESH, in_specs=P("x", cfg.axis), out_specs=P("x", cfg.axis))(v)


def main():
    xs = np.arange(8 * 4 * 4, dtype=np.float32).reshape(8, 4, 4) / 10.0
    return jax.vmap(block, spmd_axis_name="x")(xs), xs * 2.0
