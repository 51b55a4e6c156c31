from typing import Generic, TypeVar

from pkg.base import Base

T = TypeVar('T')


class Layer(Base, Generic[T]):
    pass


def apply(v):
    return Layer()(v)
