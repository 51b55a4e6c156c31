"""Fuzz seed 420293 (issue 22): a plain `jax.vmap` whose function reaches the function defining a shard_map body
through `jax.lax.map(block, x)` (a scan) or `jax.lax.map(block, x, batch_size=2)` (a vmap over chunks inside a
scan), the body closing over a value computed from the slice `jax.lax.map` passes: does the capture do what it
does when `block` is called plainly?

Run: `python safety/measurements/lax_map_hop.py` (8 virtual CPU devices; jax 0.10.2).

    def block(x):
        m = <capture>                       # none: 2.0; scalar: x.mean() + 2.0; value: x * 0.5
        @partial(jax.shard_map, mesh=mesh, in_specs=P('data'), out_specs=P('data'), check_vma=False)
        def body(b): return (b - b.mean()) * m          # (m.sum() for `value`)
        return body(x)
    jax.vmap(lambda x: jax.lax.map(block, x[, batch_size=2]))(xs)    # xs (4, 8, 8)

Meshes 2x4 ('data', 'model'), Explicit and Auto; xs unplaced (Auto only: on an Explicit mesh the shard_map's
operand must come placed as its in_specs say) or placed `P(None, None, 'data')` (the batch dimension on no axis).
Each line: mesh, form, placement, capture -> ok / mismatch against a NumPy reference, or the error's first words.

Measured (jax 0.10.2): Explicit, both forms: no capture runs and matches; `scalar` and `value` fail with
`NotImplementedError: Closing over inputs to shard_map where the input is sharded on Explicit axes`, as with a
plain call of `block` (plain_vmap_placed_spellings.py, part 7). Auto: every row runs and matches, placed or not.
So `jax.lax.map` passes the slice on as a plain call passes its argument: the value still comes from the input
(`analysis.batched.BatchedValues._lax_map_hop`)."""
import os
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MESHES = {
    "explicit": jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Explicit, AxisType.Explicit)),
    "auto": jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto)),
}


def make(form, capture, mesh):
    def block(x):
        m = {"none": lambda: 2.0, "scalar": lambda: x.mean() + 2.0, "value": lambda: x * 0.5}[capture]()

        @functools.partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=P("data"), check_vma=False)
        def body(b):
            return (b - b.mean()) * (m.sum() if capture == "value" else m)

        return body(x)

    def apply(x):
        if form == "scan":
            return jax.lax.map(block, x)
        return jax.lax.map(block, x, batch_size=2)

    return jax.vmap(apply), block


def ref(xs0, capture):
    out = []
    for x in xs0:
        rows = []
        for r in x:
            m = {"none": 2.0, "scalar": r.mean() + 2.0, "value": (r * 0.5).sum()}[capture]
            rows.append(np.concatenate([(blk - blk.mean()) * m for blk in np.split(r, 2)]))
        out.append(np.stack(rows))
    return np.stack(out)


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    # The shard_map's operand is the block `x`, whose last dimension its in_specs put on 'data': on an Explicit
    # mesh it must come placed so (`P(None, None, 'data')` for the vmap's input); on an Auto mesh placed or not.
    placements = {"unplaced": None, "P(None,None,'data')": P(None, None, "data")}
    for mesh_name, mesh in MESHES.items():
        for form in ("scan", "batch_size"):
            for capture in ("none", "scalar", "value"):
                for name, spec in placements.items():
                    if mesh_name == "explicit" and spec is None:
                        continue  # (refused for the operand's placement, not the capture: not this question)
                    xs = jnp.asarray(xs0)
                    if spec is not None:
                        xs = jax.device_put(xs, NamedSharding(mesh, spec))
                    fn, _ = make(form, capture, mesh)
                    try:
                        got = np.asarray(fn(xs))
                        outcome = "ok" if np.allclose(got, ref(xs0, capture), atol=1e-4) else "mismatch"
                    except Exception as err:  # noqa: BLE001
                        outcome = f"{type(err).__name__}: {str(err).splitlines()[0][:80]}"
                    print(f"{mesh_name:8} {form:10} {name:20} {capture:6} -> {outcome}", flush=True)


if __name__ == "__main__":
    main()
