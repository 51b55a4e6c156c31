from pkg.base import Base


class Layer(Base):
    pass


def _plain(self, v):
    return v * 2.0


Layer.__call__ = _plain


def apply(v):
    return Layer()(v)
