from functools import partial

import jax

from pkg.config import MESH

smap = partial(jax.shard_map, mesh=MESH)
