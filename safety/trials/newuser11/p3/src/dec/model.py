"""Layers built with a shard_map decorator factory, a dataclass layer and a closure."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from dec.config import DATA, MESH


def sharded(spec):
    """Decorator factory: shard_map over MESH with one spec in and out."""
    return partial(jax.shard_map, mesh=MESH, in_specs=spec, out_specs=spec)


@sharded(P(DATA, None))
def gelu(x):
    return jax.nn.gelu(x)


@dataclasses.dataclass(frozen=True)
class Shift:
    """Adds a per-row shift; rows split over `axis`."""

    shift: float = 1.0
    axis: str = DATA

    def __call__(self, x):
        return jax.shard_map(lambda b: b + self.shift, mesh=MESH, in_specs=P(self.axis, None),
                             out_specs=P(self.axis, None))(x)


def scale_by(x, s):
    # the body closes over s
    return jax.shard_map(lambda b: b * s, mesh=MESH, in_specs=P(None, None), out_specs=P(None, None))(x)


def forward(x, s):
    return scale_by(Shift(0.5)(gelu(x)), s)
