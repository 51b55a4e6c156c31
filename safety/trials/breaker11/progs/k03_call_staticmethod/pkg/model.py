from pkg.base import Base


def _plain(v):
    return Base()(v)


class Layer:
    __call__ = staticmethod(_plain)


def apply(v):
    return Layer()(v)
