from pkg.base import Base


class Layer(Base):
    pass


apply = Layer().__call__
