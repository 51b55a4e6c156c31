from pkg.pipeline import forward

__all__ = ["forward"]
