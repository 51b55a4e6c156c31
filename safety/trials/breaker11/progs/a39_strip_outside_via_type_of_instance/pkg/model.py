from pkg.base import Base


class Wide(Base):
    pass


SEEN = []


def apply(v):
    w = Wide()
    SEEN.append(w)
    return w(v)


def evaluate(v):
    return type(SEEN[0])()(v)
