import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

import pkg.tweak  # noqa: F401 (rebinds helpers.pick before it is imported below)
from pkg.helpers import pick

MESH = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))
AXES = ("x", "z", "y")


def double(b):
    return b * 2.0


def block(v):
    return jax.shard_map(double, mesh=MESH, in_specs=P("x", pick(AXES, 1)), out_specs=P("x", pick(AXES, 1)))(v)


def compute():
    xs = np.arange(8 * 4 * 4, dtype=np.float32).reshape(8, 4, 4) / 10.0
    return jax.vmap(block, spmd_axis_name="x")(xs), xs * 2.0
