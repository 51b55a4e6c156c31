"""drop-spmd-axis is unsafe when the shard_map's mesh is not resolved: here its axis names are built at run time.
A psum over the spmd axis in the body keeps strip from being offered, and rename and add-axis
need the mesh, so no safe fix is left; with --unsafe-fixes auto removes spmd_axis_name, which runs here (the mesh is Auto)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


def make_layer(mesh):
    def layer(v):
        body = lambda t: t - jax.lax.psum(t.sum(), 'x')
        return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)

    return layer


def main():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), tuple('xy'))  # names built at run time
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(make_layer(mesh))(xs)
    reference = np.stack([r - r.sum() for r in np.asarray(xs)])
    return result, reference
