import numpy as np

import pkg.evaluate
from pkg.model import accumulate


def main():
    out, xs = accumulate(1.0, "data")
    ok = np.allclose(out, np.asarray(xs) * 2.0) and pkg.evaluate.check()
    print("RESULT:", "match" if ok else "mismatch")
