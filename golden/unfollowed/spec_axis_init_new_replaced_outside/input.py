"""breaker18 i25: `P('x', cfg.axis)` with `cfg = Config('z')` and `Config.__new__` replaced after the class by one
building a `Sub` whose `__init__` runs `super().__init__('y')`: JAX reads 'y'; me8 read 'z' and renamed 'x' to
'y' SAFE (the fixed program raised). A class whose `__new__` (or `__init__`, `__setattr__`, `__class__` of an
instance...) a module stores from outside keeps its instances' attributes unread: an SPMD910 record"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))


class Config:
    def __init__(self, axis="x"):
        self.axis = axis


class Sub(Config):
    def __init__(self, axis="x"):
        super().__init__("y")


Config.__new__ = lambda cls, *args, **kwargs: object.__new__(Sub)
cfg = Config("z")


def double(b):
    return b * 2.0


def block(v):
    return jax.shard_map(double, mesh=MESH, in_specs=P("x", cfg.axis), out_specs=P("x", cfg.axis))(v)


def main():
    xs = np.arange(8 * 4 * 4, dtype=np.float32).reshape(8, 4, 4) / 10.0
    return jax.vmap(block, spmd_axis_name="x")(xs), xs * 2.0
