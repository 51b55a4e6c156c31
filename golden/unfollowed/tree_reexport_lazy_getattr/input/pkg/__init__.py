import importlib

_LAZY = {'block': 'layers'}


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module('.' + _LAZY[name], __name__), name)
    raise AttributeError(name)
