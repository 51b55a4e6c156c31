from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


class Narrow(Base):
    def __call__(self, v):
        return super().__call__(v)


def evaluate(v):
    return Narrow()(v)
