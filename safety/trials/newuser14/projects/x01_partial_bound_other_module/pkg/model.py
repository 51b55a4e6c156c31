import dataclasses
from functools import partial
import jax


@jax.tree_util.register_static
@dataclasses.dataclass
class Config:
    scale: float
    mesh: jax.sharding.Mesh | None = None


def kernel(q, cfg: Config):
    spec = jax.sharding.PartitionSpec('y')
    @partial(jax.shard_map, mesh=cfg.mesh, in_specs=spec, out_specs=spec)
    def _f(q):
        return q * cfg.scale
    return _f(q)


def kernel2(w, q):
    spec = jax.sharding.PartitionSpec('y')
    @partial(jax.shard_map, mesh=MESH, in_specs=spec, out_specs=spec)
    def _f(q):
        return q * w
    return _f(q)


MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def kernel3(q, scale):
    s = q.sum() * scale
    spec = jax.sharding.PartitionSpec('y')
    return jax.shard_map(lambda b: b * s, mesh=MESH, in_specs=spec, out_specs=spec)(q)
