import jax, jax.numpy as jnp, numpy as np
from jax.sharding import NamedSharding
from ens import specs
from ens.config import CFG
from ens.mesh import MESH


def scale(x):
    y = x * 3.0
    return jax.lax.with_sharding_constraint(y, NamedSharding(MESH, specs.rows()))


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    out = jax.jit(jax.vmap(scale, spmd_axis_name=CFG.data))(xs)
    return out, np.asarray(xs) * 3.0
