"""p3: decorators, a dataclass layer, a capture."""
