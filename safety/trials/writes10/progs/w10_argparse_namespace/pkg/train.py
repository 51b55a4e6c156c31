import jax
import jax.numpy as jnp
import numpy as np
import argparse
from pkg.config import CFG

from pkg.model import block

_parser = argparse.ArgumentParser()
_parser.add_argument("--data_axis", default="data")
_parser.parse_args(["--data_axis", "data"], namespace=CFG)

def main():
    xs = jnp.arange(32.0).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name="data")(xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")
