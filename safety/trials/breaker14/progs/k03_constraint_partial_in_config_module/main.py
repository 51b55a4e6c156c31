import numpy as np
from pkg import train

XS = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0

if __name__ == "__main__":
    out = train.compute()
    ref = XS * 2.0
    print("RESULT: match" if np.allclose(np.asarray(out), np.asarray(ref), atol=1e-5) else "RESULT: mismatch")
