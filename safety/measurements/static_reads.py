"""Measurement behind spmdfix/analysis/static.py (jax 0.10.2, CPU, 8 virtual devices).
Run: python safety/measurements/static_reads.py

Which reads of a value the spmd vmap batches give a Python value under tracing (so a shard_map body may close
over the result, and lifting it as an operand would make it a tracer). For each form, `n = <form>` is computed
in the vmapped function from the batched `x` (shape (16,) per example) and closed over by a shard_map body
that uses it as a `dynamic_slice_in_dim` size, under `jax.jit(jax.vmap(f, spmd_axis_name='x'))`. Each line
printed: the form, whether `n` is a Python int there, and OK (runs, equals the reference), WRONG or RAISED;
then the same body with `n` lifted as an operand (in_specs `P()`), which must raise where `n` is static."""
import os
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
X = np.arange(4 * 16, dtype=np.float32).reshape(4, 16)

FORMS = {
    "x.shape[0] // mesh.shape['y']": lambda x: x.shape[0] // mesh.shape['y'],
    "x[0:8].shape[0] // mesh.shape['y']": lambda x: x[0:8].shape[0] // mesh.shape['y'] * 2,
    "(x * 2).shape[0] // mesh.shape['y']": lambda x: (x * 2).shape[0] // mesh.shape['y'],
    "x.T.shape[0] // mesh.shape['y']": lambda x: x.T.shape[0] // mesh.shape['y'],
    "x.reshape(2, 8).shape[1] // mesh.shape['y']": lambda x: x.reshape(2, 8).shape[1] // mesh.shape['y'] * 2,
    "jnp.sin(x).size // mesh.shape['y']": lambda x: jnp.sin(x).size // mesh.shape['y'],
    "jnp.shape(x)[0] // mesh.shape['y']": lambda x: jnp.shape(x)[0] // mesh.shape['y'],
    "np.shape(x)[0] // mesh.shape['y']": lambda x: np.shape(x)[0] // mesh.shape['y'],
    "jnp.size(x) // mesh.shape['y']": lambda x: jnp.size(x) // mesh.shape['y'],
    "np.size(x) // mesh.shape['y']": lambda x: np.size(x) // mesh.shape['y'],
    "jnp.ndim(x) * 2": lambda x: jnp.ndim(x) * 2,
    "np.ndim(x) * 2": lambda x: np.ndim(x) * 2,
    "len(x[1:]) // 4": lambda x: len(x[1:]) // 4,
}


def run(form, lifted):
    seen = {}

    def f(x):
        n = form(x)
        seen['int'] = isinstance(n, int)
        if lifted:
            body = lambda t, k: jax.lax.dynamic_slice_in_dim(t, 0, k) * 2.0
            return jax.shard_map(body, mesh=mesh, in_specs=(P('y'), P()), out_specs=P('y'))(x, n)
        body = lambda t: jax.lax.dynamic_slice_in_dim(t, 0, n) * 2.0
        return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)

    n = form(jnp.asarray(X[0]))
    reference = (X.reshape(4, 4, 4)[:, :, :n] * 2.0).reshape(4, 4 * n)
    try:
        r = jax.jit(jax.vmap(f, spmd_axis_name='x'))(X)
        out = "OK" if np.allclose(np.asarray(r), reference) else "WRONG"
    except Exception as e:  # noqa: BLE001 - the outcome is what is measured
        out = f"RAISED {type(e).__name__}: {str(e).splitlines()[0][:70]}"
    return seen.get('int'), out


for name, form in FORMS.items():
    is_int, closed = run(form, lifted=False)
    _, lifted = run(form, lifted=True)
    print(f"n = {name} | Python int under jit(vmap): {is_int} | closed over -> {closed} | lifted -> {lifted}",
          flush=True)
