from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


class Deep(Wide):
    pass


def evaluate(v):
    return Deep()(v)
