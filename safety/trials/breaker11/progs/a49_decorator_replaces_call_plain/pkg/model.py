from pkg.base import Base


def plain_call(cls):
    cls.__call__ = lambda self, v: v * 2.0
    return cls


@plain_call
class Layer(Base):
    pass


def apply(v):
    return Layer()(v)
