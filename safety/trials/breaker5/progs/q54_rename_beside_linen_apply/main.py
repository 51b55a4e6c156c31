import jax
import jax.numpy as jnp
import numpy as np
import flax.linen as nn
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ("data", "fsdp", "model"), axis_types=(AxisType.Auto,) * 3)
print("axes:", len(mesh.axis_names))


class Head(nn.Module):
    """Output head whose activation all-reduces over the fsdp axis (replicated input: x2)."""

    @nn.compact
    def __call__(self, h):
        return jax.shard_map(lambda b: jax.lax.psum(b, "fsdp"), mesh=mesh, in_specs=P("model"), out_specs=P("model"))(h)


head = Head()
params = head.init(jax.random.key(0), jnp.zeros(8))


def forward(x):
    h = jax.shard_map(lambda b: b - b.mean(), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
    return head.apply(params, h)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(forward, spmd_axis_name="data"))(x)
    blocks = np.asarray(x).reshape(4, 2, 4)
    ref = 2.0 * (blocks - blocks.mean(-1, keepdims=True)).reshape(4, 8)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
