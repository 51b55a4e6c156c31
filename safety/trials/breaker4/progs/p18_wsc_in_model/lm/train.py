import functools

import jax
import numpy as np
from jax.sharding import Mesh

from lm import config
from lm.model import embed_and_norm

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), (config.BATCH, config.EMBED))


@jax.jit
def forward(tokens, table):
    fn = functools.partial(embed_and_norm, mesh)
    return jax.vmap(fn, in_axes=(0, None), spmd_axis_name=config.BATCH)(tokens, table)
