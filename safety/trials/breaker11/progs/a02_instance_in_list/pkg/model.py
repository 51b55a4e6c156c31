from pkg.base import Base


class Layer(Base):
    pass


LAYERS = [Layer()]


def apply(v):
    return LAYERS[0](v)
