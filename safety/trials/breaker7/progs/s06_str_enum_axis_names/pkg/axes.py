import enum


class Axis(str, enum.Enum):
    DATA = "data"
    MODEL = "model"
