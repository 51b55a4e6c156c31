from pkg.base import Base


class Wide(Base):
    pass


def make():
    return Wide()


def apply(v):
    return make()(v)


def evaluate(v):
    f = make()
    return f(v)
