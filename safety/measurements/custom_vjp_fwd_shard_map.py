"""breaker4's p25 (issue 22, a silence): a shard_map applied in a custom derivative rule (the `fwd` of a
`jax.custom_vjp`, or the rule of a `jax.custom_jvp`) of a function the spmd vmap reaches, the specs naming the
spmd axis. When do the rules run under the vmap, and does JAX then raise SPMD001's error?

Run: `python safety/measurements/custom_vjp_fwd_shard_map.py` (8 virtual CPU devices; jax 0.10.2).

    mesh = Mesh(devices.reshape(2, 4), ('data', 'model'))
    @jax.custom_vjp                               # primal: x * x, no shard_map
    def square(x): return x * x
    def fwd(x): return shard_map(lambda b: b * b, mesh, P('data'), P('data'))(x), x
    square.defvjp(fwd, lambda x, g: (2.0 * x * g,))
    loss = lambda x: square(x).sum()

WAY: `vmap(grad(loss))` (grad inside the vmap), `grad(lambda xs: vmap(loss)(xs).sum())` (grad outside it),
`vmap(loss)` (not differentiated), each with `spmd_axis_name='data'`, eager and under jit; the same with
`jax.custom_jvp` and `square.defjvp(jvp)` whose jvp applies the shard_map. Reference: numpy (2x for the
gradients, the sum of squares for the loss).
"""

from __future__ import annotations

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from _outcome import header, show_group
from jax.sharding import Mesh, PartitionSpec as P

XS = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)


def square_vjp(mesh):
    @jax.custom_vjp
    def square(x):
        return x * x

    def fwd(x):
        return jax.shard_map(lambda b: b * b, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x), x

    square.defvjp(fwd, lambda x, g: (2.0 * x * g,))
    return square


def square_jvp(mesh):
    @jax.custom_jvp
    def square(x):
        return x * x

    @square.defjvp
    def jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        y = jax.shard_map(lambda b: b * b, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
        return y, 2.0 * x * t

    return square


def ways(square):
    def loss(x):
        return square(x).sum()

    return {
        "vmap(grad(loss))": (jax.vmap(jax.grad(loss), spmd_axis_name="data"), 2.0 * XS),
        "grad(vmap(loss))": (jax.grad(lambda xs: jax.vmap(loss, spmd_axis_name="data")(xs).sum()), 2.0 * XS),
        "vmap(loss)": (jax.vmap(loss, spmd_axis_name="data"), (XS * XS).sum(axis=1)),
    }


def main() -> None:
    header("a shard_map naming the spmd axis in a custom derivative rule", ["eager", "jit"])
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
    for rule, make in (("custom_vjp fwd", square_vjp), ("custom_jvp rule", square_jvp)):
        for way, (f, reference) in ways(make(mesh)).items():
            runs = {"eager": lambda f=f: f(XS), "jit": lambda f=f: jax.jit(f)(XS)}
            show_group(f"{rule:16} {way:17}", runs, reference)


if __name__ == "__main__":
    main()
