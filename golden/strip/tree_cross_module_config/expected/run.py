import numpy as np

from pkg.data import place
from pkg.train import step


def main():
    xs = (np.arange(4 * 8 * 16, dtype=np.float32).reshape(4, 8, 16) % 7 - 3.0) / 4.0
    return step(place(xs)), (np.tanh(xs) * 0.5 + xs) * 2.0
