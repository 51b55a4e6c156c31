from pkg.base import Base


class Layer(Base):
    pass


Base = Layer


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)
