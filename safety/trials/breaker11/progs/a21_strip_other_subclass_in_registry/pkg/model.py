from pkg.base import Base


class Wide(Base):
    pass


class Narrow(Base):
    pass


REGISTRY = {'narrow': Narrow()}


def apply(v):
    return Wide()(v)


def evaluate(v):
    return REGISTRY['narrow'](v)
