import numpy as np
from pkg.train import step


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    return step(xs), xs * 2.0
