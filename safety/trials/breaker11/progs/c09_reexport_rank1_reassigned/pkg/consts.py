from pkg.config import W

W = W.reshape(2, 4).T.reshape(1, 8)
