from pkg.blocks import block


def model(x):
    return block(x) + 1.0
