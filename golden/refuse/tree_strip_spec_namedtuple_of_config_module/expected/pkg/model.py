"""The vmapped shard_map reads its specs as `config.SPECS.rows`, a NamedTuple of pkg/config.py that
pkg/evaluate.py reads too, for a shard_map subtracting each block's own mean. Stripping `'x'` edits
pkg/config.py (safety/trials/breaker12 k05: on main the strip was safe and `centre` returned other values)."""
import jax

from pkg import config


def double(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=config.MESH, in_specs=config.SPECS.rows, out_specs=config.SPECS.rows)(v)


def forward(xs):
    return jax.vmap(double, spmd_axis_name='x')(xs)
