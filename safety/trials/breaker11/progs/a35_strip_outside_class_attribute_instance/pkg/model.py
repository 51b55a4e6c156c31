from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


class Holder:
    layer = Base()


def evaluate(v):
    return Holder.layer(v)
