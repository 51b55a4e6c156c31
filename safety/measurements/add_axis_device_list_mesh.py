"""Issue 23 "also refused": add-axis on `Mesh(jax.devices(), ('i',))`, a mesh built from the flat device list.

Run: `python safety/measurements/add_axis_device_list_mesh.py` (8 virtual CPU devices; jax 0.10.2).

The program: `jax.vmap(f, spmd_axis_name='i')` over a batch of 8 examples (8,), with
`f = shard_map(lambda b: b - pmean(b, 'i') + axis_index('i'), mesh=mesh, in_specs=P('i'), out_specs=P('i'))`
(the collective and `axis_index` make the values depend on the size and device order of 'i'). Before the fix:
`mesh = Mesh(jax.devices(), ('i',))` (the in_specs collision). After add-axis each SPELLING below builds the
mesh with a size-1 axis 'batch' and the vmap names `spmd_axis_name='batch'`. Eager and under `jax.jit`, both
`check_vma` values. Reference: the program under a plain `jax.vmap` on the original mesh. The last column
of part 1 says whether the spelling's 'i' axis holds the devices in the original order.
"""

from __future__ import annotations

import itertools

import _outcome  # noqa: F401 - sets 8 devices before jax is imported
import jax
import numpy as np
from jax.sharding import AxisType, Mesh, PartitionSpec as P

from _outcome import header, show_group, value

X = (np.arange(8 * 8, dtype=np.float32).reshape(8, 8) ** 1.3) / 10.0

SPELLINGS = {
    "Mesh(jax.devices(), ('i',))  [the original]": lambda: Mesh(jax.devices(), ("i",)),
    "Mesh(np.array(jax.devices()).reshape(1, -1), ('batch', 'i'))": lambda: Mesh(
        np.array(jax.devices()).reshape(1, -1), ("batch", "i")),
    "Mesh(np.array(jax.devices()).reshape(1, 8), ('batch', 'i'))": lambda: Mesh(
        np.array(jax.devices()).reshape(1, 8), ("batch", "i")),
    "Mesh(np.array(jax.devices()).reshape(-1, 1), ('i', 'batch'))": lambda: Mesh(
        np.array(jax.devices()).reshape(-1, 1), ("i", "batch")),
    "Mesh(np.array(jax.devices())[None], ('batch', 'i'))": lambda: Mesh(np.array(jax.devices())[None], ("batch", "i")),
    "Mesh(np.expand_dims(jax.devices(), 0), ('batch', 'i'))": lambda: Mesh(
        np.expand_dims(np.array(jax.devices()), 0), ("batch", "i")),
    "Mesh([jax.devices()], ('batch', 'i'))": lambda: Mesh([jax.devices()], ("batch", "i")),
    "Mesh(jax.devices(), ('batch', 'i'))  [no reshape]": lambda: Mesh(jax.devices(), ("batch", "i")),
    "jax.make_mesh((1, len(jax.devices())), ('batch', 'i'), Auto)": lambda: jax.make_mesh(
        (1, len(jax.devices())), ("batch", "i"), axis_types=(AxisType.Auto,) * 2),
    "Mesh(np.array(jax.devices()).reshape(-1, 1), ('batch', 'i'))  [wrong order]": lambda: Mesh(
        np.array(jax.devices()).reshape(-1, 1), ("batch", "i")),
}


def program(mesh, spmd, check_vma, jit):
    body = lambda b: b - jax.lax.pmean(b, "i") + jax.lax.axis_index("i").astype(b.dtype)
    f = jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P("i"), check_vma=check_vma)
    g = jax.vmap(f, spmd_axis_name=spmd)
    return jax.jit(g) if jit else g


def order_kept(mesh) -> str:
    if isinstance(mesh, str):
        return ""
    axis = list(mesh.axis_names).index("i")
    ids = [d.id for d in np.moveaxis(mesh.devices, axis, 0).reshape(mesh.shape["i"], -1)[:, 0]]
    return f"'i' devices {ids}"


def main() -> None:
    variants = ("cv=True eager", "cv=True jit", "cv=False eager", "cv=False jit")
    header("add-axis on a mesh built from jax.devices(): which device-array spellings run", variants)
    ref = program(Mesh(jax.devices(), ("i",)), None, True, False)(X)
    print("-- part 1: the mesh each spelling builds")
    for name, build in SPELLINGS.items():
        mesh = value(build)
        shape = mesh if isinstance(mesh, str) else dict(mesh.shape)
        print(f"{name:76} {shape!s:26} {order_kept(mesh)}", flush=True)
    print("-- part 2: the program with that mesh (spmd 'i' for the original, 'batch' for the others)")
    for name, build in SPELLINGS.items():
        spmd = "i" if "original" in name else "batch"
        runs = {f"cv={cv} {'jit' if jit else 'eager'}": (lambda cv=cv, jit=jit: program(build(), spmd, cv, jit)(X))
                for cv, jit in itertools.product((True, False), (False, True))}
        show_group(f"{name:76}", runs, ref)


if __name__ == "__main__":
    main()
