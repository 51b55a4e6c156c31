import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def relu_block(x):
    return jax.shard_map(jax.nn.relu, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def tanh_block(x):
    return jax.shard_map(jnp.tanh, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)


ACTIVATIONS = {"relu": relu_block, "tanh": tanh_block}


def make_forward(act_name):
    act = ACTIVATIONS[act_name]

    def forward(x):
        return act(x * 2.0)
    return forward


def main():
    xs = jnp.linspace(-1, 1, 32).reshape(4, 8)
    out = jax.vmap(make_forward("relu"), spmd_axis_name="data")(xs)
    print("RESULT:", "match" if np.allclose(out, np.maximum(np.asarray(xs) * 2, 0)) else "mismatch")


main()
