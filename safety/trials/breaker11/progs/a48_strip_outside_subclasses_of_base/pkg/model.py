from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


def evaluate(v):
    return Base.__subclasses__()[0]()(v)
