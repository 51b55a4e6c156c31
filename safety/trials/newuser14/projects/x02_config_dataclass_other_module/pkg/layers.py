import jax

from pkg.config import MESH
from pkg.specs import activation_spec


def dense(x):
    spec = activation_spec()
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=spec, out_specs=spec)(x)
