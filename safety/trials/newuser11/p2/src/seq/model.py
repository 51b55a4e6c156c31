"""Layers: shard_map'd functions and a class with __call__."""
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from seq.config import AXIS_SIZE, DATA, MESH, MODEL


def _scale(b):
    return b * 0.5 + 1.0


def scale(x):
    """Elementwise; rows over DATA."""
    return jax.shard_map(_scale, mesh=MESH, in_specs=P(DATA, None), out_specs=P(DATA, None))(x)


def _center(b):
    # mean over the rows of the whole array: local mean, then averaged over DATA
    return b - jax.lax.pmean(jnp.mean(b, axis=0, keepdims=True), DATA)


def center(x):
    return jax.shard_map(_center, mesh=MESH, in_specs=P(DATA, None), out_specs=P(DATA, None))(x)


class Mix:
    """Mixes columns, split over MODEL: y = x @ w / n_model."""

    axis = MODEL

    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        def body(xb, wb):
            return jax.lax.psum(xb @ wb, self.axis) / AXIS_SIZE[self.axis]

        return jax.shard_map(body, mesh=MESH, in_specs=(P(DATA, self.axis), P(self.axis, None)),
                             out_specs=P(DATA, None))(x, self.w)


def block(w, x):
    return center(Mix(w)(scale(x)))


def stack(ws, x):
    def step(h, w):
        return block(w, h), None

    h, _ = jax.lax.scan(step, x, ws)
    return h
