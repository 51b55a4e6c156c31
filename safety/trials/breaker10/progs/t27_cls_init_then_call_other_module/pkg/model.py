from pkg.base import Base


class Layer(Base):
    def __init__(self, scale=2.0):
        self.scale = scale


def apply(v):
    return Layer(2.0)(v)
