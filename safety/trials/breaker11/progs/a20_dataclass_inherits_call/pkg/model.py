import dataclasses

from pkg.base import Base


@dataclasses.dataclass
class Layer(Base):
    scale: float = 1.0


def apply(v):
    return Layer(1.0)(v)
