from pkg.model import vf


def second(b):
    return vf(b)
