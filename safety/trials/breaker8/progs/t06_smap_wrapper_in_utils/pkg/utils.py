import jax

from pkg.config import MESH


def smap(fn, in_specs, out_specs):
    """shard_map over the project mesh."""
    return jax.shard_map(fn, mesh=MESH, in_specs=in_specs, out_specs=out_specs)
