import numpy as np
from pkg.model import first
from pkg.other import second


def run(a, b):
    return first(a), second(b)


def main():
    a = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    b = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    outs = run(a, b)
    ok = all(np.allclose(np.asarray(o), x * 2.0) for o, x in zip(outs, (a, b)))
    print("RESULT: match" if ok else "RESULT: mismatch")


main()
