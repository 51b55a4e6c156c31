from pkg.base import Base


class Layer(Base):
    pass


LAYERS = {'layer': Layer()}


def apply(v):
    return LAYERS['layer'](v)
