#!/usr/bin/env bash
# newuser6's trial project: a small src/ layout JAX package (mesh in config.py, a shard_map'd layer in
# model.py whose specs name the data axis, a per-example loss vmapped with spmd_axis_name=config.DATA in
# train.py), a git repository with README's pre-commit hooks, and a directory of bad inputs.
# Usage: make_project.sh DIR   (DIR/proj and DIR/bad are created; DIR must not exist)
set -euo pipefail
dir=$1
mkdir -p "$dir/proj/src/trainer" "$dir/bad/empty" "$dir/bad/nopy"
cd "$dir/proj"
git init -q
cat > pyproject.toml <<'TOML'
[project]
name = "trainer"
version = "0.0.1"
requires-python = ">=3.11"

[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"
TOML
: > src/trainer/__init__.py
cat > src/trainer/config.py <<'PY'
"""Mesh and axis names shared by the model and the trainer."""
import jax
import numpy as np
from jax.sharding import Mesh

DATA = "data"
MODEL = "model"

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))
PY
cat > src/trainer/model.py <<'PY'
"""A dense layer sharded over the data and model axes."""
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from trainer.config import DATA, MESH, MODEL


def _dense_block(x, w):
    return jnp.tanh(x @ w)


def dense(x, w):
    return jax.shard_map(
        _dense_block,
        mesh=MESH,
        in_specs=(P(DATA, None), P(None, MODEL)),
        out_specs=P(DATA, MODEL),
    )(x, w)


def init(key, d_in, d_out):
    return jax.random.normal(key, (d_in, d_out)) * 0.02
PY
cat > src/trainer/train.py <<'PY'
"""Per-example loss over a batch, the batch placed on the data axis."""
import jax
import jax.numpy as jnp

from trainer import config
from trainer.model import dense, init


def loss(w, x):
    return jnp.mean(dense(x, w) ** 2)


def batched_loss(w, xs):
    return jax.vmap(loss, in_axes=(None, 0), spmd_axis_name=config.DATA)(w, xs)


def main():
    key = jax.random.PRNGKey(0)
    w = init(key, 8, 16)
    xs = jnp.ones((4, 8, 8))
    print(batched_loss(w, xs))


if __name__ == "__main__":
    main()
PY
cat > .pre-commit-config.yaml <<'YAML'
# .pre-commit-config.yaml (README's "pre-commit" section, verbatim)
repos:
  - repo: local
    hooks:
      - id: spmdfix-fix      # apply safe fixes; the commit stops when files changed or findings remain
        name: spmdfix fix
        entry: spmdfix fix --force-exclude
        language: system
        types_or: [python, pyi, jupyter]
        require_serial: true
      - id: spmdfix-check
        name: spmdfix check
        entry: spmdfix check --force-exclude --output-format concise
        language: system
        types_or: [python, pyi, jupyter]
        require_serial: true
YAML
git add -A && git -c user.name=t -c user.email=t@t commit -qm init
cd "$dir/bad"
printf 'import jax\ndef f(:\n  jax.vmap(g, spmd_axis_name="x")\nshard_map\n' > broken.py
printf 'import jax\nx = "\xff\xfe"\njax.vmap(f, spmd_axis_name="x")  # shard_map\n' > latin.py
echo hi > nopy/readme.txt
echo "made $dir/proj and $dir/bad"
