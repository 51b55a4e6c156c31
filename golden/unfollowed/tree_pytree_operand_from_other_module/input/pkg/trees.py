def pack(x, w):
    return {'a': x, 'b': w}
