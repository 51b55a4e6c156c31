import numpy as np

LO = np.zeros(6, np.float32)
HI = np.ones(6, np.float32)
STEPS = 8
