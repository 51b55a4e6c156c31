import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


class Block(nnx.Module):
    def __init__(self, rngs):
        self.w = nnx.Param(jax.random.uniform(rngs.params(), (8,)))

    def __call__(self, x):
        return jax.shard_map(lambda a, w: jnp.tanh(a * w), mesh=mesh, in_specs=(P("data"), P("data")),
                             out_specs=P("data"))(x, self.w[...])


@nnx.split_rngs(splits=3)
@nnx.vmap(in_axes=(0,), out_axes=0)
def make_blocks(rngs):
    return Block(rngs)


def forward(blocks, x):
    @nnx.scan(in_axes=(0, nnx.Carry), out_axes=nnx.Carry)
    def step(block, h):
        return block(h)
    return step(blocks, x)


def main():
    blocks = make_blocks(nnx.Rngs(0))
    xs = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = nnx.vmap(forward, in_axes=(None, 0), spmd_axis_name="data")(blocks, xs)
    ws = np.asarray(blocks.w[...])
    ref = np.asarray(xs)
    for w in ws:
        ref = np.tanh(ref * w)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
