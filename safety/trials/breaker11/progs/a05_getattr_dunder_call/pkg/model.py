from pkg.base import Base


class Layer(Base):
    pass


def apply(v):
    return getattr(Layer(), '__call__')(v)
