from . import layers
from .layers import block

__all__ = ['block', 'layers']
