from pkg.base import Base

Layer = Base


def apply(v):
    return Layer()(v)
