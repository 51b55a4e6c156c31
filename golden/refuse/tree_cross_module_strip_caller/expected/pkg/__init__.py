from .model import forward

__all__ = ["forward"]
