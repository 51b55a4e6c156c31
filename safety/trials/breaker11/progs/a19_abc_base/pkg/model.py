from pkg.base import Base


class Layer(Base):
    def extra(self):
        return 1


def apply(v):
    return Layer()(v)
