from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


def evaluate(v):
    w = Wide()
    return w.__class__()(v)
