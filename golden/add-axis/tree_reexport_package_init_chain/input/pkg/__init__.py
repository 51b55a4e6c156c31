from .nn import block as blk

__all__ = ['blk']
