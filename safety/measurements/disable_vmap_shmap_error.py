"""What JAX raises for an spmd_axis_name collision when `jax_disable_vmap_shmap_error` is set.

Run: `python safety/measurements/disable_vmap_shmap_error.py`. A shard_map over a 2x4 mesh under
`jax.vmap(..., spmd_axis_name='x')`, for several in/out specs, check_vma True and False, eager and jit; each line
prints the error (or `ok`). SPMD001/SPMD002 messages quote the outcome when a module sets the option.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, PartitionSpec as P  # noqa: E402


def main() -> None:
    jax.config.update("jax_disable_vmap_shmap_error", True)
    print(f"jax {jax.__version__}, {len(jax.devices())} devices")
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    for check_vma in (True, False):
        for in_specs, out_specs in ((P("x"), P("x")), (P("x"), P("y")), (P(None), P("x")), (P("y"), P("y"))):
            def layer(x, i=in_specs, o=out_specs, c=check_vma):
                return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=i, out_specs=o, check_vma=c)(x)

            for how, fn in (("eager", jax.vmap(layer, spmd_axis_name="x")),
                            ("jit", jax.jit(jax.vmap(layer, spmd_axis_name="x")))):
                try:
                    fn(xs)
                    outcome = "ok"
                except Exception as err:  # noqa: BLE001 - the failure is the measurement
                    outcome = f"{type(err).__name__}: {str(err).splitlines()[0][:110]}"
                print(f"check_vma={check_vma!s:5} in={in_specs!s:8} out={out_specs!s:8} {how:5} {outcome}")


if __name__ == "__main__":
    main()
