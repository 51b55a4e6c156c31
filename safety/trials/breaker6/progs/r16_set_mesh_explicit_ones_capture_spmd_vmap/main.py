import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"))


def main():
    with jax.set_mesh(mesh):
        bias = jnp.full((8,), 0.25, out_sharding=P("model"))
        x = jax.device_put(jnp.linspace(-1, 1, 4 * 8).reshape(4, 8), P("data", None))

        def layer(v):
            return jax.shard_map(lambda b: jnp.tanh(b) + bias, in_specs=P(), out_specs=P())(v)

        out = jax.jit(jax.vmap(layer, spmd_axis_name="data"))(x)
    ref = np.tanh(np.asarray(x)) + 0.25
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
