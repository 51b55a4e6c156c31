import numpy as np

from pkg.model import forward


def main():
    result, xs = forward()
    x = np.asarray(xs)
    block_sums = x.reshape(4, 2, 2, 2, 2).sum(axis=(2, 4), keepdims=True)  # (2, 2) blocks of each example
    reference = (x.reshape(4, 2, 2, 2, 2) + 2.0 * block_sums).reshape(4, 4, 4)  # 'z' has size 2
    return result, reference
