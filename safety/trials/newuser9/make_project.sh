#!/usr/bin/env bash
# newuser9's trial project: `flaxtrain`, a Flax (Linen + NNX) sharded MLP trainer in a src/ layout, the
# shape of a team migrating from pmap/pjit to vmap + shard_map. config.py holds the axis names, the mesh
# (Mesh(...), Auto axes), flax.linen.partitioning logical axis rules and a frozen dataclass config whose
# `batch_axis` field is the spmd axis. model.py: a module-level jax.shard_map'd MLP (rows on 'data', psum
# over 'model'); a Linen `MlpBlock` (params with nn.with_partitioning) applying it; `EnsembleMlp =
# nn.vmap(MlpBlock, ..., spmd_axis_name=DATA, metadata_params={nn.PARTITION_NAME: ...})`; a Linen
# `LogicalBlock` whose shard_map specs come from nn.logical_to_mesh_axes(...) and the logical rules; an NNX
# `NnxMlp` (nnx.with_partitioning params) applying nnx.shard_map with an `@partial(jax.shard_map, ...)`
# inner layer. train.py: the Linen ensemble, a linen vmap of LogicalBlock, and an NNX per-example loss under
# nnx.vmap(..., spmd_axis_name=CFG.batch_axis) inside nnx.jit; a Linen `ConstrainedBlock`
# (nn.with_logical_constraint) under nn.vmap; an NNX ensemble built by `@nnx.vmap(..., spmd_axis_name=DATA)`
# whose member weight is nnx.with_partitioning(init, (DATA, None)). tests/ one test; notebooks/ one notebook
# (nnx.vmap with spmd_axis_name=MODEL); scripts/legacy/ the old pmap trainer. A git repository, one commit.
# Each collision is written so JAX 0.10.2 raises on it; train.py runs each part alone and prints its values
# or the error (`python -m flaxtrain.train`).
# Usage: make_project.sh DIR   (DIR/flaxtrain is created; DIR must exist)
set -euo pipefail
root=$1/flaxtrain
mkdir -p "$root/src/flaxtrain" "$root/notebooks" "$root/tests" "$root/scripts/legacy"
cd "$root"
git init -q
cat > pyproject.toml <<'TOML'
[project]
name = "flaxtrain"
version = "0.1.0"
requires-python = ">=3.11"
dependencies = ["jax>=0.10", "flax>=0.12"]

[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[tool.spmdfix]
extend-exclude = ["scripts/legacy"]
TOML
cat > src/flaxtrain/__init__.py <<'PY'
"""flaxtrain: a small sharded MLP trainer in Flax (Linen and NNX)."""
PY
cat > src/flaxtrain/config.py <<'PY'
"""Axis names, the device mesh, logical axis rules and hyper-parameters."""
import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh

DATA = "data"
MODEL = "model"

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))

# flax.linen.partitioning logical axis rules: logical name -> mesh axis.
LOGICAL_AXIS_RULES = (("batch", DATA), ("seq", None), ("embed", None), ("mlp", MODEL), ("ensemble", None))


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    """Hyper-parameters of the model and the run."""

    d_model: int = 16
    d_ff: int = 32
    seq_len: int = 8
    batch_size: int = 4
    n_ensemble: int = 2
    batch_axis: str = DATA


CFG = ModelConfig()
PY
cat > src/flaxtrain/model.py <<'PY'
"""Flax modules whose MLP runs under shard_map: rows on 'data', hidden units on 'model'."""
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
from flax import nnx
from jax.sharding import PartitionSpec as P

from flaxtrain.config import CFG, DATA, LOGICAL_AXIS_RULES, MESH, MODEL


def _mlp_block(x, w_in, w_out):
    h = jax.nn.relu(x @ w_in)
    return jax.lax.psum(h @ w_out, MODEL)


mlp_sharded = jax.shard_map(
    _mlp_block,
    mesh=MESH,
    in_specs=(P(DATA, None), P(None, MODEL), P(MODEL, None)),
    out_specs=P(DATA, None),
)


class MlpBlock(nn.Module):
    """Linen MLP: parameters annotated for the mesh, applied through the shard_map'd block."""

    d_model: int
    d_ff: int

    @nn.compact
    def __call__(self, x):
        w_in = self.param(
            "w_in", nn.with_partitioning(nn.initializers.lecun_normal(), (None, MODEL)), (self.d_model, self.d_ff)
        )
        w_out = self.param(
            "w_out", nn.with_partitioning(nn.initializers.lecun_normal(), (MODEL, None)), (self.d_ff, self.d_model)
        )
        return mlp_sharded(x, w_in, w_out)


# An ensemble of MlpBlocks, its members' parameters stacked and placed on the data axis.
EnsembleMlp = nn.vmap(
    MlpBlock,
    variable_axes={"params": 0},
    split_rngs={"params": True},
    in_axes=None,
    out_axes=0,
    axis_size=CFG.n_ensemble,
    spmd_axis_name=DATA,
    metadata_params={nn.PARTITION_NAME: "ensemble"},
)


class LogicalBlock(nn.Module):
    """Linen layer whose shard_map specs come from the logical axis rules."""

    @nn.compact
    def __call__(self, x):
        scale = self.param("scale", nn.initializers.ones, (x.shape[-1],))
        spec = nn.logical_to_mesh_axes(("batch", "embed"), LOGICAL_AXIS_RULES)
        return jax.shard_map(lambda v, s: v * s + 1.0, mesh=MESH, in_specs=(spec, P()), out_specs=spec)(x, scale)


class NnxMlp(nnx.Module):
    """NNX MLP: parameters annotated with nnx.with_partitioning, applied through nnx.shard_map."""

    def __init__(self, d_model, d_ff, *, rngs):
        init = nnx.initializers.lecun_normal()
        self.w_in = nnx.Param(nnx.with_partitioning(init, (None, MODEL))(rngs.params(), (d_model, d_ff)))
        self.w_out = nnx.Param(nnx.with_partitioning(init, (MODEL, None))(rngs.params(), (d_ff, d_model)))

    def __call__(self, x):
        return nnx.shard_map(
            _mlp_block,
            mesh=MESH,
            in_specs=(P(DATA, None), P(None, MODEL), P(MODEL, None)),
            out_specs=P(DATA, None),
        )(x, self.w_in[...], self.w_out[...])


class ConstrainedBlock(nn.Module):
    """Linen layer constraining its activations by logical axis names (MaxText style)."""

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(CFG.d_model)(x)
        return nn.with_logical_constraint(h, ("batch", "embed"))


class Member(nnx.Module):
    """One member of an NNX ensemble, its weight annotated with the data axis."""

    def __init__(self, rngs):
        self.w = nnx.Param(nnx.with_partitioning(nnx.initializers.lecun_normal(), (DATA, None))(rngs.params(), (8, 16)))


@nnx.vmap(in_axes=0, out_axes=0, spmd_axis_name=DATA)
def create_ensemble(key):
    return Member(nnx.Rngs(key))


@partial(jax.shard_map, mesh=MESH, in_specs=P(DATA, None), out_specs=P(DATA, None))
def layer_norm(x):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    return x - mean


def nnx_forward(model: NnxMlp, x):
    """One example's forward pass (x: [seq, d_model])."""
    return layer_norm(model(x))
PY
cat > src/flaxtrain/train.py <<'PY'
"""Train the Flax models on random data; each part runs alone and reports its values or JAX's error."""
import sys

import jax
import jax.numpy as jnp
import numpy as np
import optax  # noqa: F401  (the team's optimiser; unused here)
from flax import nnx
import flax.linen as nn

from flaxtrain.config import CFG, DATA, LOGICAL_AXIS_RULES, MESH
from flaxtrain.model import ConstrainedBlock, EnsembleMlp, LogicalBlock, NnxMlp, create_ensemble, nnx_forward


def batch(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(CFG.batch_size, CFG.seq_len, CFG.d_model)).astype(np.float32)
    y = rng.normal(size=(CFG.batch_size, CFG.seq_len, CFG.d_model)).astype(np.float32)
    return jnp.asarray(x), jnp.asarray(y)


def linen_ensemble():
    x, _ = batch()
    model = EnsembleMlp(CFG.d_model, CFG.d_ff)
    variables = model.init(jax.random.key(0), x[0])
    return model.apply(variables, x[0])


def linen_logical():
    x, _ = batch()
    model = nn.vmap(
        LogicalBlock, variable_axes={"params": None}, split_rngs={"params": False}, spmd_axis_name=DATA
    )()
    variables = model.init(jax.random.key(0), x)
    return model.apply(variables, x)


def loss_fn(model, x, y):
    return jnp.mean((nnx_forward(model, x) - y) ** 2)


@nnx.jit
def nnx_loss(model, x, y):
    per_example = nnx.vmap(loss_fn, in_axes=(None, 0, 0), spmd_axis_name=CFG.batch_axis)
    return per_example(model, x, y)


def nnx_per_example():
    x, y = batch()
    with jax.set_mesh(MESH):  # nnx.with_partitioning places the parameters on the context mesh
        model = NnxMlp(CFG.d_model, CFG.d_ff, rngs=nnx.Rngs(0))
    return nnx_loss(model, x, y)


def linen_constrained():
    x, _ = batch()
    model = nn.vmap(
        ConstrainedBlock, variable_axes={"params": None}, split_rngs={"params": False}, spmd_axis_name=DATA
    )()
    with nn.logical_axis_rules(LOGICAL_AXIS_RULES), jax.set_mesh(MESH):
        variables = model.init(jax.random.key(0), x)
        return model.apply(variables, x)


def nnx_ensemble():
    with jax.set_mesh(MESH):
        members = create_ensemble(jax.random.split(jax.random.key(0), CFG.n_ensemble))
    return members.w[...]


PARTS = {
    "linen_ensemble": linen_ensemble,
    "linen_logical": linen_logical,
    "nnx_per_example": nnx_per_example,
    "linen_constrained": linen_constrained,
    "nnx_ensemble": nnx_ensemble,
}


def main(argv):
    results = {}
    for name, part in PARTS.items():
        if argv and name not in argv:
            continue
        try:
            value = np.asarray(part())
            results[name] = value
            print(f"{name}: ok shape={value.shape} sum={value.sum():.6f}")
        except Exception as e:  # report JAX's error and go on
            print(f"{name}: {type(e).__name__}: {str(e).splitlines()[0]}")
    np.savez("/tmp/flaxtrain_out.npz", **results)
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
PY
sed -i '/^import optax/d' src/flaxtrain/train.py
cat > tests/test_model.py <<'PY'
import jax
import jax.numpy as jnp
from flax import nnx

from flaxtrain.config import MESH, MODEL
from flaxtrain.model import NnxMlp


def test_ensemble_of_nnx_models_over_model_axis():
    x = jnp.ones((2, 8, 16))
    with jax.set_mesh(MESH):
        model = NnxMlp(16, 32, rngs=nnx.Rngs(0))
    out = nnx.vmap(lambda m, v: m(v), in_axes=(None, 0), spmd_axis_name=MODEL)(model, x)
    assert out.shape == (2, 8, 16)
PY
cat > scripts/legacy/old_train.py <<'PY'
"""The old pmap trainer (kept for reference; excluded from spmdfix)."""
import jax
import jax.numpy as jnp


def step(x):
    return jax.lax.pmean(x, "data")


if __name__ == "__main__":
    print(jax.pmap(step, axis_name="data")(jnp.ones((jax.device_count(), 4))))
PY
python3 - <<'PY'
import json
cells = [
    {"cell_type": "markdown", "metadata": {}, "source": ["# Ensemble over the model axis"]},
    {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": [
        "!nvidia-smi\n",
        "import jax.numpy as jnp\n",
        "from flax import nnx\n",
        "import jax\n",
        "from flaxtrain.config import MESH, MODEL\n",
        "from flaxtrain.model import NnxMlp, nnx_forward\n",
        "with jax.set_mesh(MESH):\n",
        "    model = NnxMlp(16, 32, rngs=nnx.Rngs(0))\n",
        "out = nnx.vmap(nnx_forward, in_axes=(None, 0), spmd_axis_name=MODEL)(model, jnp.ones((4, 8, 16)))",
    ]},
]
nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
with open("notebooks/ensemble.ipynb", "w") as f:
    json.dump(nb, f, indent=1)
PY
git add -A
git -c user.name=trial -c user.email=trial@example.com commit -q -m "flaxtrain: initial"
echo "$root"
