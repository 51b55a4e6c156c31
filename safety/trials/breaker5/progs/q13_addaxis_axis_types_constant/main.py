import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

AXIS_TYPES = (AxisType.Auto, AxisType.Auto)
train_mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=AXIS_TYPES)
eval_mesh = jax.make_mesh((4, 2), ("replica", "model"), axis_types=AXIS_TYPES)


def block(x):
    return jax.shard_map(jnp.tanh, mesh=train_mesh, in_specs=P("data"), out_specs=P("data"))(x)


def evaluate(x):
    return jax.shard_map(jnp.tanh, mesh=eval_mesh, in_specs=P("replica"), out_specs=P("replica"))(x)


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name="data"))(x)
    ev = evaluate(x)
    ref = np.tanh(np.asarray(x))
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) and np.allclose(ev, ref, atol=1e-5) else "mismatch")


main()
