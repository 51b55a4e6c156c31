from pkg.base import Base


class Layer(Base):
    pass


def run(layer, v):
    return layer(v)


def apply(v):
    return run(Layer(), v)
