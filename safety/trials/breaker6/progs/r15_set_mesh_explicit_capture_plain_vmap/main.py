import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("data", "model"))   # Explicit axes (the default)


def main():
    with jax.set_mesh(mesh):
        table = jax.device_put(jnp.linspace(0.5, 1.5, 4 * 8).reshape(4, 8), P("data"))
        x = jax.device_put(jnp.linspace(-1, 1, 4 * 8).reshape(4, 8), P("data"))

        def row(v, i):
            # each example scales by its row of the lookup table, closed over
            return jax.shard_map(lambda b: b * table[i], in_specs=P(), out_specs=P())(v)

        batched = jax.vmap(row)
        idx = jax.device_put(jnp.arange(4), P("data"))
        out = jax.jit(batched)(x, idx)
    ref = np.asarray(x) * np.linspace(0.5, 1.5, 32).reshape(4, 8)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")


main()
