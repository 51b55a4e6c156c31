"""newuser7: what JAX 0.10.2 raises for an spmd collision (spmd_axis_name='data' over a shard_map whose specs
name 'data') on the mesh `jax.make_mesh((2, 4), ('data', 'model'))` builds (Explicit axes by default) and on
the same mesh with Auto or Explicit axes given; eager and under jit; the inputs unplaced, the batch placed on 'data', or each input placed as its in_spec says (the batch
dimension on no axis);
'data' in the in_spec of the batched argument (and out_specs), of an unbatched argument only, or in out_specs
only. The trial project (make_project.sh) is the first form on the default mesh.

Run: XLA_FLAGS=--xla_force_host_platform_device_count=8 python measure_explicit_collision.py
"""
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

FORMS = {
    # (x's in_spec, w's in_spec, out_spec)
    "batched in+out": (P("data", None), P(None, "model"), P("data", None)),
    "unbatched in": (P(None, None), P("data", "model"), P(None, None)),
    "out only": (P(None, None), P(None, "model"), P("data", None)),
}


def run(types, form, jit, placed):
    mesh = jax.make_mesh((2, 4), ("data", "model"), **({} if types is None else {"axis_types": types}))
    x_spec, w_spec, out_spec = FORMS[form]

    def block(x, w):
        return jax.lax.psum(jax.nn.gelu(x @ w), "model")[:, :8]

    def mlp(w, x):
        return jax.shard_map(block, mesh=mesh, in_specs=(x_spec, w_spec), out_specs=out_spec, check_vma=False)(x, w)

    f = jax.vmap(mlp, in_axes=(None, 0), spmd_axis_name="data")
    f = jax.jit(f) if jit else f
    xs = jnp.ones((4, 8, 8))
    w = jnp.ones((8, 16))
    if placed == "batch on data":
        xs = jax.device_put(xs, NamedSharding(mesh, P("data")))
    elif placed == "as in_specs say":  # each example's block as its in_spec says, the batch dimension on nothing
        xs = jax.device_put(xs, NamedSharding(mesh, P(None, *x_spec)))
        w = jax.device_put(w, NamedSharding(mesh, w_spec))
    try:
        f(w, xs)
        return "runs"
    except Exception as err:  # noqa: BLE001 - the message is the measurement
        return f"{type(err).__name__}: {str(err).splitlines()[0][:100]}"


for name, types in [("make_mesh default", None), ("Auto", (AxisType.Auto,) * 2), ("Explicit", (AxisType.Explicit,) * 2)]:
    for form in FORMS:
        for jit in (False, True):
            for placed in ("unplaced", "batch on data", "as in_specs say"):
                print(f"{name:17} {form:14} jit={jit!s:5} {placed:15} -> {run(types, form, jit, placed)}")
