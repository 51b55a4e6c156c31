"""Axis names from tuple unpacking, a spec from a dict display, and a spec spelled P(*ENTRIES)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

STAGE, SPARE, MODEL = 'stage', 'spare', 'model'
SPECS = {'act': P(STAGE, MODEL)}
OUT_ENTRIES = [STAGE, MODEL]

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), (STAGE, SPARE, MODEL))


def body(v):
    return v * 3.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=SPECS['act'], out_specs=P(*OUT_ENTRIES))(x)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8)
    result = jax.vmap(layer, spmd_axis_name=SPARE)(xs)
    reference = np.asarray(xs) * 3.0
    return result, reference
