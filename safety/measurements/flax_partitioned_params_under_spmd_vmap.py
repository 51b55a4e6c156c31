"""What JAX does with parameters annotated for the mesh (`nn.with_partitioning`, `nnx.with_partitioning`,
`nn.with_logical_partitioning`) created inside an spmd vmap (flax 0.12.8, jax 0.10.2).

Run: `python safety/measurements/flax_partitioned_params_under_spmd_vmap.py` (8 virtual CPU devices, set by
`_outcome`). newuser9's trial: a Linen module under `nn.vmap(..., variable_axes={'params': 0},
spmd_axis_name='data')` whose parameter is `nn.with_partitioning(init, ('data', None))`, and an NNX model made
by `@nnx.vmap(in_axes=0, out_axes=0, spmd_axis_name='data') def create(key)` whose parameter is
`nnx.with_partitioning(init, ('data', None))`, raised SPMD005's error under `jax.set_mesh`, and spmdfix said
nothing. Flax constrains a partitioned parameter to its names when a mesh is set, inside the vmap.

Mesh `Mesh(devices.reshape(2, 4), ('data', 'model'))` (Auto). Each line: the names, the spmd axis, whether a
mesh is set (`jax.set_mesh`), and what happened (`runs` with the parameters' shape, or the error).
"""

from __future__ import annotations

import _outcome  # noqa: F401  (8 virtual CPU devices, before JAX is imported)
from _outcome import first_line

import flax.linen as nn  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from flax import nnx  # noqa: E402
from jax.sharding import Mesh  # noqa: E402

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
RULES = (("batch", "data"), ("embed", None), ("mlp", "model"))


def attempt(label, fn, mesh):
    try:
        if mesh:
            with jax.set_mesh(MESH), nn.logical_axis_rules(RULES):
                out = fn()
        else:
            with nn.logical_axis_rules(RULES):
                out = fn()
        print(f"{label:78} runs {jax.tree.leaves(out)[0].shape}")
    except Exception as err:  # noqa: BLE001 - the failure is the measurement
        print(f"{label:78} {first_line(err)}")


def linen(names, spmd, logical=False):
    wrap = nn.with_logical_partitioning if logical else nn.with_partitioning

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x):
            return x @ self.param("w", wrap(nn.initializers.lecun_normal(), names), (8, 16))

    kw = {} if spmd is None else {"spmd_axis_name": spmd}
    vm = nn.vmap(Block, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=None, axis_size=2,
                 metadata_params={nn.PARTITION_NAME: None}, **kw)
    x = jnp.ones((4, 8))
    return lambda: vm().apply(vm().init(jax.random.key(0), x), x)


def linen_ones(names, spmd):
    class Block(nn.Module):
        @nn.compact
        def __call__(self, x):
            return x @ self.param("w", nn.with_partitioning(nn.initializers.ones, names), (8, 16))

    vm = nn.vmap(Block, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=None, axis_size=2,
                 metadata_params={nn.PARTITION_NAME: None}, spmd_axis_name=spmd)
    x = jnp.ones((4, 8))
    return lambda: vm().apply(vm().init(jax.random.key(0), x), x)


def nnx_create(names, spmd, init=nnx.initializers.lecun_normal()):
    class M(nnx.Module):
        def __init__(self, rngs):
            self.w = nnx.Param(nnx.with_partitioning(init, names)(rngs.params(), (8, 16)))

    kw = {} if spmd is None else {"spmd_axis_name": spmd}

    def run():
        create = nnx.vmap(lambda key: M(nnx.Rngs(key)), in_axes=0, out_axes=0, **kw)
        return nnx.state(create(jax.random.split(jax.random.key(0), 2)))
    return run


def main() -> None:
    for mesh in (True, False):
        where = "set_mesh" if mesh else "no mesh"
        for names in (("data", None), (None, "model"), (None, None)):
            for spmd in ("data", None):
                attempt(f"linen with_partitioning {names} spmd {spmd!r} {where}", linen(names, spmd), mesh)
                attempt(f"nnx with_partitioning {names} spmd {spmd!r} {where}", nnx_create(names, spmd), mesh)
        # an initializer that does not read the key: the NNX parameter's value is not batched
        attempt(f"nnx with_partitioning ('data', None) initializers.ones spmd 'data' {where}",
                nnx_create(("data", None), "data", nnx.initializers.ones), mesh)
        attempt(f"linen with_partitioning ('data', None) initializers.ones spmd 'data' {where}",
                linen_ones(("data", None), "data"), mesh)
        for names in (("batch", None), ("embed", "mlp")):
            attempt(f"linen with_logical_partitioning {names} spmd 'data' {where}", linen(names, "data", True), mesh)


if __name__ == "__main__":
    main()
