from pkg.base import Base

Alias = Base


class Layer(Alias):
    pass


class Alias(Layer):
    pass


def apply(v):
    return Alias()(v)
