import numpy as np

from pkg.config import W
from pkg.train import forward


def main():
    xs = (np.arange(8 * 8 * 8, dtype=np.float32).reshape(8, 8, 8) - 21.0) / 16.0
    out = forward(xs)
    print("RESULT: match" if np.allclose(np.asarray(out), xs * np.asarray(W)) else "RESULT: mismatch")


main()
