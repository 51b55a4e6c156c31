"""An NNX model built under `@nnx.vmap(..., spmd_axis_name='data')` (an ensemble factory) whose parameter is
annotated `nnx.with_partitioning(init, ('data', None))`: under `jax.set_mesh` flax constrains it inside the vmap
and JAX raises SPMD005's error (the initializer reads the vmapped key, so the value is batched; with
`initializers.ones` it runs); spmdfix said nothing (newuser9)."""
import jax
import numpy as np
from flax import nnx
from jax.sharding import Mesh

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Member(nnx.Module):
    def __init__(self, rngs):
        init = nnx.initializers.lecun_normal()
        self.w = nnx.Param(nnx.with_partitioning(init, ('data', None))(rngs.params(), (8, 16)))


@nnx.vmap(in_axes=0, out_axes=0, spmd_axis_name='data')
def create(key):
    return Member(nnx.Rngs(key))


def main():
    with jax.set_mesh(mesh):
        model = create(jax.random.split(jax.random.key(0), 2))
    reference = np.stack([np.asarray(nnx.initializers.lecun_normal()(nnx.Rngs(k).params(), (8, 16)))
                          for k in jax.random.split(jax.random.key(0), 2)])
    return model.w[...], reference
