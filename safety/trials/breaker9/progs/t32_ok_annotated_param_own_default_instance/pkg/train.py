import numpy as np

from pkg.model import Layer, run


def main():
    out, xs = run(Layer(AXIS="model"))
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")
