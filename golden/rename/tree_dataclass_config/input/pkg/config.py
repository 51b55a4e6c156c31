import dataclasses


class Axes:
    BATCH = 'x'
    SPARE = 'y'
    MODEL = 'z'


@dataclasses.dataclass(frozen=True)
class Config:
    batch_axis: str = Axes.BATCH
    width: int = 8
