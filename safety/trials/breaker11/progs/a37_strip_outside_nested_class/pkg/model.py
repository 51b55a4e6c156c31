from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


class Outer:
    class Narrow(Base):
        pass


def evaluate(v):
    return Outer.Narrow()(v)
