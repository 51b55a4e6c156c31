import jax
import jax.numpy as jnp

from pkg import parallel


@parallel.sharded(parallel.DATA)
def rms_scale(x):
    return x * 2.0 + 1.0


@parallel.sharded(parallel.MODEL)
def shift(x):
    return x - 0.5


def layer(x):
    return jnp.tanh(shift(rms_scale(x)))


def forward(xs):
    return jax.vmap(layer, spmd_axis_name="batch")(xs)
