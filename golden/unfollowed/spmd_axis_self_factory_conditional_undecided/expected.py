"""Issue 22, a spelling spmdfix was silent on: see case.toml (safety/measurements/silent_spellings_issue22.py)."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def step(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


class Trainer:
    def __init__(self, flag):
        self.vec = functools.partial(jax.vmap, spmd_axis_name='x') if flag else jax.vmap

    def run(self, x):
        return self.vec(step)(x)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    plain = Trainer(False).run(x)
    return Trainer(True).run(x), np.asarray(plain)
