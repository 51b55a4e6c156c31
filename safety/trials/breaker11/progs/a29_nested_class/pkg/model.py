from pkg.base import Base


class Outer:
    class Layer(Base):
        pass


def apply(v):
    return Outer.Layer()(v)
