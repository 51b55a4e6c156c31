#!/usr/bin/env bash
# newuser7's trial project: a src/ layout JAX package `vitax` as a team would lay it out. config.py holds
# the axis names and builds the mesh with jax.make_mesh (Auto axes); model.py has a shard_map'd MLP block
# whose specs name the data axis; train.py takes per-example gradients with
# jax.vmap(jax.grad(loss), ..., spmd_axis_name=config.DATA_AXIS): the collision spans the three modules. A
# notebook (notebooks/explore.ipynb) has its own spmd vmap of model.loss, `spmd_axis_name="data"`, in a cell
# after a `%matplotlib` magic. A test, a git repository with one commit (README's pre-commit config is added
# by hand in the trial, step 17).
# VARIANT=explicit: the mesh as jax.make_mesh makes it by default (Explicit axes; README step 7).
# VARIANT=helper: the mesh built by a helper over a shape constant, axis types a parameter's default (step 8).
# Usage: [VARIANT=...] make_project.sh DIR   (DIR/vitax is created; DIR must exist)
set -euo pipefail
root=$1/vitax
mkdir -p "$root/src/vitax" "$root/notebooks" "$root/tests"
cd "$root"
git init -q
cat > pyproject.toml <<'TOML'
[project]
name = "vitax"
version = "0.1.0"
requires-python = ">=3.11"
dependencies = ["jax>=0.10"]

[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[tool.ruff]
line-length = 100
TOML
cat > src/vitax/__init__.py <<'PY'
"""A small sharded MLP trainer."""
PY
cat > src/vitax/config.py <<'PY'
"""Mesh and axis names, shared by the model and the trainer."""
import jax
from jax.sharding import AxisType

DATA_AXIS = "data"
MODEL_AXIS = "model"

# Auto axes: shard_map takes its inputs as they are placed (jax.make_mesh's default is Explicit).
MESH = jax.make_mesh((2, 4), (DATA_AXIS, MODEL_AXIS), axis_types=(AxisType.Auto,) * 2)
PY
if [ "${VARIANT:-}" = explicit ]; then
cat > src/vitax/config.py <<'PY'
"""Mesh and axis names, shared by the model and the trainer."""
import jax

DATA_AXIS = "data"
MODEL_AXIS = "model"

MESH = jax.make_mesh((2, 4), (DATA_AXIS, MODEL_AXIS))
PY
fi
if [ "${VARIANT:-}" = helper ]; then
# The first layout tried (README step 1b): the mesh built by a helper, its shape a constant and its
# axis types a parameter's default.
cat > src/vitax/config.py <<'PY'
"""Mesh and axis names, shared by the model and the trainer."""
import jax
from jax.sharding import AxisType

DATA_AXIS = "data"
MODEL_AXIS = "model"
MESH_SHAPE = (2, 4)


def make_mesh(axis_types=(AxisType.Auto,) * 2):
    """The 2 x 4 device mesh every module uses."""
    return jax.make_mesh(MESH_SHAPE, (DATA_AXIS, MODEL_AXIS), axis_types=axis_types)


MESH = make_mesh()
PY
fi
cat > src/vitax/model.py <<'PY'
"""An MLP block, its hidden dimension sharded over the model axis and its rows over the data axis."""
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from vitax.config import DATA_AXIS, MESH, MODEL_AXIS


def _block(x, w1, w2):
    h = jax.nn.gelu(x @ w1)
    return jax.lax.psum(h @ w2, MODEL_AXIS)


def mlp(params, x):
    """x: (rows, d_model) -> (rows, d_model)."""
    return jax.shard_map(
        _block,
        mesh=MESH,
        in_specs=(P(DATA_AXIS, None), P(None, MODEL_AXIS), P(MODEL_AXIS, None)),
        out_specs=P(DATA_AXIS, None),
    )(x, params["w1"], params["w2"])


def init(key, d_model=8, d_hidden=16):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (d_model, d_hidden)) * 0.02,
        "w2": jax.random.normal(k2, (d_hidden, d_model)) * 0.02,
    }


def loss(params, x):
    return jnp.mean((mlp(params, x) - x) ** 2)
PY
cat > src/vitax/train.py <<'PY'
"""Per-example gradients over a batch, the batch placed on the data axis."""
import jax
import jax.numpy as jnp

from vitax import config
from vitax.model import init, loss


def per_example_grads(params, batch):
    """batch: (examples, rows, d_model) -> one gradient pytree per example."""
    return jax.vmap(jax.grad(loss), in_axes=(None, 0), spmd_axis_name=config.DATA_AXIS)(params, batch)


def main():
    params = init(jax.random.PRNGKey(0))
    batch = jnp.ones((4, 8, 8))
    grads = per_example_grads(params, batch)
    print(jax.tree.map(lambda g: g.shape, grads))


if __name__ == "__main__":
    main()
PY
cat > tests/test_model.py <<'PY'
import jax

from vitax.model import init, mlp


def test_mlp_shape():
    params = init(jax.random.PRNGKey(0))
    assert mlp(params, jax.numpy.ones((8, 8))).shape == (8, 8)
PY
python3 - <<'PY'
import json
cells = [
    ("markdown", "# Exploring the MLP\nPer-example losses, sharded."),
    ("code", "%matplotlib inline\nimport jax\nimport jax.numpy as jnp\nfrom vitax import model"),
    ("code", "params = model.init(jax.random.PRNGKey(0))\nxs = jnp.ones((4, 8, 8))"),
    ("code", "losses = jax.vmap(model.loss, in_axes=(None, 0), spmd_axis_name=\"data\")(params, xs)\nlosses"),
]
nb = {
    "cells": [
        {"cell_type": t, "metadata": {}, "source": src.splitlines(keepends=True), **({"outputs": [], "execution_count": None} if t == "code" else {})}
        for t, src in cells
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                 "language_info": {"name": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}
with open("notebooks/explore.ipynb", "w") as f:
    json.dump(nb, f, indent=1)
    f.write("\n")
PY
git add -A
git -c user.name=t -c user.email=t@example.com commit -qm "vitax: sharded MLP and per-example gradients"
echo "$root"
