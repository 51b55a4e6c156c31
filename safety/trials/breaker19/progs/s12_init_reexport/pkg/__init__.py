from .model import ROWS  # noqa: F401
