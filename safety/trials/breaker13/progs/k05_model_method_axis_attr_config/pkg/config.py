from dataclasses import dataclass


@dataclass(frozen=True)
class Axes:
    data: str = 'x'
    model: str = 'y'


AXES = Axes()
