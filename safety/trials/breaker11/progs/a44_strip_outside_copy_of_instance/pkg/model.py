from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


import copy

PROTO = Wide()


def apply2(v):
    return PROTO(v)


def evaluate(v):
    return copy.copy(PROTO)(v)
