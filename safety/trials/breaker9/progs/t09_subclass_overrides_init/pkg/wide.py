from pkg.model import Layer


class Wide(Layer):
    def __init__(self, scale):
        super().__init__(scale, axis="model")
