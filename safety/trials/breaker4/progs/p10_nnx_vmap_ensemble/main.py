import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("ens", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def sharded_relu(x):
    return jax.shard_map(jax.nn.relu, mesh=mesh, in_specs=P(None, "ens"), out_specs=P(None, "ens"))(x)


class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.lin = nnx.Linear(8, 8, rngs=rngs)

    def __call__(self, x):
        return sharded_relu(self.lin(x))


@nnx.split_rngs(splits=4)
@nnx.vmap(in_axes=(0,), out_axes=0)
def make_ensemble(rngs: nnx.Rngs):
    return MLP(rngs)


@nnx.vmap(in_axes=(0, None), out_axes=0, spmd_axis_name="ens")
def ensemble_forward(model: MLP, x):
    return model(x)


def main():
    models = make_ensemble(nnx.Rngs(0))
    x = jnp.linspace(-1, 1, 2 * 8).reshape(2, 8)
    out = ensemble_forward(models, x)
    # reference: unbatched per-member computation
    graphdef, state = nnx.split(models)
    ref = []
    for i in range(4):
        m = nnx.merge(graphdef, jax.tree.map(lambda a: a[i], state))
        ref.append(np.maximum(np.asarray(m.lin(x)), 0))
    print("RESULT:", "match" if np.allclose(out, np.stack(ref), atol=1e-5) else "mismatch")


main()
