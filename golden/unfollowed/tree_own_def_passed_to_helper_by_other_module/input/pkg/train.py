from pkg.model import accumulate, inner


def step(xs):
    return accumulate(inner, xs)
