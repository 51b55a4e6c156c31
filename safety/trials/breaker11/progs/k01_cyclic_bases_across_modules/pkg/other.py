from pkg.model import Layer


class Other(Layer):
    pass
