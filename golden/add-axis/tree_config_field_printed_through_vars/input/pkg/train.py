import argparse
import sys

import jax
from pkg.config import CFG
from pkg.model import block


def parse(argv=()):
    parser = argparse.ArgumentParser()
    parser.add_argument('--steps', type=int, default=1)
    args = parser.parse_args(list(argv))
    print(vars(args), file=sys.stderr)
    print(sorted(vars(CFG)), file=sys.stderr)
    return args


def step(xs):
    parse()
    return jax.vmap(block, spmd_axis_name='data')(xs)
