from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from pkg import model


def main():
    mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    cfg = model.Config(scale=2.0, mesh=mesh)
    q = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    out = jax.vmap(partial(model.kernel, cfg=cfg), spmd_axis_name="x")(q)
    return out, np.asarray(q) * 2.0


if __name__ == '__main__':
    print(main())
