"""breaker8 t10 and t30: on an Explicit mesh, a shard_map whose in_specs differ from its input's placement fails
whatever the vmap, so JAX's error there is none of spmdfix's rules.

Run: `python safety/trials/breaker8/measure_explicit_in_specs_mismatch.py` (8 virtual CPU devices, jax 0.10.2).
t30: `jax.make_mesh((2, 4), ('data', 'model'))` (Explicit), context-mesh shard_map `P('model')` under a plain
vmap, the batch placed `P('data')` or not placed; t10: `reshard(x, P('model'))` then shard_map `P('data')`, with
and without an spmd vmap. Run each t30 variant in a process of its own (`VARIANT=placed`, `VARIANT=unplaced`): in
one process the unplaced variant after the placed one ran (JAX kept something of the earlier call), alone it
fails. Measured (each alone): every variant raises `in_specs passed to shard_map: ... does not match the specs
of the input`, with the vmap or without it, placed or not.
"""
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402


def outcome(run):
    try:
        jax.block_until_ready(run())
        return "runs"
    except Exception as err:  # noqa: BLE001 - the failure is the measurement
        return f"{type(err).__name__}: {str(err).splitlines()[0][:110]}"


def smap_model():
    """A new shard_map each variant (JAX keeps what an earlier call of the same object traced)."""
    return jax.shard_map(lambda b: b * 0.5, in_specs=P("model"), out_specs=P("model"))


mesh = jax.make_mesh((2, 4), ("data", "model"))
with jax.set_mesh(mesh):
    placed = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, P("data")))
    which = os.environ.get("VARIANT", "all")
    if which in ("all", "placed"):
        print("t30 plain vmap, batch placed P('data')   ", outcome(lambda: jax.vmap(smap_model())(placed)))
    if which in ("all", "unplaced"):
        print("t30 plain vmap, batch not placed         ", outcome(lambda: jax.vmap(smap_model())(jnp.ones((8, 8)))))
        print("t30 no vmap, one row placed P()          ", outcome(lambda: smap_model()(jnp.ones(8))))

    def block(x):
        y = jax.sharding.reshard(x, P("model"))
        return jax.shard_map(lambda b: b - 0.5, in_specs=P("data"), out_specs=P("data"))(y)

    print("t10 no vmap (8,)                         ", outcome(lambda: jax.jit(block)(jnp.ones(8))))
    print("t10 spmd vmap over 'data'                ", outcome(lambda: jax.jit(jax.vmap(block, spmd_axis_name="data"))(jnp.ones((8, 8)))))
