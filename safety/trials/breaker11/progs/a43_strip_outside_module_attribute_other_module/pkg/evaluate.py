import pkg.model


def evaluate(v):
    return pkg.model.Wide()(v)
