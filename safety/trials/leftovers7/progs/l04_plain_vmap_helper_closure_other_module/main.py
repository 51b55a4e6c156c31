import numpy as np

from pkg.train import main as run

out = run()
print("RESULT:", "match" if np.allclose(out, np.tanh(np.ones((4, 8)) + 1.0), atol=1e-5) else "mismatch")
