import jax
import jax.numpy as jnp
import numpy as np

from ens import config
from ens.model import forward


def per_member_loss(params, x):
    return forward(params, x)


@jax.jit
def ensemble_losses(params, xs):
    return jax.vmap(per_member_loss, in_axes=(None, 0), spmd_axis_name=config.DATA)(params, xs)
