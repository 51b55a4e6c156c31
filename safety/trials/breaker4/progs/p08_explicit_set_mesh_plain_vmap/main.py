import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"))


def gelu_block(x):
    return jax.shard_map(jax.nn.gelu, in_specs=P("data"), out_specs=P("data"))(x)


def main():
    with jax.set_mesh(mesh):
        xs = jax.device_put(jnp.linspace(-2, 2, 4 * 8).reshape(4, 8), NamedSharding(mesh, P("data", None)))
        out = jax.jit(jax.vmap(gelu_block))(xs)
    ref = jax.nn.gelu(np.linspace(-2, 2, 32).reshape(4, 8))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
