import dataclasses

from pkg.model import Layer


@dataclasses.dataclass
class Wide(Layer):
    AXIS: str = "model"
