import numpy as np

W = np.arange(1.0, 5.0, dtype=np.float32)
