"""What JAX does with Flax's logical-axis constraint inside an spmd vmap (flax 0.12.8, jax 0.10.2).

Run: `python safety/measurements/flax_logical_constraint_under_spmd_vmap.py` (8 virtual CPU devices, set by
`_outcome`). newuser9's trial (safety/trials/newuser9/README.md): `nn.with_logical_constraint(x, ('batch',
'embed'))` in a Linen module under `nn.vmap(..., spmd_axis_name='data')` raised SPMD005's error, and spmdfix
said nothing. `with_logical_constraint` maps the logical names to mesh axes by its `rules=` or the rules in
force (`nn.logical_axis_rules(...)`) and calls `jax.lax.with_sharding_constraint`; with no rules in force it
returns x unchanged. So whether it names the spmd axis depends on run-time context: spmdfix never reads it.

Mesh `Mesh(devices.reshape(2, 4), ('data', 'model'))` (Auto). Each variant runs `init` and `apply` of
`nn.vmap(Block, variable_axes={'params': None}, split_rngs={'params': False}, spmd_axis_name=S)` over x of shape
(4, 8, 8); the reference is the same module under a plain `nn.vmap` without any rules (no constraint applied).
"""

from __future__ import annotations

import _outcome  # noqa: F401  (8 virtual CPU devices, before JAX is imported)
from _outcome import show

import flax.linen as nn  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from flax.linen import partitioning  # noqa: E402
from jax.sharding import Mesh  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
RULES = (("batch", "data"), ("embed", None), ("mlp", "model"))
RULES_MODEL = (("batch", "model"), ("embed", None))
X = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8) / 100.0


class Logical(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.with_logical_constraint(nn.Dense(8)(x), ("batch", "embed"))


class LogicalRulesArg(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.with_logical_constraint(nn.Dense(8)(x), ("batch", "embed"), rules=RULES)


class PartitioningWsc(nn.Module):
    @nn.compact
    def __call__(self, x):
        return partitioning.with_sharding_constraint(nn.Dense(8)(x), ("batch", "embed"))


def run(cls, spmd, rules=None, mesh=True):
    kw = {} if spmd is None else {"spmd_axis_name": spmd}
    vm = nn.vmap(cls, variable_axes={"params": None}, split_rngs={"params": False}, **kw)

    def go():
        variables = vm().init(jax.random.key(0), X)
        return vm().apply(variables, X)

    def with_rules():
        if rules is None:
            return go()
        with nn.logical_axis_rules(rules):
            return go()

    if not mesh:
        return with_rules
    def in_mesh():
        with jax.set_mesh(MESH):
            return with_rules()
    return in_mesh


def main() -> None:
    ref = run(Logical, None, None, mesh=False)()
    show("logical ('batch','embed'), rules batch->data, set_mesh, spmd 'data'", run(Logical, "data", RULES), ref)
    show("the same, rules= given at the call (no context rules)", run(LogicalRulesArg, "data", None), ref)
    show("partitioning.with_sharding_constraint, rules batch->data", run(PartitioningWsc, "data", RULES), ref)
    show("logical, rules batch->data, no set_mesh, spmd 'data'", run(Logical, "data", RULES, mesh=False), ref)
    show("logical, no rules in force, set_mesh, spmd 'data'", run(Logical, "data", None), ref)
    show("logical, rules batch->model, set_mesh, spmd 'data'", run(Logical, "data", RULES_MODEL), ref)
    show("logical, rules batch->data, set_mesh, plain nn.vmap", run(Logical, None, RULES), ref)
    print("(for comparison) jax.lax.with_sharding_constraint(P('data', None)) under spmd 'data':")

    class Wsc(nn.Module):
        @nn.compact
        def __call__(self, x):
            return jax.lax.with_sharding_constraint(nn.Dense(8)(x), P("data", None))

    show("jax.lax.with_sharding_constraint P('data', None), set_mesh", run(Wsc, "data", None), ref)


if __name__ == "__main__":
    main()
