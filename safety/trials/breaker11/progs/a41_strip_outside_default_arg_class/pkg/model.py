from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


def evaluate(v, cls=Wide):
    return cls()(v)
