from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


CLASSES = {'wide': Wide}


def evaluate(v):
    return CLASSES['wide']()(v)
