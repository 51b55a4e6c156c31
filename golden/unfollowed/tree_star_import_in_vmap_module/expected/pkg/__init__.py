from .layers import block

__all__ = ['block']
