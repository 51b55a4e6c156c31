"""partial(kernel, cfg=cfg) vmapped in the same module; body closes over cfg (runs)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType


@jax.tree_util.register_static
@dataclasses.dataclass(frozen=True)
class Cfg:
    scale: float


mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)


def kernel(q, cfg):
    return jax.shard_map(lambda b: b * cfg.scale, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(q)


def main():
    q = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    fn = partial(kernel, cfg=Cfg(2.0))
    return jax.vmap(fn, spmd_axis_name='x')(q), np.asarray(q) * 2.0
