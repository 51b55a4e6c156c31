from pkg.train import WS, XS, forward


def main():
    return forward(), XS * (WS * 2.0)[:, None, None]
