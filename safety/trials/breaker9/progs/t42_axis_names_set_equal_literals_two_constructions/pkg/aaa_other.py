from pkg.model import Layer

OTHER = Layer({"model"})
