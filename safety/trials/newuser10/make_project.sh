#!/bin/sh
# Rebuilds the trial project in DIR/proj (a git repository with one commit). Usage: make_project.sh DIR
set -e
mkdir -p "$1/proj" && cd "$1/proj"
mkdir -p src/ddp tests
cat > 'pyproject.toml' <<'SPMDFIX_EOF'
[project]
name = "ddp"
version = "0.1.0"
requires-python = ">=3.10"
dependencies = ["jax"]

[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[tool.setuptools.packages.find]
where = ["src"]
SPMDFIX_EOF
cat > '.gitignore' <<'SPMDFIX_EOF'
.spmdfix_cache/
SPMDFIX_EOF
cat > 'src/ddp/__init__.py' <<'SPMDFIX_EOF'
"""Toy data/model-parallel package."""
SPMDFIX_EOF
cat > 'src/ddp/config.py' <<'SPMDFIX_EOF'
"""Mesh and axis names for the toy model."""
import dataclasses

import jax
from jax.sharding import AxisType

DATA = "data"
MODEL = "model"


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    batch: int = 4
    seq: int = 8
    width: int = 16
    batch_axis: str = DATA


CFG = TrainConfig()


def make_mesh():
    return jax.make_mesh((2, 4), (DATA, MODEL), axis_types=(AxisType.Auto,) * 2)


MESH = make_mesh()
SPMDFIX_EOF
cat > 'src/ddp/model.py' <<'SPMDFIX_EOF'
"""shard_map'd layers."""
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from ddp.config import DATA, MESH, MODEL


def row_spec(axis):
    return P(axis, None)


def _scale_body(block):
    return block * 2.0 + 1.0


def scale_layer(x):
    # collision 1: x's rows split over DATA, which train.py's vmap uses as spmd_axis_name
    return jax.shard_map(_scale_body, mesh=MESH, in_specs=row_spec(DATA),
                         out_specs=row_spec(DATA))(x)


def _norm_body(block):
    return block / (1.0 + jax.lax.psum(jnp.sum(block * block), MODEL))


def norm_layer(x):
    # columns over MODEL; psum over MODEL
    return jax.shard_map(_norm_body, mesh=MESH, in_specs=P(None, MODEL),
                         out_specs=P(None, MODEL))(x)


def forward(x):
    return norm_layer(scale_layer(x))
SPMDFIX_EOF
cat > 'src/ddp/train.py' <<'SPMDFIX_EOF'
"""Batched training step."""
import jax
import jax.numpy as jnp

from ddp import config
from ddp.model import forward, norm_layer


def loss(x):
    return jnp.sum(forward(x))


@jax.jit
def step(xs):
    # collision 1: spmd_axis_name DATA vs row_spec(DATA) in model.scale_layer
    return jax.vmap(loss, spmd_axis_name=config.CFG.batch_axis)(xs)


@jax.jit
def step_model(xs):
    # collision 2: spmd_axis_name MODEL vs norm_layer's P(None, MODEL)
    return jax.vmap(norm_layer, spmd_axis_name=config.MODEL)(xs)


def main():
    c = config.CFG
    xs = jnp.arange(c.batch * c.seq * c.width, dtype=jnp.float32).reshape(c.batch, c.seq, c.width) / 100.0
    print("step", step(xs))
    print("step_model", step_model(xs).sum())


if __name__ == "__main__":
    main()
SPMDFIX_EOF
cat > 'tests/test_train.py' <<'SPMDFIX_EOF'
import jax.numpy as jnp

from ddp.model import forward


def test_forward_shape():
    x = jnp.ones((8, 16))
    assert forward(x).shape == (8, 16)
SPMDFIX_EOF
cat > 'run_ref.py' <<'SPMDFIX_EOF'
"""Run train.main, and a reference per example without vmap."""
import os, sys
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "src"))
import jax, jax.numpy as jnp
from ddp import config, model, train
c = config.CFG
xs = jnp.arange(c.batch * c.seq * c.width, dtype=jnp.float32).reshape(c.batch, c.seq, c.width) / 100.0
ref1 = jnp.stack([jnp.sum(jax.jit(model.forward)(x)) for x in xs])
ref2 = jnp.stack([jax.jit(model.norm_layer)(x) for x in xs]).sum()
for name, fn, ref in [("step", train.step, ref1), ("step_model", lambda v: train.step_model(v).sum(), ref2)]:
    try:
        got = fn(xs)
        print(name, "OK" if jnp.allclose(got, ref, rtol=1e-5) else "MISMATCH", got, ref)
    except Exception as e:
        print(name, "ERROR", type(e).__name__, str(e).splitlines()[0][:150])
SPMDFIX_EOF
cat > 'explore.ipynb' <<'SPMDFIX_EOF'
{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": [
    "# Explore the model"
   ]
  },
  {
   "cell_type": "code",
   "metadata": {},
   "source": [
    "import jax\n",
    "import jax.numpy as jnp\n",
    "from ddp.model import scale_layer\n",
    "from ddp import config"
   ],
   "outputs": [],
   "execution_count": null
  },
  {
   "cell_type": "code",
   "metadata": {},
   "source": [
    "%matplotlib inline\n",
    "xs = jnp.ones((4, 8, 16))"
   ],
   "outputs": [],
   "execution_count": null
  },
  {
   "cell_type": "code",
   "metadata": {},
   "source": [
    "ys = jax.vmap(scale_layer, spmd_axis_name=config.DATA)(xs)\n",
    "print(ys.sum())"
   ],
   "outputs": [],
   "execution_count": null
  }
 ],
 "metadata": {
  "kernelspec": {
   "name": "python3",
   "display_name": "Python 3",
   "language": "python"
  },
  "language_info": {
   "name": "python"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
SPMDFIX_EOF
git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm "trial project"
echo "$1/proj"
