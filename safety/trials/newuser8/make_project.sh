#!/usr/bin/env bash
# newuser8's trial project: `tinylm`, a pure-JAX (no Flax) sharded MLP language-model trainer in a src/
# layout. config.py holds the axis names, a frozen dataclass of hyper-parameters (its `data_axis` field is
# what the trainer passes as spmd_axis_name) and the mesh (jax.make_mesh, Auto axes). model.py has a
# shard_map'd MLP applied with the `@partial(jax.shard_map, ...)` decorator, its rows on the data axis, a
# psum over the model axis. train.py takes per-example gradients (vmap of grad with
# spmd_axis_name=CFG.data_axis) and evaluates an ensemble (vmap over stacked params, spmd_axis_name=MODEL).
# tests/ has a test with its own mesh and vmap; notebooks/ a notebook importing the package; scripts/legacy/
# an old script the configuration excludes. pyproject.toml configures spmdfix (select/ignore/per-file-ignores/
# extend-exclude). A git repository with one commit.
# Usage: make_project.sh DIR   (DIR/tinylm is created; DIR must exist)
set -euo pipefail
root=$1/tinylm
mkdir -p "$root/src/tinylm" "$root/notebooks" "$root/tests" "$root/scripts/legacy"
cd "$root"
git init -q
cat > pyproject.toml <<'TOML'
[project]
name = "tinylm"
version = "0.1.0"
requires-python = ">=3.11"
dependencies = ["jax>=0.10"]

[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[tool.spmdfix]
extend-exclude = ["scripts/legacy"]
per-file-ignores = { "tests/*" = ["SPMD002"] }
TOML
cat > src/tinylm/__init__.py <<'PY'
"""tinylm: a small sharded MLP language model in pure JAX."""
PY
cat > src/tinylm/config.py <<'PY'
"""Axis names, hyper-parameters and the device mesh."""
import dataclasses

import jax
from jax.sharding import AxisType

DATA = "data"
MODEL = "model"


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """Hyper-parameters of a training run."""

    batch_size: int = 8
    seq_len: int = 8
    d_model: int = 16
    d_ff: int = 32
    learning_rate: float = 1e-2
    data_axis: str = DATA


CFG = TrainConfig()

MESH = jax.make_mesh((2, 4), (DATA, MODEL), axis_types=(AxisType.Auto, AxisType.Auto))
PY
cat > src/tinylm/model.py <<'PY'
"""A shard_map'd MLP: rows over the data axis, the hidden dimension over the model axis."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from tinylm.config import DATA, MESH, MODEL


def init_params(key, d_model, d_ff):
    """Two weight matrices of the MLP."""
    k1, k2 = jax.random.split(key)
    return {
        "w_in": jax.random.normal(k1, (d_model, d_ff)) / jnp.sqrt(d_model),
        "w_out": jax.random.normal(k2, (d_ff, d_model)) / jnp.sqrt(d_ff),
    }


@partial(
    jax.shard_map,
    mesh=MESH,
    in_specs=(P(DATA, None), P(None, MODEL), P(MODEL, None)),
    out_specs=P(DATA, None),
)
def mlp(x, w_in, w_out):
    """x: (rows, d_model) -> (rows, d_model)."""
    h = jax.nn.gelu(x @ w_in)
    return jax.lax.psum(h @ w_out, MODEL)


def forward(params, x):
    """The model: x plus the MLP of x."""
    return x + mlp(x, params["w_in"], params["w_out"])


def loss_fn(params, x, y):
    """Mean squared error of one example."""
    return jnp.mean((forward(params, x) - y) ** 2)
PY
cat > src/tinylm/train.py <<'PY'
"""Training: per-example gradients, clipped and averaged; an ensemble evaluation."""
import jax
import jax.numpy as jnp

from tinylm.config import CFG, MODEL
from tinylm.model import forward, init_params, loss_fn


def per_example_grads(params, xs, ys):
    """One gradient pytree per example of the batch."""
    return jax.vmap(jax.grad(loss_fn), in_axes=(None, 0, 0), spmd_axis_name=CFG.data_axis)(params, xs, ys)


def clip(g, max_norm=1.0):
    """Clip one example's gradient to max_norm."""
    norm = jnp.sqrt(sum(jnp.sum(leaf**2) for leaf in jax.tree.leaves(g)))
    return jax.tree.map(lambda leaf: leaf * jnp.minimum(1.0, max_norm / (norm + 1e-6)), g)


@jax.jit
def train_step(params, xs, ys):
    """One step of DP-SGD-style training."""
    grads = per_example_grads(params, xs, ys)
    grads = jax.vmap(clip)(grads)
    mean = jax.tree.map(lambda g: g.mean(0), grads)
    return jax.tree.map(lambda p, g: p - CFG.learning_rate * g, params, mean)


def ensemble_predict(stacked_params, x):
    """Each member of an ensemble of parameters applied to x."""
    return jax.vmap(forward, in_axes=(0, None), spmd_axis_name=MODEL)(stacked_params, x)


def main():
    key = jax.random.PRNGKey(0)
    params = init_params(key, CFG.d_model, CFG.d_ff)
    xs = jax.random.normal(key, (CFG.batch_size, CFG.seq_len, CFG.d_model))
    params = train_step(params, xs, xs)
    print("trained:", jax.tree.map(lambda p: p.shape, params))
    stacked = jax.tree.map(lambda p: jnp.stack([p, p]), params)
    print("ensemble:", ensemble_predict(stacked, xs[0]).shape)


if __name__ == "__main__":
    main()
PY
cat > tests/test_model.py <<'PY'
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from tinylm.config import CFG
from tinylm.model import forward, init_params

MESH = jax.make_mesh((8,), ("batch",), axis_types=(jax.sharding.AxisType.Auto,))


def test_forward_shape():
    params = init_params(jax.random.PRNGKey(0), CFG.d_model, CFG.d_ff)
    assert forward(params, jnp.ones((CFG.seq_len, CFG.d_model))).shape == (CFG.seq_len, CFG.d_model)


def test_rowwise_vmap():
    def double(x):
        return jax.shard_map(lambda b: 2 * b, mesh=MESH, in_specs=P("batch"), out_specs=P("batch"))(x)

    out = jax.vmap(double, spmd_axis_name="batch")(jnp.ones((8, 8)))
    assert out.shape == (8, 8)
PY
cat > scripts/legacy/old_train.py <<'PY'
"""The first trainer, kept for reference (not run)."""
import jax
from jax.sharding import PartitionSpec as P

from tinylm.config import MESH


def step(x):
    return jax.shard_map(lambda b: b, mesh=MESH, in_specs=P("data"), out_specs=P("data"))(x)


def run(xs):
    return jax.vmap(step, spmd_axis_name="data")(xs)
PY
python3 - <<'PY'
import json
cells = [
    ("markdown", "# Ensemble of tinylm models\n"),
    ("code", "import jax\nimport jax.numpy as jnp\nfrom tinylm import model\nfrom tinylm.config import CFG, DATA"),
    ("code", "params = model.init_params(jax.random.PRNGKey(1), CFG.d_model, CFG.d_ff)\nxs = jnp.ones((4, CFG.seq_len, CFG.d_model))"),
    ("code", "!nvidia-smi\nlosses = jax.vmap(model.loss_fn, in_axes=(None, 0, 0), spmd_axis_name=DATA)(params, xs, xs)\nlosses"),
]
nb = {"cells": [], "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
      "language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}
for i, (kind, src) in enumerate(cells):
    cell = {"cell_type": kind, "id": f"c{i}", "metadata": {}, "source": src.splitlines(keepends=True)}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    nb["cells"].append(cell)
with open("notebooks/ensemble.ipynb", "w") as f:
    json.dump(nb, f, indent=1)
    f.write("\n")
PY
git add -A
git -c user.name=nu8 -c user.email=nu8@example.com commit -qm "tinylm: first version"
