import numpy as np

from pkg.model import inner, run


def main():
    out, xs = run(inner)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0 + 1.0) else "mismatch")
