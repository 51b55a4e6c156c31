from dataclasses import dataclass

DATA = "data"
MODEL = "model"


@dataclass(frozen=True)
class TrainConfig:
    batch: int = 8
    hidden: int = 16
    lr: float = 0.1
