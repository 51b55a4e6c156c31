from pkg.base import Base


class Plain:
    def __call__(self, v):
        return v * 2.0


class Mid(Base):
    pass


class Layer(Plain, Mid):
    pass


def apply(v):
    return Layer()(v)
