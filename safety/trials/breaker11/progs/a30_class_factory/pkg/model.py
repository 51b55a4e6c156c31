from pkg.base import Base


def make():
    class Layer(Base):
        pass
    return Layer


def apply(v):
    return make()()(v)
