from pkg.train import WS, XS, forward


def main():
    return forward(), (XS * 2.0 + 1.0) * WS[:, None, None]
