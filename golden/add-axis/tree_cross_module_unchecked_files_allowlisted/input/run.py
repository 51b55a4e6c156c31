import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))  # a src/ layout

import numpy as np  # noqa: E402

from pkg.placement import place  # noqa: E402
from pkg.train import step  # noqa: E402
from scripts.warmup import replicate  # noqa: E402


def main():
    xs = (np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7 - 3.0) / 4.0
    w = (np.arange(16 * 8, dtype=np.float32).reshape(16, 8) % 5 - 2.0) / 3.0
    return step(replicate(xs), place(w)), xs @ w
