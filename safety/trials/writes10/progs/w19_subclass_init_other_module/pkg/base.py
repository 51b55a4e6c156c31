import dataclasses


@dataclasses.dataclass
class Base:
    data_axis: str = "model"
