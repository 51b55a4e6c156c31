from pkg.base import Base


class Layer(Base):
    pass


class Model:
    layer = Layer()


def apply(v):
    return Model.layer(v)
