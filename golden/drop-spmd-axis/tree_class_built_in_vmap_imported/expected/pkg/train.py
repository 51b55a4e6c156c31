import jax

from pkg import model
from pkg.model import Scale


def stat(x):
    return Scale(x).s


def built(x):
    return model.Built(x).y


def run(xs):
    return jax.vmap(stat, spmd_axis_name='data')(xs), jax.vmap(built)(xs)
