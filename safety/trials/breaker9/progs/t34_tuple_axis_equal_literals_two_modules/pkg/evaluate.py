import numpy as np

from pkg.model import accumulate


def check():
    out, xs = accumulate(3.0, "data")
    return np.allclose(out, np.asarray(xs) * 2.0)
