from pkg.base import Base


class Wide(Base):
    pass


def apply(v):
    return Wide()(v)


from pkg.evaluate import evaluate
